/** A label's rules, which the API checks and the label form checks first. */

/** Letters of any script (with their marks), digits, `-` and `_`: one word, in a URL or a CSV cell alike (emptiness is the length's to report). */
export const labelTitlePattern = /^[\p{L}\p{M}\p{N}_-]*$/u
/** `#rrggbb`. */
export const labelColorPattern = /^#[0-9a-fA-F]{6}$/
export const labelLimits = { title: 50, description: 200 } as const

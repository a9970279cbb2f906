/**
 * User-written text set inside a translated sentence, isolated (U+2068 first strong isolate … U+2069
 * pop directional isolate) so an Arabic name in English, or a Latin one in Arabic, keeps its own
 * direction and leaves the sentence's punctuation where it belongs: `<bdi>` for plain strings.
 */
export const isolated = (text: string) => `\u2068${text}\u2069`

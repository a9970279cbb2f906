import QRCode from 'qrcode'

/** What the profile shows while two-step sign-in is being set up: the API's answer to `/auth/two-factor/setup`. */
export type TwoFactorSetup = { secret: string; uri: string; qrSvg: string }

/**
 * The set-up again after a wrong first code, from the secret and URI the form sent back (the API
 * shows a secret once): the QR code is drawn again here. Anything but an otpauth URI of that
 * secret is dropped.
 */
export async function setupAgain(secret: string | undefined, uri: string | undefined): Promise<TwoFactorSetup | null> {
	if (!secret || !uri || !/^[A-Z2-7]+$/.test(secret) || !uri.startsWith('otpauth://totp/') || new URL(uri).searchParams.get('secret') !== secret) return null
	return { secret, uri, qrSvg: await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) }
}

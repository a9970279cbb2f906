import { type ApiClient, type SessionJson, type UserJson } from './api.ts'

// The user's own account (api/auth/router.ts): signing in and out, the profile, its devices and two-step sign-in.

/** What signing in or up answers: the session's token and the user. */
export type AuthResponse = { access_token: string; user: UserJson }
/** A password that was right, for an account with two-step sign-in: the code comes next, with this challenge. */
export type TwoFactorChallenge = { twoFactorRequired: true; challenge: string; expiresAt: string }
/** Whether two-step sign-in is on, since when, and how many recovery codes are left. */
export type TwoFactorState = { enabled: boolean; enabledAt: string | null; recoveryCodesLeft: number }
/** What the profile shows while two-step sign-in is being set up: the secret, its otpauth URI and its QR code. */
export type TwoFactorSetup = { secret: string; uri: string; qrSvg: string }

export const login = (api: ApiClient, credentials: { email: string; password: string }) =>
	api.post<AuthResponse | TwoFactorChallenge>('/auth/login', credentials)

/** The second step: the challenge and a code of the app or a recovery code. */
export const loginTwoFactor = (api: ApiClient, answer: { challenge: string } & ({ code: string } | { recoveryCode: string })) =>
	api.post<AuthResponse>('/auth/login/two-factor', answer)

export const register = (api: ApiClient, registration: object) => api.post<AuthResponse>('/auth/register', registration)

export const logout = (api: ApiClient) => api.post('/auth/logout')

export const getProfile = (api: ApiClient) => api.get<UserJson>('/auth/profile')

export const updateProfile = (api: ApiClient, changes: object) => api.patch<UserJson>('/auth/profile', changes)

export const forgotPassword = (api: ApiClient, email: string) => api.post('/auth/forgot-password', { email })

export const validateResetToken = (api: ApiClient, token: string) => api.post('/auth/validate-reset-token', { token })

export const resetPassword = (api: ApiClient, token: string, password: string) => api.post('/auth/reset-password', { token, password })

export const changePassword = (api: ApiClient, currentPassword: string, password: string) => api.post('/auth/change-password', { currentPassword, password })

export const verifyEmail = (api: ApiClient, token: string) => api.post('/auth/verify-email', { token })

export const resendVerification = (api: ApiClient) => api.post('/auth/resend-verification')

/** The devices signed in to the account. */
export const listSessions = (api: ApiClient) => api.get<{ sessions: SessionJson[] }>('/auth/sessions').then((answer) => answer.sessions)

export const revokeSession = (api: ApiClient, sessionId: string) => api.delete(`/auth/sessions/${encodeURIComponent(sessionId)}`)

export const revokeOtherSessions = (api: ApiClient) => api.post('/auth/sessions/revoke-others')

export const twoFactorState = (api: ApiClient) => api.get<TwoFactorState>('/auth/two-factor')

export const setUpTwoFactor = (api: ApiClient) => api.post<TwoFactorSetup>('/auth/two-factor/setup')

/** The first code of the app turns two-step sign-in on: the answer is the recovery codes, shown once. */
export const enableTwoFactor = (api: ApiClient, code: string) => api.post<{ recoveryCodes: string[] }>('/auth/two-factor/enable', { code })

export const regenerateRecoveryCodes = (api: ApiClient, code: string) => api.post<{ recoveryCodes: string[] }>('/auth/two-factor/recovery-codes', { code })

export const disableTwoFactor = (api: ApiClient, answer: { password: string } & ({ code: string } | { recoveryCode: string })) =>
	api.post('/auth/two-factor/disable', answer)

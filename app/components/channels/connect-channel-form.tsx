import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import * as field from '#app/components/ui/field.css.ts'
import { fieldMessages, type Reply } from './link-channel-form.tsx'

/**
 * One field of a provider's form: secrets are password fields, never filled again after a refusal;
 * `label` when its words differ from its name's; `credential`: kept encrypted, replaceable on the
 * channel's page (every secret is one).
 */
type ConnectField = { name: string; label?: string; secret?: boolean; credential?: boolean; optional?: boolean; help?: boolean }

// A Facebook Page's Messenger Platform: the same fields for Messenger, Facebook and Instagram.
const pageFields: ConnectField[] = [
	{ name: 'name' },
	{ name: 'pageId', help: true },
	{ name: 'accessToken', label: 'pageAccessToken', secret: true, help: true },
	{ name: 'appSecret', secret: true },
	{ name: 'verifyToken', credential: true, optional: true, help: true },
]

const fieldsOf = {
	telegram: [{ name: 'name' }, { name: 'botToken', secret: true, help: true }],
	whatsapp: [
		{ name: 'name' },
		{ name: 'phoneNumberId', help: true },
		{ name: 'businessAccountId' },
		{ name: 'accessToken', secret: true, help: true },
		{ name: 'appSecret', secret: true },
		{ name: 'verifyToken', credential: true, optional: true, help: true },
	],
	messenger: pageFields,
	facebook: pageFields,
	instagram: pageFields,
} satisfies Record<string, ConnectField[]>

export type ConnectKind = keyof typeof fieldsOf

/** The kinds connected with a provider's credentials, each with its own form. */
export const connectKinds = Object.keys(fieldsOf) as ConnectKind[]

const isConnectKind = (kind: string): kind is ConnectKind => kind in fieldsOf

/** The credentials of a kind, in its form's order: what the channel's page can replace. */
export const credentialFieldsOf = (kind: string): ConnectField[] =>
	isConnectKind(kind) ? (fieldsOf[kind] as ConnectField[]).filter((each) => each.secret || each.credential) : []

/**
 * Connects a messaging channel with what its provider needs (Telegram: the token @BotFather gave;
 * WhatsApp: the number's ids and the app's secrets from Meta's App Dashboard; Messenger, Facebook
 * and Instagram: the page's id, its token and the app's secret). The API checks
 * them with the provider before keeping anything. A plain form (it works without JavaScript).
 */
export function ConnectChannelForm({ kind, reply, pending }: { kind: ConnectKind; reply: Reply; pending: boolean }) {
	const { t } = useTranslation('channels')
	const { errorsOf, described, errorList } = fieldMessages(reply, `${kind}-`)
	const fields: ConnectField[] = fieldsOf[kind]
	return (
		<Form method="post" className={field.form} key={JSON.stringify(reply?.values ?? {})}>
			<input type="hidden" name="kind" value={kind} />
			{reply?.formError ? (
				<div role="alert" className={field.formErrors}>
					{reply.formError}
				</div>
			) : null}
			{fields.map(({ name, label = name, secret, optional, help }) => {
				const id = `${kind}-${name}`
				return (
					<div key={name} className={field.field}>
						<label className={field.label} htmlFor={id}>
							{name === 'name' ? t('ui.name') : t(`ui.fields.${label}`)}
						</label>
						<input
							id={id}
							name={name}
							type={secret ? 'password' : 'text'}
							required={!optional}
							maxLength={name === 'name' ? 80 : 512}
							dir={name === 'name' ? undefined : 'ltr'}
							spellCheck={false}
							autoComplete="off"
							defaultValue={secret ? undefined : String(reply?.values[name] ?? '')}
							className={field.input}
							aria-invalid={errorsOf(name) ? true : undefined}
							aria-describedby={[described(name, help), secret && reply ? `${kind}-${name}-cleared` : ''].filter(Boolean).join(' ') || undefined}
						/>
						{help ? (
							<p id={`${kind}-${name}-help`} className={field.help}>
								{t(`ui.fieldHelp.${label}`)}
							</p>
						) : null}
						{/* A secret is never sent back to the browser: after a failed attempt it must be typed again, and the form says so. */}
						{secret && reply ? (
							<p id={`${kind}-${name}-cleared`} className={field.help}>
								{t('ui.secretCleared')}
							</p>
						) : null}
						{errorList(name)}
					</div>
				)
			})}
			<div>
				<Button type="submit" disabled={pending}>
					{t(kind === 'telegram' ? 'ui.connect' : kind === 'whatsapp' ? 'ui.connectNumber' : 'ui.connectPage')}
				</Button>
			</div>
		</Form>
	)
}

/**
 * Replaces some of a connected channel's credentials: each shows the end of the one kept; what is
 * typed replaces it, what is left empty stays. Checked with the provider like a new connection.
 */
export function ReplaceCredentialsForm({ kind, masked, reply, pending }: { kind: string; masked: Record<string, string>; reply: Reply; pending: boolean }) {
	const { t } = useTranslation('channels')
	const { errorsOf, errorList } = fieldMessages(reply)
	const ours = reply?.values.intent === 'credentials'
	return (
		<Form method="post" className={field.form}>
			<input type="hidden" name="intent" value="credentials" />
			{ours && reply?.formError ? (
				<div role="alert" className={field.formErrors}>
					{reply.formError}
				</div>
			) : null}
			{/* Nothing typed here comes back from the server: said, so that nobody thinks it was kept. */}
			{ours ? <p className={field.help}>{t('ui.credentialsCleared')}</p> : null}
			{credentialFieldsOf(kind).map(({ name, label = name, secret }) => {
				const id = `replace-${name}`
				return (
					<div key={name} className={field.field}>
						<label className={field.label} htmlFor={id}>
							{t(`ui.fields.${label}`)}
						</label>
						<input
							id={id}
							name={name}
							type={secret ? 'password' : 'text'}
							maxLength={512}
							dir="ltr"
							spellCheck={false}
							autoComplete="off"
							className={field.input}
							aria-invalid={ours && errorsOf(name) ? true : undefined}
							aria-describedby={[`${id}-help`, ours && errorsOf(name) ? `${name}-error` : ''].filter(Boolean).join(' ')}
						/>
						<p id={`${id}-help`} className={field.help}>
							{masked[name] ? t('ui.credentialKept', { value: masked[name] }) : t('ui.credentialNone')}
						</p>
						{ours ? errorList(name) : null}
					</div>
				)
			})}
			{/* What is not a field here: nothing typed, or a page the new token cannot see. */}
			{ours ? errorList('credentials') : null}
			{ours ? errorList('pageId') : null}
			<div>
				<Button type="submit" disabled={pending}>
					{t('ui.replaceCredentials')}
				</Button>
			</div>
		</Form>
	)
}

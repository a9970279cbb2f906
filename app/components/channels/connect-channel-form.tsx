import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import { ErrorList, FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as field from '#app/components/ui/field.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'

const loadSchema = () => import('./connect-channel-form.schema.ts').then((module) => module.connectChannelSchema)
const loadCredentialsSchema = () => import('./connect-channel-form.schema.ts').then((module) => module.replaceCredentialsSchema)

type Result = SubmissionResult<string[]> | undefined

/**
 * One field of a provider's form: secrets are password fields, never filled again after a refusal;
 * `label` when its words differ from its name's; `credential`: kept encrypted, replaceable on the
 * channel's page (every secret is one).
 */
type ConnectField = { name: FieldName; label?: string; secret?: boolean; credential?: boolean; optional?: boolean; help?: boolean }
type CredentialName = 'botToken' | 'accessToken' | 'appSecret' | 'verifyToken'
type FieldName = 'name' | 'phoneNumberId' | 'businessAccountId' | 'pageId' | CredentialName

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
export const credentialFieldsOf = (kind: string) =>
	isConnectKind(kind)
		? (fieldsOf[kind] as ConnectField[]).filter((each): each is ConnectField & { name: CredentialName } => Boolean(each.secret || each.credential))
		: []

/** The fields never sent back to the page after a refusal. */
export const secretFields = [...new Set((Object.values(fieldsOf) as ConnectField[][]).flat().flatMap((each) => (each.secret ? [each.name] : [])))]

/**
 * Empties the form's `selector` inputs after each answer of the action: conform leaves what was
 * typed in the browser, and a secret must be typed again (without JavaScript the server's HTML
 * already leaves it out).
 */
function useEmptiedAfterAnswer(formId: string, selector: string, result: Result) {
	useEffect(() => {
		if (!result) return
		for (const input of document.querySelectorAll<HTMLInputElement>(`form[id="${formId}"] ${selector}`)) input.value = ''
	}, [formId, selector, result])
}

/**
 * Connects a messaging channel with what its provider needs (Telegram: the token @BotFather gave;
 * WhatsApp: the number's ids and the app's secrets from Meta's App Dashboard; Messenger, Facebook
 * and Instagram: the page's id, its token and the app's secret). The API checks
 * them with the provider before keeping anything. A plain form (it works without JavaScript).
 */
export function ConnectChannelForm({ kind, result, pending }: { kind: ConnectKind; result: Result; pending: boolean }) {
	const { t } = useTranslation('channels')
	// The form's id is the kind's: its fields' ids are `telegram-name`, `telegram-botToken`.
	const [form, fields] = useValidatedForm(loadSchema, { id: kind, lastResult: result })
	useEmptiedAfterAnswer(form.id, 'input[type="password"]', result)
	return (
		<Form method="post" {...getFormProps(form)} className={formClass}>
			<input type="hidden" name="kind" value={kind} />
			<FormErrors id={form.errorId} errors={form.errors} />
			{(fieldsOf[kind] as ConnectField[]).map(({ name, label = name, secret, optional, help }) => {
				const meta = fields[name]
				const helpId = help ? `${meta.id}-help` : ''
				// A secret is never sent back to the browser: after a failed attempt it must be typed again, and the form says so.
				const clearedId = secret && result ? `${meta.id}-cleared` : ''
				return (
					<div key={name} className={field.field}>
						<label className={field.label} htmlFor={meta.id}>
							{name === 'name' ? t('ui.name') : t(`ui.fields.${label}`)}
						</label>
						<input
							{...getInputProps(meta, { type: secret ? 'password' : 'text', ariaDescribedBy: [helpId, clearedId].filter(Boolean).join(' ') || undefined })}
							required={!optional}
							maxLength={name === 'name' ? 80 : 512}
							dir={name === 'name' ? undefined : 'ltr'}
							spellCheck={false}
							autoComplete="off"
							className={field.input}
						/>
						{help ? (
							<p id={helpId} className={field.help}>
								{t(`ui.fieldHelp.${label}`)}
							</p>
						) : null}
						{clearedId ? (
							<p id={clearedId} className={field.help}>
								{t('ui.secretCleared')}
							</p>
						) : null}
						<ErrorList id={meta.errorId} errors={meta.errors} />
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
export function ReplaceCredentialsForm({ kind, masked, result, pending }: { kind: string; masked: Record<string, string>; result: Result; pending: boolean }) {
	const { t } = useTranslation('channels')
	// The form's id gives its fields' ids: `replace-botToken`.
	const [form, fields] = useValidatedForm(loadCredentialsSchema, { id: 'replace', lastResult: result })
	useEmptiedAfterAnswer(form.id, 'input:not([type="hidden"])', result)
	return (
		<Form method="post" {...getFormProps(form)} className={formClass}>
			<input type="hidden" name="intent" value="credentials" />
			<FormErrors id={form.errorId} errors={form.errors} />
			{/* Nothing typed here comes back from the server: said, so that nobody thinks it was kept. */}
			{result ? <p className={field.help}>{t('ui.credentialsCleared')}</p> : null}
			{credentialFieldsOf(kind).map(({ name, label = name, secret }) => {
				const meta = fields[name]
				return (
					<div key={name} className={field.field}>
						<label className={field.label} htmlFor={meta.id}>
							{t(`ui.fields.${label}`)}
						</label>
						<input
							{...getInputProps(meta, { type: secret ? 'password' : 'text', ariaDescribedBy: `${meta.id}-help` })}
							maxLength={512}
							dir="ltr"
							spellCheck={false}
							autoComplete="off"
							className={field.input}
						/>
						<p id={`${meta.id}-help`} className={field.help}>
							{masked[name] ? t('ui.credentialKept', { value: masked[name] }) : t('ui.credentialNone')}
						</p>
						<ErrorList id={meta.errorId} errors={meta.errors} />
					</div>
				)
			})}
			{/* What is not a field here: nothing typed, or a page the new token cannot see. */}
			<ErrorList errors={form.allErrors.credentials} />
			<ErrorList errors={form.allErrors.pageId} />
			<div>
				<Button type="submit" disabled={pending}>
					{t('ui.replaceCredentials')}
				</Button>
			</div>
		</Form>
	)
}

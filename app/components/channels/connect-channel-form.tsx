import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import * as field from '#app/components/ui/field.css.ts'
import { fieldMessages, type Reply } from './link-channel-form.tsx'

/** One field of a provider's form: secrets are password fields, never filled again after a refusal. */
type ConnectField = { name: string; secret?: boolean; optional?: boolean; help?: boolean }

const fieldsOf = {
	telegram: [{ name: 'name' }, { name: 'botToken', secret: true, help: true }],
	whatsapp: [
		{ name: 'name' },
		{ name: 'phoneNumberId', help: true },
		{ name: 'businessAccountId' },
		{ name: 'accessToken', secret: true, help: true },
		{ name: 'appSecret', secret: true },
		{ name: 'verifyToken', optional: true, help: true },
	],
} satisfies Record<string, ConnectField[]>

export type ConnectKind = keyof typeof fieldsOf

/**
 * Connects a messaging channel with what its provider needs (Telegram: the token @BotFather gave;
 * WhatsApp: the number's ids and the app's secrets from Meta's App Dashboard). The API checks
 * them with the provider before keeping anything. A plain form (it works without JavaScript).
 */
export function ConnectChannelForm({ kind, reply, pending }: { kind: ConnectKind; reply: Reply; pending: boolean }) {
	const { t } = useTranslation('channels')
	const { errorsOf, described, errorList } = fieldMessages(reply)
	const fields: ConnectField[] = fieldsOf[kind]
	return (
		<Form method="post" className={field.form} key={JSON.stringify(reply?.values ?? {})}>
			<input type="hidden" name="kind" value={kind} />
			{reply?.formError ? (
				<div role="alert" className={field.formErrors}>
					{reply.formError}
				</div>
			) : null}
			{fields.map(({ name, secret, optional, help }) => {
				const id = `${kind}-${name}`
				return (
					<div key={name} className={field.field}>
						<label className={field.label} htmlFor={id}>
							{name === 'name' ? t('ui.name') : t(`ui.fields.${name}`)}
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
							aria-describedby={described(name, help)}
						/>
						{help ? (
							<p id={`${name}-help`} className={field.help}>
								{t(`ui.fieldHelp.${name}`)}
							</p>
						) : null}
						{errorList(name)}
					</div>
				)
			})}
			<div>
				<Button type="submit" disabled={pending}>
					{t(kind === 'telegram' ? 'ui.connect' : 'ui.connectNumber')}
				</Button>
			</div>
		</Form>
	)
}

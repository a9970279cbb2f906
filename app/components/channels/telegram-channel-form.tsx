import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Button } from '#app/components/ui/button.tsx'
import * as field from '#app/components/ui/field.css.ts'
import { fieldMessages, type Reply } from './link-channel-form.tsx'

/**
 * Connects a Telegram bot: its name here and the token @BotFather gave. The API checks the token
 * with Telegram and sets the bot's webhook itself, so there is nothing to paste anywhere else. A
 * plain form (it works without JavaScript); the token is never shown again, even after a refusal.
 */
export function TelegramChannelForm({ reply, pending }: { reply: Reply; pending: boolean }) {
	const { t } = useTranslation('channels')
	const { errorsOf, described, errorList } = fieldMessages(reply)
	return (
		<Form method="post" className={field.form} key={JSON.stringify(reply?.values ?? {})}>
			<input type="hidden" name="kind" value="telegram" />
			{reply?.formError ? (
				<div role="alert" className={field.formErrors}>
					{reply.formError}
				</div>
			) : null}
			<div className={field.field}>
				<label className={field.label} htmlFor="telegram-name">
					{t('ui.name')}
				</label>
				<input
					id="telegram-name"
					name="name"
					required
					maxLength={80}
					defaultValue={String(reply?.values.name ?? '')}
					className={field.input}
					aria-invalid={errorsOf('name') ? true : undefined}
					aria-describedby={described('name')}
					autoComplete="off"
				/>
				{errorList('name')}
			</div>
			<div className={field.field}>
				<label className={field.label} htmlFor="botToken">
					{t('ui.botToken')}
				</label>
				<input
					id="botToken"
					name="botToken"
					type="password"
					required
					dir="ltr"
					spellCheck={false}
					autoComplete="off"
					className={field.input}
					aria-invalid={errorsOf('botToken') ? true : undefined}
					aria-describedby={described('botToken', true)}
				/>
				<p id="botToken-help" className={field.help}>
					{t('ui.botTokenHelp')}
				</p>
				{errorList('botToken')}
			</div>
			<div>
				<Button type="submit" disabled={pending}>
					{t('ui.connect')}
				</Button>
			</div>
		</Form>
	)
}

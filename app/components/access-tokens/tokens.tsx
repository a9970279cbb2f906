import { getFormProps, getInputProps, getSelectProps, type SubmissionResult } from '@conform-to/react'
import { Form, Link, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type AccessTokenJson } from '#app/.server/access-tokens.ts'
import { Confirm, Refusal } from '#app/components/confirm.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { ErrorList, Field, FormErrors, formClass, type ConformField } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { isolated, isolatedText } from '#app/utils/bidi.tsx'
import { useDateFormat } from '#app/utils/dates.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import { accessOf, areaAccesses, tokenAreas, type TokenKind } from '#common/access-tokens.ts'
import { expiryChoices, tokenNameLimit } from './schema.ts'
import * as tokenStyles from './tokens.css.ts'

const loadTokenSchema = () => import('./schema.ts').then((module) => module.tokenFormSchema)
const loadRenameSchema = () => import('./schema.ts').then((module) => module.tokenRenameSchema)

/** What a token form's action answered: conform's result and, after a creation, the secret to show once. */
export type TokenReply = { intent: 'token-create'; result: SubmissionResult<string[]>; created?: { name: string; secret: string } }

/** What a rename's action answered when refused; and a refused revocation, to say in its confirmation. */
export type TokenRenameReply = { intent: 'token-rename'; result: SubmissionResult<string[]> }
export type TokenRevokeReply = { deleteError: string }

/** What a page's kept action answer holds for its tokens: a creation's reply, why a revocation was refused, a refused rename's result. */
export function tokenAnswers(answer: object | undefined) {
	const intent = answer && 'intent' in answer ? answer.intent : undefined
	return {
		reply: intent === 'token-create' ? (answer as TokenReply) : undefined,
		revokeError: answer && 'deleteError' in answer ? (answer as TokenRevokeReply).deleteError : null,
		renameResult: intent === 'token-rename' ? (answer as TokenRenameReply).result : undefined,
	}
}

/** The new token's secret, this once, to select and copy (without JavaScript too: a read-only field). */
export function NewTokenSecret({ created }: { created: { name: string; secret: string } }) {
	const { t } = useTranslation('integrations')
	return (
		<section className={styles.section} aria-labelledby="new-token-heading" role="status">
			<h2 id="new-token-heading" className={styles.sectionTitle}>
				{t('tokens.secretHeading')}
			</h2>
			<p>{t('tokens.secretHelp')}</p>
			<label className={fieldStyles.field}>
				<span className={fieldStyles.label}>{isolated((values) => t('tokens.secretLabel', values), { name: created.name })}</span>
				{/* A text area, so the whole token wraps on a narrow screen: read-only, to select and copy. */}
				<textarea readOnly value={created.secret} rows={2} dir="ltr" className={`${fieldStyles.textarea} ${styles.secret}`} data-testid="token-secret" />
			</label>
			<p className={fieldStyles.help}>{t('tokens.copyHint')}</p>
		</section>
	)
}

/**
 * The live tokens: name, access, when last used and until when, and links each to rename it (its row
 * becomes a form, `?rename=`, `renamingId`) and to revoke it, which asks first (`?revoke=`, `revokingId`),
 * in the page, so it works without JavaScript; `revokeError`, why the API refused the last revocation,
 * said in the confirmation; `renameResult`, the last rename's; `here`, the page without either.
 */
export function TokenList({
	tokens,
	headingId,
	here,
	revokingId,
	revokeError,
	renamingId,
	renameResult,
}: {
	tokens: AccessTokenJson[]
	headingId: string
	here: string
	revokingId: string | null
	revokeError: string | null
	renamingId: string | null
	renameResult: SubmissionResult<string[]> | undefined
}) {
	const { t } = useTranslation('integrations')
	const when = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const revoking = tokens.find((token) => token.id === revokingId)
	if (tokens.length === 0) return <p className={styles.pageLead}>{t('tokens.none')}</p>
	return (
		<>
			{revoking ? (
				<Confirm
					title={t('tokens.revokeHeading', { name: isolatedText(revoking.name) })}
					text={t(revoking.kind === 'bot' ? 'tokens.revokeExplainBot' : 'tokens.revokeExplain')}
					fields={{ intent: 'token-revoke', tokenId: revoking.id, name: revoking.name }}
					confirm={t('tokens.revoke')}
					cancel={here}
					error={revokeError}
				/>
			) : revokeError ? (
				<Refusal title={t('tokens.revokeFailed')} message={revokeError} />
			) : null}
			<ul className={styles.sessionList} aria-labelledby={headingId}>
				{tokens.map((token) => (
					<li key={token.id} className={styles.sessionItem} data-testid="access-token">
						{token.id === renamingId ? (
							<RenameForm token={token} here={here} result={renameResult} />
						) : (
							<>
								<div>
									<strong>
										<bdi>{token.name}</bdi>
									</strong>{' '}
									<span className={styles.pageLead}>· {isolated((values) => t('tokens.hint', values), { hint: <bdi dir="ltr">…{token.hint}</bdi> })}</span>
									<div>
										{tokenAreas
											.filter((area) => accessOf(token.scopes, area) !== 'none')
											.map((area) => t('tokens.areaAccess', { area: t(`tokens.areas.${area}`), access: t(`tokens.access.${accessOf(token.scopes, area)}`) }))
											.join(' · ')}
									</div>
									<div className={styles.pageLead}>
										{t('tokens.lastUsed')}: {token.lastUsedAt ? when(token.lastUsedAt) : t('tokens.neverUsed')} · {t('tokens.expires')}:{' '}
										{token.expiresAt ? when(token.expiresAt) : t('tokens.noExpiry')}
										{token.createdByName ? (
											<>
												{' · '}
												{t('tokens.createdBy')}: <bdi>{token.createdByName}</bdi>
											</>
										) : null}
									</div>
								</div>
								<div className={styles.actionsRow}>
									<Link to={`?rename=${token.id}`} className={button.ghost} aria-label={t('tokens.renameLabel', { name: token.name })}>
										{t('tokens.rename')}
									</Link>
									<Link to={`?revoke=${token.id}`} className={button.ghost} aria-label={t('tokens.revokeLabel', { name: token.name })}>
										{t('tokens.revoke')}
									</Link>
								</div>
							</>
						)}
					</li>
				))}
			</ul>
		</>
	)
}

/** A token's new name, in place of its row: prefilled, and after a refusal the name typed kept with why beside it. */
function RenameForm({ token, here, result }: { token: AccessTokenJson; here: string; result: SubmissionResult<string[]> | undefined }) {
	const { t } = useTranslation()
	const pending = useNavigation().formData?.get('intent') === 'token-rename'
	const [form, fields] = useValidatedForm(loadRenameSchema, {
		id: `token-rename-${token.id}`,
		lastResult: result,
		defaultValue: { tokenId: token.id, name: token.name },
	})
	return (
		<Form
			method="post"
			{...getFormProps(form)}
			className={`${formClass} ${tokenStyles.renameForm}`}
			aria-label={t('integrations:tokens.renameLabel', { name: token.name })}
		>
			<input type="hidden" name="tokenId" value={token.id} />
			<FormErrors id={form.errorId} errors={form.errors} />
			<TokenNameField
				label={t('integrations:tokens.newName')}
				help={token.kind === 'bot' ? t('integrations:tokens.renameBotHelp') : undefined}
				field={fields.name}
			/>
			<div className={styles.actionsRow}>
				<Button type="submit" name="intent" value="token-rename" disabled={pending}>
					{t('integrations:tokens.renameSave')}
				</Button>
				<Link to={here} className={button.ghost}>
					{t('actions.cancel')}
				</Link>
			</div>
		</Form>
	)
}

/** A token's name, as the creation and the rename take it (a user's words, in either direction). */
function TokenNameField({ label, help, field }: { label: string; help: string | undefined; field: ConformField }) {
	return <Field label={label} help={help} field={field} type="text" required maxLength={tokenNameLimit} autoComplete="off" dir="auto" />
}

/** A new token: its name, none / read / read and write for each area, and when it expires. */
export function TokenForm({ kind, reply }: { kind: TokenKind; reply: TokenReply | undefined }) {
	const { t } = useTranslation('integrations')
	const navigation = useNavigation()
	const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'token-create'
	const [form, fields] = useValidatedForm(loadTokenSchema, {
		id: `token-${kind}`,
		lastResult: reply?.result,
		defaultValue: { kind, conversations: 'none', contacts: 'none', campaigns: 'none', settings: 'none', expiresInDays: '' },
	})
	const headingId = `token-form-${kind}`
	return (
		<section className={styles.section} aria-labelledby={headingId}>
			<h3 id={headingId} className={styles.sectionTitle}>
				{kind === 'bot' ? t('tokens.newBot') : t('tokens.newPersonal')}
			</h3>
			<Form method="post" {...getFormProps(form)} className={formClass}>
				<input type="hidden" name="kind" value={kind} />
				<FormErrors id={form.errorId} errors={form.errors} />
				<TokenNameField label={t('tokens.name')} help={kind === 'bot' ? t('tokens.nameHelp') : undefined} field={fields.name} />
				{tokenAreas.map((area) => {
					const field = fields[area]
					return (
						<fieldset key={area} className={fieldStyles.field}>
							<legend className={fieldStyles.label}>{t(`tokens.areas.${area}`)}</legend>
							<div className={fieldStyles.choices}>
								{areaAccesses.map((access) => (
									<label key={access} className={fieldStyles.choice}>
										<input {...getInputProps(field, { type: 'radio', value: access })} key={`${field.key ?? ''}-${access}`} />
										{t(`tokens.access.${access}`)}
									</label>
								))}
							</div>
							<ErrorList id={field.errorId} errors={field.errors} />
						</fieldset>
					)
				})}
				<div className={fieldStyles.field}>
					<label className={fieldStyles.label} htmlFor={fields.expiresInDays.id}>
						{t('tokens.expiry')}
					</label>
					<select {...getSelectProps(fields.expiresInDays)} key={fields.expiresInDays.key} className={fieldStyles.input}>
						<option value="">{t('tokens.expiryNever')}</option>
						{expiryChoices.map((days) => (
							<option key={days} value={days}>
								{t('tokens.expiryDays', { count: days })}
							</option>
						))}
					</select>
					<ErrorList id={fields.expiresInDays.errorId} errors={fields.expiresInDays.errors} />
				</div>
				<div>
					<Button type="submit" name="intent" value="token-create" disabled={pending}>
						{t('tokens.create')}
					</Button>
				</div>
			</Form>
		</section>
	)
}

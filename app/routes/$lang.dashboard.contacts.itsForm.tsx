import { getCollectionProps, getFormProps, getInputProps, getSelectProps, getTextareaProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { countriesIn, findCountry } from '#app/.server/countries.ts'
import { createContact, getContact, updateContact } from '#app/.server/contacts.ts'
import { replyFieldErrors, replyInvalid, replyWithApiError } from '#app/.server/forms.ts'
import { listLabels } from '#app/.server/labels.ts'
import { rethrowApiError, requireUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { CountryField } from '#app/components/country-field.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { ErrorList, Field, FormErrors, formClass } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { formatAttributes, type Contact } from '#app/utils/contacts.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { pageNotFound, formOf } from '#app/utils/http.ts'
import * as styles from './dashboard.css.ts'
import { useValidatedForm } from '#app/utils/use-validated-form.ts'
import { schema } from './$lang.dashboard.contacts.itsForm.schema.ts'
import { useKeptActionData } from '#app/realtime/use-kept-action-data.ts'

const loadSchema = () => import('./$lang.dashboard.contacts.itsForm.schema.ts').then((module) => module.schema)

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

/** One form for a new contact and, with `?id=`, for editing one. */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const id = new URL(args.request.url).searchParams.get('id')
	const [labels, contact] = await Promise.all([
		listLabels(api, user.workspace.id).catch((error: unknown) => rethrowApiError(error, locale, args.request)),
		id ? getContact(api, user.workspace.id, id).catch(() => null) : null,
	])
	if (id && !contact) pageNotFound(args.request)
	const t = await serverT(locale)
	// A number without its prefix is read as one of the workspace's country unless the user picks another.
	const country = user.workspace.country
	return {
		title: contact ? t('contacts.form.editTitle', { name: contact.name }) : t('contacts.form.newTitle'),
		locale,
		labels,
		contact,
		country,
		countries: countriesIn(locale),
	}
}

export async function action(args: ActionFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const submission = parseWithZod(await formOf(args.request), { schema })
	if (submission.status !== 'success') return replyInvalid(submission)
	const { id, countrySearch, ...fields } = submission.value
	if (countrySearch) {
		const found = findCountry(countrySearch, locale)
		if (!found) {
			const t = await serverT(locale)
			return replyFieldErrors(submission, { country: [t('countries.notFound', { search: countrySearch })] })
		}
		fields.country = found
	}
	// An emptied field clears the value; no ticked label clears the labels.
	const body = {
		...fields,
		email: fields.email ?? null,
		phone: fields.phone ?? null,
		company: fields.company ?? null,
		notes: fields.notes ?? null,
		labelIds: fields.labelIds ?? [],
	}
	let saved: Contact
	try {
		saved = id ? await updateContact(api, user.workspace.id, id, body) : await createContact(api, user.workspace.id, body)
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn: { locale, request: args.request } })
	}
	const t = await serverT(locale)
	return redirectWithToast(`/${locale}/dashboard/contacts?contact=${saved.id}`, {
		type: 'success',
		title: t(id ? 'contacts.form.saved' : 'contacts.form.created', { name: saved.name }),
	})
}

export default function ContactForm() {
	const { title, locale, labels, contact, country, countries } = useLoaderData<typeof loader>()
	const lastResult = useKeptActionData<typeof action>()?.result
	const { t } = useTranslation()
	const pending = useNavigation().state === 'submitting'
	const [form, fields] = useValidatedForm(loadSchema, {
		id: contact ? `contact-${contact.id}` : 'contact-new',
		lastResult,
		defaultValue: contact
			? {
					name: contact.name,
					email: contact.email ?? '',
					phone: contact.phone ?? '',
					company: contact.company ?? '',
					notes: contact.notes ?? '',
					attributes: formatAttributes(contact.attributes),
					labelIds: contact.labels.map((label) => label.id),
				}
			: undefined,
	})
	const labelTitles = new Map(labels.map((label) => [label.id, label.title]))
	return (
		<>
			<div className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{title}</h1>
				<p className={styles.pageLead}>{t('contacts.form.lead')}</p>
			</div>
			<section className={styles.section}>
				<Form method="post" {...getFormProps(form)} className={formClass}>
					{contact ? <input type="hidden" name="id" value={contact.id} /> : null}
					<FormErrors id={form.errorId} errors={form.errors} />
					<Field
						label={t('contacts.name')}
						input={{ ...getInputProps(fields.name, { type: 'text' }), required: true, autoComplete: 'off' }}
						errors={fields.name.errors}
						errorId={fields.name.errorId}
					/>
					<Field
						label={t('contacts.email')}
						input={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'off', dir: 'ltr' }}
						errors={fields.email.errors}
						errorId={fields.email.errorId}
					/>
					<Field
						label={t('contacts.phone')}
						help={t('contacts.phoneHelp')}
						input={{ ...getInputProps(fields.phone, { type: 'tel' }), autoComplete: 'off', dir: 'ltr' }}
						errors={fields.phone.errors}
						errorId={fields.phone.errorId}
					/>
					<CountryField
						label={t('contacts.country')}
						help={t(country ? 'contacts.countryHelp' : 'contacts.countryHelpNone')}
						select={{ ...getSelectProps(fields.country), defaultValue: fields.country.initialValue ?? country ?? '' }}
						countries={countries}
						empty={country ? undefined : t('contacts.countryNone')}
						errors={fields.country.errors}
						errorId={fields.country.errorId}
					/>
					<Field
						label={t('contacts.company')}
						input={{ ...getInputProps(fields.company, { type: 'text' }), autoComplete: 'off' }}
						errors={fields.company.errors}
						errorId={fields.company.errorId}
					/>
					<div className={fieldStyles.field}>
						<label htmlFor={fields.notes.id} className={fieldStyles.label}>
							{t('contacts.notes')}
						</label>
						<textarea {...getTextareaProps(fields.notes)} className={fieldStyles.textarea} />
						<ErrorList id={fields.notes.errorId} errors={fields.notes.errors} />
					</div>
					<div className={fieldStyles.field}>
						<label htmlFor={fields.attributes.id} className={fieldStyles.label}>
							{t('contacts.attributes')}
						</label>
						<textarea {...getTextareaProps(fields.attributes)} className={fieldStyles.textarea} placeholder={t('contacts.attributesPlaceholder')} />
						<p className={fieldStyles.help}>{t('contacts.attributesHelp')}</p>
						<ErrorList id={fields.attributes.errorId} errors={fields.attributes.errors} />
					</div>
					{labels.length ? (
						<fieldset className={fieldStyles.field}>
							<legend className={fieldStyles.label}>{t('contacts.labels')}</legend>
							<div className={fieldStyles.choices}>
								{getCollectionProps(fields.labelIds, { type: 'checkbox', options: labels.map((label) => label.id) }).map(({ key, ...props }) => (
									<label key={key} className={fieldStyles.choice}>
										<input {...props} />
										{labelTitles.get(props.value)}
									</label>
								))}
							</div>
							<ErrorList id={fields.labelIds.errorId} errors={fields.labelIds.errors} />
						</fieldset>
					) : null}
					<div className={styles.pageHeader}>
						<Button type="submit" disabled={pending}>
							{contact ? t('contacts.form.save') : t('contacts.form.create')}
						</Button>
						<Link to={`/${locale}/dashboard/contacts${contact ? `?contact=${contact.id}` : ''}`} className={button.ghost}>
							{t('actions.cancel')}
						</Link>
					</div>
				</Form>
			</section>
		</>
	)
}

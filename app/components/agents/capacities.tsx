import { Form, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type MemberJson } from '#app/.server/api.ts'
import { Pagination } from '#app/components/pagination.tsx'
import { button } from '#app/components/ui/button.css.ts'
import { DataTable } from '#app/components/ui/data-table.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { CapacityInput } from '#app/components/ui/capacity-input.tsx'
import * as styles from './capacities.css.ts'

/** A refused capacity: whose, what was typed (kept in its field) and why. */
export type CapacityRefusal = { userId: string; value: string; message: string }

type MemberPage = { members: MemberJson[]; page: number; limit: number; total: number }

/**
 * Each member's capacity, the open conversations auto-assignment gives them at most (issue 30): a form
 * per row, empty for the workspace's default; a refusal is said beside its field, with what was typed.
 */
export function Capacities({ list, defaultCapacity, refused }: { list: MemberPage; defaultCapacity: number | null; refused: CapacityRefusal | null }) {
	const { t } = useTranslation()
	const fallback = defaultCapacity === null ? t('capacity.unlimited') : t('capacity.count', { count: defaultCapacity })
	return (
		<section className={styles.section} aria-labelledby="capacity-heading">
			<h2 id="capacity-heading" className={styles.title}>
				{t('capacity.title')}
			</h2>
			<p className={styles.lead}>{t('capacity.lead', { fallback })}</p>
			<DataTable
				caption={t('capacity.title')}
				list
				columns={[
					{ header: t('team.name'), cell: (member) => <bdi>{member.name}</bdi> },
					{ header: t('team.role'), cell: (member) => <span>{t(`roles.${member.role}`)}</span> },
					{
						header: t('capacity.column'),
						cell: (member) => <CapacityForm member={member} defaultCapacity={defaultCapacity} refused={refused?.userId === member.userId ? refused : null} />,
					},
				]}
				rows={list.members}
				rowKey={(member) => member.userId}
				rowProps={(member) => ({ 'data-member': member.email })}
				empty={null}
			/>
			<Pagination page={list.page} limit={list.limit} total={list.total} />
		</section>
	)
}

function CapacityForm({ member, defaultCapacity, refused }: { member: MemberJson; defaultCapacity: number | null; refused: CapacityRefusal | null }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const pending = navigation.state === 'submitting' && navigation.formData?.get('userId') === member.userId
	const id = `capacity-${member.userId}`
	const shown = refused ? refused.value : member.capacity === null ? '' : String(member.capacity)
	return (
		// The server says what is wrong, in the page's language: no browser bubble in its own.
		<Form method="post" noValidate className={styles.form}>
			<input type="hidden" name="intent" value="capacity" />
			<input type="hidden" name="userId" value={member.userId} />
			<label htmlFor={id} className="visually-hidden">
				{t('capacity.of', { name: member.name })}
			</label>
			<CapacityInput
				id={id}
				name="capacity"
				defaultValue={shown}
				key={`${shown} ${refused?.message ?? ''}`}
				// Short, for a narrow field: the lead above says it in words.
				placeholder={t('capacity.placeholder', { fallback: defaultCapacity === null ? t('capacity.unlimited') : String(defaultCapacity) })}
				aria-invalid={refused ? true : undefined}
				aria-describedby={refused ? `${id}-error` : undefined}
				className={styles.input}
			/>
			<button type="submit" className={button.outline} disabled={pending} aria-label={t('capacity.saveOf', { name: member.name })}>
				{t('actions.save')}
			</button>
			{refused ? (
				<p id={`${id}-error`} role="alert" className={`${fieldStyles.errors} ${styles.error}`}>
					{refused.message}
				</p>
			) : null}
		</Form>
	)
}

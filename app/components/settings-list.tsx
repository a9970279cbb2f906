import { type Key, type ReactNode } from 'react'
import * as dashboard from '#app/routes/dashboard.css.ts'
import { Confirm, Refusal } from './confirm.tsx'
import { DataTable, RowActions, type Column } from './ui/data-table.tsx'
import { errors } from './ui/field.css.ts'
import * as table from './ui/table.css.ts'

type RowLinkTarget = { to: string; label: string }

/**
 * A row's actions: its edit and delete links (`?edit=`, `?delete=`), and any other action before them;
 * `refusal`, why the row's last action was refused, said under them.
 */
export type SettingsRowActions = { edit?: RowLinkTarget; remove?: RowLinkTarget; children?: ReactNode; refusal?: string | null }

/**
 * The deletion a settings page asks to confirm (`?delete=`): what its confirmation says and posts, and why
 * the last try was refused; the refusal is said on its own where the confirmation is gone.
 */
export type SettingsDeletion = {
	asking: { title: string; text?: string; fields: Record<string, string | string[]>; confirm: string } | null
	error: string | null
	failedTitle: string
	cancel: string
}

/**
 * A settings page that lists the workspace's things (labels, channels, teams, canned responses,
 * workspaces): its heading and lead with `aside` beside them (a "new" button), a `note` under them
 * (why an agent sees no controls), the deletion being confirmed, a row's `refusal` where its row is
 * gone (an invitation no longer active), what the page has between
 * (`children`: its form, a search), then the table, each row with its actions for those who may
 * (`rowActions`, none when left out), and `footer` (pagination). Every action opens in the page
 * (`?edit=`, `?delete=`), so it all works without JavaScript.
 */
export function SettingsList<Row>({
	title,
	lead,
	aside,
	note,
	deletion,
	refusal,
	children,
	caption = title,
	columns,
	rows,
	rowKey,
	rowProps,
	rowActions,
	list = false,
	empty,
	footer,
}: {
	title: string
	lead: ReactNode
	aside?: ReactNode
	note?: ReactNode
	deletion?: SettingsDeletion
	refusal?: { title: string; message: string } | null
	children?: ReactNode
	caption?: string
	columns: Column<Row>[]
	rows: Row[]
	rowKey: (row: Row) => Key
	rowProps?: Parameters<typeof DataTable<Row>>[0]['rowProps']
	rowActions?: (row: Row) => SettingsRowActions | null
	list?: boolean
	empty: ReactNode
	footer?: ReactNode
}) {
	const header = (
		<div className={dashboard.pageHeader}>
			<h1 className={dashboard.pageTitle}>{title}</h1>
			<p className={dashboard.pageLead}>{lead}</p>
			{note ? <p className={dashboard.pageLead}>{note}</p> : null}
		</div>
	)
	return (
		<>
			{aside ? (
				<div className={table.toolbar}>
					{header}
					{aside}
				</div>
			) : (
				header
			)}

			{deletion?.asking ? (
				<Confirm {...deletion.asking} cancel={deletion.cancel} error={deletion.error} />
			) : deletion?.error ? (
				<Refusal title={deletion.failedTitle} message={deletion.error} />
			) : null}
			{refusal ? <Refusal {...refusal} /> : null}

			{children}

			<DataTable
				caption={caption}
				list={list}
				columns={columns}
				rows={rows}
				rowKey={rowKey}
				rowProps={rowProps}
				actions={
					rowActions
						? (row) => {
								const actions = rowActions(row)
								if (!actions) return null
								const { refusal: rowRefusal, ...links } = actions
								return (
									<>
										<RowActions {...links} />
										{rowRefusal ? (
											<p role="alert" className={errors}>
												{rowRefusal}
											</p>
										) : null}
									</>
								)
							}
						: undefined
				}
				empty={empty}
			/>
			{footer}
		</>
	)
}

import { Link } from '@remix-run/react'
import { type HTMLAttributes, type Key, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { button } from './button.css.ts'
import * as table from './table.css.ts'

export type Column<Row> = {
	header: string
	cell: (row: Row) => ReactNode
	/** Beside the table's own cell class (a column's width, say). */
	className?: string
}

type RowAttributes = HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string }

/**
 * A list's table. Every table has a caption, visually hidden unless `captionShown`. With `list`, on a phone each row
 * becomes a block whose cells start with their column's header (`data-label`). `actions` adds a last column, its header
 * heard only. `empty` is said below the table when there are no rows (nothing when null).
 */
export function DataTable<Row>({
	caption,
	captionShown = false,
	columns,
	rows,
	rowKey,
	rowProps,
	actions,
	empty,
	list = false,
}: {
	caption: string
	captionShown?: boolean
	columns: Column<Row>[]
	rows: Row[]
	rowKey: (row: Row) => Key
	rowProps?: (row: Row) => RowAttributes
	actions?: (row: Row) => ReactNode
	empty: ReactNode
	list?: boolean
}) {
	const { t } = useTranslation()
	return (
		<div className={table.wrapper}>
			<table className={list ? `${table.table} ${table.list}` : table.table}>
				<caption className={captionShown ? undefined : 'visually-hidden'}>{caption}</caption>
				<thead>
					<tr>
						{columns.map((column) => (
							<th key={column.header} className={table.th}>
								{column.header}
							</th>
						))}
						{actions ? (
							<th className={table.th}>
								<span className="visually-hidden">{t('actions.label')}</span>
							</th>
						) : null}
					</tr>
				</thead>
				<tbody>
					{rows.map((row) => (
						<tr key={rowKey(row)} {...rowProps?.(row)}>
							{columns.map((column) => (
								<td
									key={column.header}
									className={column.className ? `${table.td} ${column.className}` : table.td}
									data-label={list ? column.header : undefined}
								>
									{column.cell(row)}
								</td>
							))}
							{actions ? <td className={table.td}>{actions(row)}</td> : null}
						</tr>
					))}
				</tbody>
			</table>
			{rows.length === 0 && empty != null ? <p className={table.empty}>{empty}</p> : null}
		</div>
	)
}

/**
 * A row's actions, in a row that wraps: `edit` and `remove` are links that open the row's form or its confirmation in the
 * page (`?edit=`, `?delete=`), so they work without JavaScript; each is named for its row (`label`), for screen readers.
 */
export function RowActions({
	edit,
	remove,
	className = table.actions,
	children,
}: {
	edit?: { to: string; label: string }
	remove?: { to: string; label: string }
	className?: string
	children?: ReactNode
}) {
	const { t } = useTranslation()
	return (
		<div className={className}>
			{children}
			{edit ? (
				<RowLink to={edit.to} label={edit.label}>
					{t('actions.edit')}
				</RowLink>
			) : null}
			{remove ? (
				<RowLink to={remove.to} label={remove.label}>
					{t('actions.delete')}
				</RowLink>
			) : null}
		</div>
	)
}

/** Any other action of a row that opens in the page (`?remove=`, `?transfer=`…). */
export function RowLink({ to, label, children }: { to: string; label?: string; children: ReactNode }) {
	return (
		<Link to={to} className={button.ghost} aria-label={label}>
			{children}
		</Link>
	)
}

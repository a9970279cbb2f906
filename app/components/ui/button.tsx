import { Link, type LinkProps } from '@remix-run/react'
import { type ButtonHTMLAttributes } from 'react'
import { useTranslation } from 'react-i18next'
import { button } from './button.css.ts'
import { actions } from './table.css.ts'

type Variant = keyof typeof button

export function Button({ variant = 'primary', className, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
	return <button className={[button[variant], className].filter(Boolean).join(' ')} {...props} />
}

export function ButtonLink({ variant = 'primary', className, ...props }: LinkProps & { variant?: Variant }) {
	return <Link className={[button[variant], className].filter(Boolean).join(' ')} {...props} />
}

/** A form's submit button and, where the form opened in the page (`?edit=`, `?delete=`), a link back out of it. */
export function FormActions({ submit, cancel, pending, variant }: { submit: string; cancel?: string; pending: boolean; variant?: Variant }) {
	const { t } = useTranslation()
	return (
		<div className={actions}>
			<Button type="submit" variant={variant} disabled={pending}>
				{submit}
			</Button>
			{cancel ? (
				<Link to={cancel} className={button.ghost}>
					{t('actions.cancel')}
				</Link>
			) : null}
		</div>
	)
}

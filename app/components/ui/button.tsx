import { Link, type LinkProps } from '@remix-run/react'
import { type ButtonHTMLAttributes } from 'react'
import { button } from './button.css.ts'

type Variant = keyof typeof button

export function Button({ variant = 'primary', className, ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
	return <button className={[button[variant], className].filter(Boolean).join(' ')} {...props} />
}

export function ButtonLink({ variant = 'primary', className, ...props }: LinkProps & { variant?: Variant }) {
	return <Link className={[button[variant], className].filter(Boolean).join(' ')} {...props} />
}

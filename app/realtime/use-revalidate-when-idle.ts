import { useNavigation, useRevalidator } from '@remix-run/react'
import { useCallback, useEffect, useRef } from 'react'

/**
 * Reloads the page's data now, or once the navigation or revalidation under way has ended: starting
 * one then would abort that one's loaders half-way (an AbortError, on the error screen or in the
 * console), and its end would not show what the event announced.
 */
export function useRevalidateWhenIdle(): () => void {
	const revalidator = useRevalidator()
	const { revalidate } = revalidator
	const busyNow = useNavigation().state !== 'idle' || revalidator.state !== 'idle'
	const busy = useRef(false)
	const missed = useRef(false)
	useEffect(() => {
		busy.current = busyNow
		if (busyNow || !missed.current) return
		missed.current = false
		void revalidate()
	}, [busyNow, revalidate])
	return useCallback(() => {
		if (busy.current) missed.current = true
		else void revalidate()
	}, [revalidate])
}

import { useActionData, useLocation } from '@remix-run/react'
import { useState } from 'react'

/**
 * `useActionData`, kept through revalidations. The router forgets an action's answer at the end of
 * every navigation, revalidations included, so a realtime event arriving after a form's answer (an
 * import's report, a form's errors) would wipe it from the screen. The answer stays until the page
 * moves to another location or the next action answers.
 */
export function useKeptActionData<T>(): ReturnType<typeof useActionData<T>> {
	const actionData = useActionData<T>()
	const { key } = useLocation()
	const [kept, setKept] = useState({ key, data: actionData })
	// The answer comes while the action's loaders run (the old location), then stays with the new one.
	const next = actionData !== undefined || key !== kept.key ? { key, data: actionData } : kept
	if (next.key !== kept.key || next.data !== kept.data) setKept(next)
	return next.data
}

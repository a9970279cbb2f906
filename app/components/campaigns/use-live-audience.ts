import { useFetcher } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { type AudienceLoader } from '#app/routes/$lang.dashboard.campaign-manager_.audience.tsx'

/**
 * The audience counted again as its channel and labels change (with JavaScript): one request at a
 * time, the latest choice asked for once the one in flight is back, a quarter of a second after
 * the last change.
 */
export function useLiveAudience(locale: string) {
	const fetcher = useFetcher<AudienceLoader>()
	const formRef = useRef<HTMLFormElement>(null)
	const loaded = useRef<string | null>(null)
	const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
	const [wanted, setWanted] = useState<string | null>(null)
	const idle = fetcher.state === 'idle'
	const { load } = fetcher
	useEffect(() => {
		if (!idle || wanted === null || wanted === loaded.current) return
		loaded.current = wanted
		load(wanted)
	}, [idle, wanted, load])
	const ask = useCallback(() => {
		if (!formRef.current) return
		const values = new FormData(formRef.current)
		const params = new URLSearchParams({ channelId: String(values.get('channelId') ?? '') })
		for (const name of ['labelsIn', 'labelsOut']) for (const id of values.getAll(name)) params.append(name, String(id))
		setWanted(`/${locale}/dashboard/campaign-manager/audience?${params}`)
	}, [locale])
	// Counted once when the form opens, then after each change.
	useEffect(() => {
		ask()
		return () => clearTimeout(timer.current)
	}, [ask])
	const onChange = (event: FormEvent<HTMLFormElement>) => {
		const name = (event.target as HTMLInputElement).name
		if (name !== 'channelId' && name !== 'labelsIn' && name !== 'labelsOut') return
		clearTimeout(timer.current)
		timer.current = setTimeout(ask, 250)
	}
	return { formRef, onChange, audience: fetcher.data?.audience ?? null, counting: !idle }
}

import { type InputHTMLAttributes } from 'react'
import { capacityLimits } from '#common/workspaces.ts'

/**
 * A capacity's field (an agent's, the workspace's default): a whole number within the API's limits,
 * its digits read as typed (`dir="auto"`: a minus stays before them in Arabic). Empty is sent as is.
 */
export function CapacityInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'min' | 'max' | 'step'>) {
	return <input type="number" dir="auto" inputMode="numeric" min={capacityLimits.min} max={capacityLimits.max} step={1} {...props} />
}

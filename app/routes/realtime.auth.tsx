import { type ActionFunctionArgs } from '@remix-run/node'
import { forwardToApi, postOnly } from '#app/realtime/authorise.server.ts'

/** pusher-js's channel authorisation: may this browser's user subscribe to `channel_name`? */
export function action(args: ActionFunctionArgs) {
	return forwardToApi(args, '/realtime/auth', ['socket_id', 'channel_name'])
}

export const loader = postOnly

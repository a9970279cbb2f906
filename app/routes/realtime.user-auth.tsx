import { type ActionFunctionArgs } from '@remix-run/node'
import { forwardToApi, postOnly } from '#app/realtime/authorise.server.ts'

/** pusher-js's user sign-in (`pusher.signin()`): signs the socket in as this browser's user. */
export function action(args: ActionFunctionArgs) {
	return forwardToApi(args, '/realtime/user-auth', ['socket_id'])
}

export const loader = postOnly

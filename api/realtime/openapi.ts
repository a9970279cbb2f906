import { type ApiDocs } from '#api/http/openapi.ts'
import { channelAuthBody, userAuthBody } from './schemas.ts'

/** `/v1/realtime` (router.ts): what a signed-in user may listen to, for pusher-js. */
export function documentRealtime(docs: ApiDocs) {
	docs.add({
		method: 'post',
		path: '/auth',
		summary: 'Sign a private or presence channel (pusher-js channel authorisation)',
		description: 'A workspace’s channels, or a conversation’s, for its members only.',
		body: channelAuthBody,
		responses: { 200: 'Pusher’s `{ auth }` (and `channel_data` for a presence channel).' },
		errors: [403],
	})
	docs.add({
		method: 'post',
		path: '/user-auth',
		summary: 'Authenticate the user to the realtime server (pusher-js user authentication)',
		body: userAuthBody,
		responses: { 200: 'Pusher’s `{ auth, user_data }`.' },
		errors: [403],
	})
}

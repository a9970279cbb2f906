import { z } from 'zod'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { type FocusJson, type PushDeviceJson, type PushDevicesJson, type PushTestJson } from './push-router.ts'
import { deviceParams, focusBody, subscribeBody } from './push-schemas.ts'

const device = answerSchema<PushDeviceJson>()(
	z
		.object({
			id: z.string().uuid(),
			endpoint: z.string().openapi({ description: "The push service's address for the device." }),
			browser: z.string().nullable(),
			system: z.string().nullable(),
			createdAt: z.string().datetime(),
			lastSuccessAt: z.string().datetime().nullable(),
		})
		.openapi('PushDevice'),
)
const devices = answerSchema<PushDevicesJson>()(
	z.object({ publicKey: z.string().openapi({ description: 'The VAPID public key to subscribe with (`applicationServerKey`).' }), devices: z.array(device) }),
)
const testAnswer = answerSchema<PushTestJson>()(
	z.object({
		result: z.enum(['sent', 'removed', 'refused', 'failed']).openapi({
			description: '`removed`: the push service answered 404 or 410 and the device is gone; `refused`: its address is not allowed (WEBHOOK_ALLOW_PRIVATE).',
		}),
		status: z.number().int().nullable().openapi({ description: "The push service's HTTP status, when it answered." }),
	}),
)
const focusAnswer = answerSchema<FocusJson>()(z.object({ focusedUntil: z.string().datetime().nullable() }))

/** `/v1/user/push-subscriptions` (push-router.ts): the signed-in user's own devices. */
export function documentPush(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/',
		summary: 'My devices that receive browser push',
		responses: { 200: { description: 'The VAPID public key, and the devices, newest first.', schema: devices } },
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Turn browser push on for a device',
		description:
			'The body is `PushSubscription.toJSON()`. The endpoint must be https and reach no loopback, private or link-local address (unless WEBHOOK_ALLOW_PRIVATE): 422 beside `endpoint` otherwise. An endpoint already known is taken over with its new keys.',
		body: subscribeBody,
		responses: { 201: { description: 'The device.', schema: device } },
		errors: [422],
	})
	docs.add({ method: 'delete', path: '/:deviceId', summary: 'Remove a device', params: deviceParams, responses: { 204: 'Removed.' } })
	docs.add({
		method: 'post',
		path: '/:deviceId/test',
		summary: 'Send a test push to a device',
		description: 'In the caller’s language; answers what the push service did.',
		params: deviceParams,
		responses: { 200: { description: 'What happened.', schema: testAnswer } },
	})
}

/** `/v1/workspaces/{id}/presence` (push-router.ts). */
export function documentPresence(docs: ApiDocs) {
	docs.add({
		method: 'post',
		path: '/focus',
		summary: 'Whether a tab of the workspace is in front of me',
		description: 'While focused, for 60 s (the page renews it every 30 s), no browser push is sent to the member for this workspace.',
		params: workspaceParams,
		body: focusBody,
		responses: { 200: { description: 'Until when the member counts as looking; null when not.', schema: focusAnswer } },
	})
}

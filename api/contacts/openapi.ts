import { z } from 'zod'
import { channelKinds } from '#api/db/schema.ts'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { labelSummary } from '#api/labels/openapi.ts'
import { type ContactSatisfactionJson } from '#api/satisfaction/contact.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { type ContactIdentityJson, type ContactJson, type ContactPageJson } from './queries.ts'
import {
	bulkBody,
	contactParams,
	createContactBody,
	exportContactsQuery,
	importContactsQuery,
	listContactsQuery,
	mergeContactBody,
	updateContactBody,
} from './schemas.ts'

const identity = answerSchema<ContactIdentityJson>()(
	z.object({
		channelId: z.string().uuid(),
		channelKind: z.enum(channelKinds),
		channelName: z.string(),
		externalId: z.string().nullable(),
		since: z.string().datetime(),
	}),
)

const contactAnswer = answerSchema<ContactJson>()(
	z
		.object({
			id: z.string().uuid(),
			name: z.string(),
			email: z.string().nullable(),
			unverifiedEmail: z
				.string()
				.nullable()
				.openapi({ description: 'What a chat-link visitor typed as their e-mail: a claim, not checked, never matched to another contact.' }),
			phone: z.string().nullable(),
			company: z.string().nullable(),
			notes: z.string().nullable(),
			attributes: z.record(z.string()),
			avatarColor: z.string(),
			labels: z.array(labelSummary),
			lastActivityAt: z.string().datetime(),
			createdAt: z.string().datetime(),
			updatedAt: z.string().datetime(),
			identities: z.array(identity).optional().openapi({ description: 'On a single contact: who they are on each channel they wrote on.' }),
			optedOutAt: z.string().datetime().nullable().optional().openapi({ description: 'On a single contact: when they opted out of campaigns.' }),
			possibleMatches: z
				.array(z.object({ id: z.string().uuid(), name: z.string() }))
				.optional()
				.openapi({ description: 'On a single contact: the contact whose e-mail is the one this contact claims (`unverifiedEmail`), to merge it into.' }),
		})
		.openapi('Contact'),
)

const contactPage = answerSchema<ContactPageJson>()(
	z.object({
		contacts: z.array(contactAnswer),
		nextCursor: z.string().nullable(),
		total: z.number().int(),
		totalCapped: z.boolean().openapi({ description: 'More than `total` match; `count=exact` counts them all.' }),
	}),
)

export const contactSatisfaction = answerSchema<ContactSatisfactionJson>()(
	z
		.object({
			rated: z.number().int().openapi({ description: 'How many of the surveys answered a rating.' }),
			averageRating: z.number().nullable().openapi({ description: 'The ratings’ average, two decimals; null without one.' }),
			latest: z
				.array(
					z.object({
						rating: z.number().int().min(1).max(5),
						comment: z.string().nullable(),
						conversation: z.object({ number: z.number().int() }),
						answeredAt: z.string().datetime(),
					}),
				)
				.openapi({ description: 'The latest five ratings, newest first.' }),
		})
		.openapi('ContactSatisfaction'),
)

/** `/v1/workspaces/{id}/contacts` (router.ts): every member reads, creates, edits, imports and exports; owners and admins delete. */
export function documentContacts(docs: ApiDocs) {
	const contact = { description: 'The contact, with its labels, attributes and identities.', schema: contactAnswer }
	docs.add({
		method: 'get',
		path: '/',
		summary: 'A page of contacts',
		description: 'Keyset pages: `nextCursor` is the `cursor` of the following one.',
		params: workspaceParams,
		query: listContactsQuery,
		responses: { 200: { description: 'A page of contacts.', schema: contactPage } },
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Create a contact',
		params: workspaceParams,
		body: createContactBody(),
		responses: { 201: contact },
		errors: [409],
	})
	docs.add({
		method: 'get',
		path: '/export',
		summary: 'The contacts as CSV',
		description: 'The same filter and order as the list; UTF-8 with a byte order mark.',
		params: workspaceParams,
		query: exportContactsQuery,
		responses: { 200: { description: 'A CSV file.', type: 'text/csv' } },
	})
	docs.add({
		method: 'post',
		path: '/import',
		summary: 'Import contacts from CSV',
		description:
			'The body is the CSV file itself (up to 20 MB), read by `readContactsCsv` (csv.ts) rather than a zod schema; a contact of the same e-mail or phone is updated. Labels that do not exist are created for owners and admins only. A phone without its international prefix is read as one of `country`, else of the workspace’s `country`.',
		params: workspaceParams,
		query: importContactsQuery,
		body: { 'text/csv': z.string() },
		responses: { 200: '`{ created, updated, rejected }`: the counts, and the rows refused with why.' },
		errors: [413, 415],
	})
	docs.add({
		method: 'post',
		path: '/bulk',
		summary: 'Label, unlabel or delete many contacts',
		description: 'Deleting is for owners and admins.',
		params: workspaceParams,
		body: bulkBody,
		responses: { 200: '`{ action, affected }`.' },
		errors: [403],
	})
	docs.add({ method: 'get', path: '/:contactId', summary: 'A contact', params: contactParams, responses: { 200: contact } })
	docs.add({
		method: 'get',
		path: '/:contactId/satisfaction',
		summary: 'A contact’s satisfaction ratings',
		description: 'Counted on the conversations the caller sees: an agent the workspace narrows to their teams’ conversations reads only those ratings.',
		params: contactParams,
		responses: { 200: { description: 'The count, average and latest ratings.', schema: contactSatisfaction } },
	})
	docs.add({
		method: 'patch',
		path: '/:contactId',
		summary: 'Change a contact',
		params: contactParams,
		body: updateContactBody(),
		responses: { 200: contact },
		errors: [409],
	})
	docs.add({
		method: 'post',
		path: '/:contactId/opt-in',
		summary: 'Receive campaigns again',
		description: 'For a contact who opted out and asked to receive them again: owners and admins.',
		params: contactParams,
		responses: { 200: contact },
		errors: [403],
	})
	docs.add({
		method: 'post',
		path: '/:contactId/merge',
		summary: 'Merge a contact into another',
		description:
			'The contact of the path goes into `into`: its identities, conversations, campaign recipients, labels and the fields `into` lacks; then it is deleted. Owners and admins. Answers the merged contact.',
		params: contactParams,
		body: mergeContactBody,
		responses: { 200: contact },
		errors: [403],
	})
	docs.add({
		method: 'delete',
		path: '/:contactId',
		summary: 'Delete a contact',
		description: 'Owners and admins.',
		params: contactParams,
		responses: { 204: 'Deleted.' },
		errors: [403],
	})
}

import express, { Router, type Request, type Response } from 'express'
import { recordAudit } from '#api/audit/record.ts'
import { type ApiContext } from '#api/context.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { isUniqueViolation } from '#api/db/errors.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { parseRequest } from '#api/http/validate.ts'
import { existingLabelIds } from '#api/labels/queries.ts'
import { labelNotFound } from '#api/labels/router.ts'
import { workspaceCountry } from '#common/countries.ts'
import { type Workspace } from '#api/db/schema.ts'
import { handler } from '#api/http/handler.ts'
import { managers, parseParams, requireMember } from '#api/workspaces/membership.ts'
import { publishWorkspaceEvent } from '#api/realtime/workspace-events.ts'
import { readerOf } from '#api/conversations/visibility.ts'
import { contactSatisfaction } from '#api/satisfaction/contact.ts'
import { defaultDirection, encodeCursor, type Cursor } from './cursor.ts'
import { csvLine, exportColumns, labelSeparator, readContactsCsv } from './csv.ts'
import { importContacts } from './import.ts'
import { phoneCountry } from './phone.ts'
import {
	contactEmailConstraint,
	contactJson,
	contactLabelConstraint,
	contactPage,
	findContact,
	listContacts,
	narrowFor,
	type ContactPageJson,
} from './queries.ts'
import { changeContacts, createContact, deleteContact, mergeContact, optIn, updateContact } from './actions.ts'
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

type ContactEvent = 'contact.created' | 'contact.updated' | 'contact.deleted' | 'contact.bulk-changed' | 'contact.imported'

/** `POST /v1/workspaces/{id}/contacts/import` with a CSV body: the one request the API takes in another type than JSON. */
export function isCsvImport(req: Request): boolean {
	return req.method === 'POST' && /^\/workspaces\/[^/]+\/contacts\/import\/?$/.test(req.path) && Boolean(req.is('text/csv'))
}

const csvBody = express.text({ type: 'text/csv', limit: '20mb' })

// Read only once the caller is known to be a member: nobody else gets to upload 20 MB.
function readCsvBody(req: Request, res: Response): Promise<string> {
	return new Promise((resolve, reject) => {
		csvBody(req, res, (error?: unknown) => (error ? reject(error) : resolve(typeof req.body === 'string' ? req.body : '')))
	})
}

/** The country a phone without its prefix is from, when the request names none: the workspace's (issue 27). */
function localCountry(workspace: Workspace) {
	return phoneCountry(workspaceCountry(workspace))
}

function contactNotFound() {
	return new HttpError(404, 'contacts:errors.notFound')
}

/** A duplicate e-mail (409, beside the e-mail field) or a label deleted meanwhile (400), from the database's refusal. */
function databaseRefusal(req: Request, email: string | null | undefined) {
	return (error: unknown) => {
		if (isUniqueViolation(error, contactEmailConstraint)) throw fieldError(req, 409, 'email', 'contacts:errors.emailTaken', { email: email ?? '' })
		const constraint = typeof error === 'object' && error !== null && 'constraint' in error ? error.constraint : undefined
		if (constraint === contactLabelConstraint) throw fieldError(req, 400, 'labelIds', 'contacts:validation.unknownLabels')
		throw error
	}
}

/** `/v1/workspaces/:id/contacts`: every member reads, creates, edits, imports and exports; owners and admins delete and merge. */
export function contactsRouter({ db, realtime }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	function announce(workspaceId: string, event: ContactEvent, data: Record<string, unknown> = {}) {
		void publishWorkspaceEvent(db, realtime, workspaceId, event, data)
	}

	async function requireLabels(req: Request, workspaceId: string, labelIds: readonly string[] | undefined) {
		if (!labelIds?.length) return
		const known = await existingLabelIds(db, workspaceId, labelIds)
		if (known.size < labelIds.length) throw fieldError(req, 400, 'labelIds', 'contacts:validation.unknownLabels')
	}

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const query = parseRequest(req, 'query', listContactsQuery)
			const page = await listContacts(db, workspace, query)
			const body: ContactPageJson = {
				contacts: page.contacts.map((contact) => contactJson(contact, contact.labels)),
				nextCursor: page.next ? encodeCursor(page.next) : null,
				total: page.total.total,
				totalCapped: page.total.capped,
			}
			res.json(body)
		}),
	)

	router.post(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const body = parseRequest(req, 'body', createContactBody(localCountry(workspace)))
			await requireLabels(req, workspace.id, body.labelIds)
			const contactId = await createContact(db, workspace.id, body).catch(databaseRefusal(req, body.email))
			announce(workspace.id, 'contact.created', { contactId })
			res.status(201).json(await findContact(db, workspace.id, contactId))
		}),
	)

	router.get(
		'/export',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const query = parseRequest(req, 'query', exportContactsQuery)
			const direction = query.direction ?? defaultDirection(query.sort)
			const narrow = await narrowFor(db, workspace.id, query)
			await recordAudit(db, workspace.id, req.user, 'export.contacts')
			res.setHeader('Content-Type', 'text/csv; charset=utf-8')
			res.setHeader('Content-Disposition', `attachment; filename="contacts-${new Date().toISOString().slice(0, 10)}.csv"`)
			let closed = false
			res.on('close', () => (closed = true))
			// A byte order mark, so that Excel reads the file as UTF-8.
			res.write(`\uFEFF${csvLine([...exportColumns])}`)
			try {
				// Page by page on the list's keyset: memory stays flat however many contacts there are.
				let after: Cursor | undefined
				do {
					const page = await contactPage(db, workspace.id, { ...query, direction, after, limit: 1000, narrow })
					const chunk = page.contacts
						.map((contact) =>
							csvLine([
								contact.name,
								contact.email,
								contact.phone,
								contact.company,
								contact.labels.map((label) => label.title).join(labelSeparator),
								contact.notes,
								contact.createdAt.toISOString(),
							]),
						)
						.join('')
					if (!res.write(chunk)) await new Promise((resolve) => (closed ? resolve(undefined) : res.once('drain', resolve).once('close', resolve)))
					after = page.next
				} while (after && !closed)
				res.end()
			} catch (error) {
				// Too late for an error answer: the client sees a cut-off download.
				req.log.error({ err: error }, 'contacts export failed')
				res.destroy()
			}
		}),
	)

	router.post(
		'/import',
		handler(async (req, res) => {
			const { workspace, role } = await requireMember(db, req)
			if (!req.is('text/csv')) throw new HttpError(415, 'contacts:errors.csvExpected')
			const { country } = parseRequest(req, 'query', importContactsQuery)
			const records = readContactsCsv(await readCsvBody(req, res))
			const result = await importContacts(db, records, {
				workspaceId: workspace.id,
				t: req.t,
				country: country ?? localCountry(workspace),
				createLabels: managers.includes(role),
			})
			// Each batch of rows is its own transaction (import.ts): the line is written once they are all applied, with the counts.
			await recordAudit(db, workspace.id, req.user, 'contacts.imported', { created: result.created, updated: result.updated, skipped: result.rejected.length })
			if (result.created + result.updated > 0) announce(workspace.id, 'contact.imported')
			res.json(result)
		}),
	)

	router.post(
		'/bulk',
		handler(async (req, res) => {
			const { workspace, role } = await requireMember(db, req)
			const { action, contactIds, labelId } = parseRequest(req, 'body', bulkBody)
			if (action === 'delete' && !managers.includes(role)) throw new HttpError(403, 'errors.forbidden')
			if (labelId && !(await existingLabelIds(db, workspace.id, [labelId])).size) throw labelNotFound()
			const affected = await changeContacts(db, workspace.id, req.user, { action, contactIds, labelId })
			if (affected > 0) announce(workspace.id, 'contact.bulk-changed', { action })
			res.json({ action, affected })
		}),
	)

	router.get(
		'/:contactId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const { contactId } = parseParams(req, contactParams, contactNotFound)
			const contact = await findContact(db, workspace.id, contactId)
			if (!contact) throw contactNotFound()
			res.json(contact)
		}),
	)

	// The contact's ratings, of the conversations the caller sees: an agent narrowed to their teams' reads no other's.
	router.get(
		'/:contactId/satisfaction',
		handler(async (req, res) => {
			const membership = await requireMember(db, req)
			const { contactId } = parseParams(req, contactParams, contactNotFound)
			const contact = await db
				.selectFrom('contacts')
				.select('id')
				.where('workspaceId', '=', membership.workspace.id)
				.where('id', '=', contactId)
				.executeTakeFirst()
			if (!contact) throw contactNotFound()
			res.json(await contactSatisfaction(db, membership.workspace.id, contactId, readerOf(req, membership)))
		}),
	)

	router.patch(
		'/:contactId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const { contactId } = parseParams(req, contactParams, contactNotFound)
			const changes = parseRequest(req, 'body', updateContactBody(localCountry(workspace)))
			const { labelIds, ...fields } = changes
			if (Object.keys(fields).length === 0 && !labelIds) {
				const contact = await findContact(db, workspace.id, contactId)
				if (!contact) throw contactNotFound()
				return res.json(contact)
			}
			await requireLabels(req, workspace.id, labelIds)
			const updated = await updateContact(db, workspace.id, contactId, changes).catch(databaseRefusal(req, fields.email))
			if (!updated) throw contactNotFound()
			announce(workspace.id, 'contact.updated', { contactId })
			res.json(await findContact(db, workspace.id, contactId))
		}),
	)

	// A contact who opted out of campaigns (an opt-out word) and asked again to receive them: owners and admins only.
	router.post(
		'/:contactId/opt-in',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { contactId } = parseParams(req, contactParams, contactNotFound)
			if (!(await optIn(db, workspace.id, contactId))) throw contactNotFound()
			announce(workspace.id, 'contact.updated', { contactId })
			res.json(await findContact(db, workspace.id, contactId))
		}),
	)

	// Two contacts found to be one person (a chat-link visitor and the customer whose e-mail they typed): owners and admins, as deleting.
	router.post(
		'/:contactId/merge',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { contactId } = parseParams(req, contactParams, contactNotFound)
			const { into } = parseRequest(req, 'body', mergeContactBody)
			if (into === contactId) throw fieldError(req, 400, 'into', 'contacts:errors.mergeIntoItself')
			if (!(await mergeContact(db, workspace.id, req.user, contactId, into))) throw contactNotFound()
			announce(workspace.id, 'contact.deleted', { contactId })
			announce(workspace.id, 'contact.updated', { contactId: into })
			res.json(await findContact(db, workspace.id, into))
		}),
	)

	router.delete(
		'/:contactId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { contactId } = parseParams(req, contactParams, contactNotFound)
			if (!(await deleteContact(db, workspace.id, req.user, contactId))) throw contactNotFound()
			announce(workspace.id, 'contact.deleted', { contactId })
			res.status(204).end()
		}),
	)

	return router
}

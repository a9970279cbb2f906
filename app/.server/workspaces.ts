import { parseWithZod } from '@conform-to/zod'
import { workspaceSchema } from '#app/components/workspace-form.schema.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { replyInvalid, replyWithApiError } from './forms.ts'
import { type SignedIn } from './session.ts'
import { redirectWithToast } from './toast.ts'
import { formOf } from '#app/utils/http.ts'

/** The action of the workspace form (setup-workspace and create): the new workspace becomes the current one. */
export async function createWorkspace(request: Request, { locale, api }: SignedIn) {
	const submission = parseWithZod(await formOf(request), { schema: workspaceSchema })
	if (submission.status !== 'success') return replyInvalid(submission)
	try {
		await api.post('/workspaces', submission.value)
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn: { locale, request } })
	}
	const t = await serverT(locale)
	return redirectWithToast(`/${locale}/dashboard`, { type: 'success', title: t('workspaces.created', { name: submission.value.name }) })
}

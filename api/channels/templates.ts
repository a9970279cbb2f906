import { type Request } from 'express'
import { type Channel, type MessageTemplateUse } from '#api/db/schema.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { providerChannel } from './connection.ts'
import { providerFor } from './providers/index.ts'
import { type MessageTemplate, type ProviderConfig, ProviderError } from './providers/provider.ts'

type TemplateChannel = Pick<Channel, 'id' | 'workspaceId' | 'kind' | 'settings' | 'credentials' | 'webhookSecret'>

/**
 * The provider's approved template that `use` names, with as many parameters as it takes; a
 * translated 422 beside the template's fields otherwise (502 when the provider cannot be asked).
 * Asked of the provider each time: templates are approved and withdrawn in Meta's dashboard.
 */
export async function approvedTemplate(
	req: Request,
	channel: TemplateChannel,
	config: ProviderConfig & { ENCRYPTION_KEY: string },
	use: MessageTemplateUse,
): Promise<MessageTemplate> {
	const provider = providerFor(channel.kind)
	if (!provider?.listTemplates) throw new HttpError(422, 'inbox:errors.templatesNotAvailable')
	const templates = await provider.listTemplates(providerChannel(channel, config.ENCRYPTION_KEY), config).catch((error: unknown) => {
		if (error instanceof ProviderError) throw new HttpError(502, 'channels:providerErrors.unavailable', { values: { detail: error.detail } })
		throw error
	})
	const { name, language, parameters } = use
	const template = templates.find((candidate) => candidate.name === name && candidate.language === language)
	if (!template) throw fieldError(req, 422, 'template.name', 'inbox:errors.templateNotFound', { name, language })
	if (parameters.length !== template.parameterCount)
		throw fieldError(req, 422, 'template.parameters', 'inbox:errors.templateParameters', { count: template.parameterCount })
	return template
}

/** A template's text with its numbered parameters (`{{1}}`…) filled in: what the customer reads. */
export function fillTemplate(body: string, parameters: readonly string[]): string {
	return body.replace(/\{\{(\d+)\}\}/g, (_, index: string) => parameters[Number(index) - 1] ?? '')
}

import crypto from 'node:crypto'
import {
	type OpenAPIObject,
	type OperationObject,
	type ParameterObject,
	type ReferenceObject,
	type RequestBodyObject,
	type ResponseObject,
	type SchemaObject,
} from 'openapi3-ts/oas30'

type Schema = SchemaObject | ReferenceObject

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const

// No script at all: the page is read, not run. Logical properties, so a right-to-left reader's browser mirrors it.
const style = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0 auto; max-inline-size: 72rem; padding: 1rem 1.5rem 4rem; }
code { font-family: ui-monospace, monospace; font-size: 0.9em; }
nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; padding: 0; list-style: none; }
section.tag { margin-block-start: 2.5rem; }
article { border: 1px solid #8884; border-radius: 0.5rem; padding: 0.5rem 1rem 1rem; margin-block: 1rem; }
article h3 { display: flex; gap: 0.75rem; align-items: baseline; flex-wrap: wrap; margin-block: 0.5rem; font-size: 1.05rem; }
.method { font: bold 0.8rem ui-monospace, monospace; padding: 0.1rem 0.4rem; border-radius: 0.25rem; background: #8883; text-transform: uppercase; }
.summary { font-weight: normal; }
.access { font-size: 0.9rem; opacity: 0.8; }
table { border-collapse: collapse; inline-size: 100%; font-size: 0.9rem; }
th, td { text-align: start; vertical-align: top; padding: 0.25rem 0.5rem; border-block-end: 1px solid #8883; }
ul.schema { margin-block: 0.25rem; padding-inline-start: 1.25rem; font-size: 0.9rem; }
.type { color: #2a7a4a; }
.required { color: #b3261e; font-size: 0.8rem; }
.constraints { opacity: 0.75; }
h4 { margin-block: 1rem 0.25rem; font-size: 0.95rem; }
`

/** The `style-src` hash of the page's one style sheet, for its Content-Security-Policy. */
export const docsStyleHash = `sha256-${crypto.createHash('sha256').update(style).digest('base64')}`

/** The API reference as one HTML page, made from the OpenAPI document: operations grouped by tag, each with its parameters, body and answers. */
export function docsPage(document: OpenAPIObject): string {
	const base = document.servers?.[0]?.url ?? ''
	const byTag = new Map<string, string[]>()
	for (const [path, item] of Object.entries(document.paths ?? {})) {
		for (const method of methods) {
			const operation = (item as Record<string, OperationObject | undefined>)[method]
			if (!operation) continue
			const tag = operation.tags?.[0] ?? 'Other'
			if (!byTag.has(tag)) byTag.set(tag, [])
			byTag.get(tag)!.push(operationHtml(method, `${base}${path}`, operation))
		}
	}
	const tags = [...byTag.keys()]
	const schemas = Object.entries(document.components?.schemas ?? {}).sort(([a], [b]) => a.localeCompare(b))
	return `<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(document.info.title)} reference</title>
<style>${style}</style>
</head>
<body>
<header>
<h1>${escape(document.info.title)} <small>${escape(document.info.version)}</small></h1>
<p>${inline(document.info.description ?? '')}</p>
<p>The same contract as JSON: <a href="${escape(base)}/openapi.json"><code>${escape(base)}/openapi.json</code></a> (OpenAPI ${escape(document.openapi)}). This reference is in English.</p>
<p>Every error answers <a href="#schema-ErrorBody"><code>ErrorBody</code></a> with its status.</p>
<nav aria-label="Sections"><ul>${tags.map((tag) => `<li><a href="#${anchor(tag)}">${escape(tag)}</a></li>`).join('')}<li><a href="#schemas">Schemas</a></li></ul></nav>
</header>
<main>
${tags.map((tag) => `<section class="tag" id="${anchor(tag)}"><h2>${escape(tag)}</h2>${byTag.get(tag)!.join('\n')}</section>`).join('\n')}
<section class="tag" id="schemas"><h2>Schemas</h2>${schemas.map(([name, schema]) => `<article id="schema-${anchor(name)}"><h3><code>${escape(name)}</code></h3>${schemaHtml(schema)}</article>`).join('\n')}</section>
</main>
</body>
</html>
`
}

function operationHtml(method: string, path: string, operation: OperationObject): string {
	const parameters = (operation.parameters ?? []).filter((parameter): parameter is ParameterObject => !('$ref' in parameter))
	const body = operation.requestBody as RequestBodyObject | undefined
	return `<article id="${anchor(`${method} ${path}`)}">
<h3><span class="method">${method}</span> <code>${escape(path)}</code> <span class="summary">${inline(operation.summary ?? '')}</span></h3>
${operation.description ? `<p>${inline(operation.description)}</p>` : ''}
<p class="access">${access(operation)}</p>
${parameters.length ? `<h4>Parameters</h4>${parametersHtml(parameters)}` : ''}
${body ? `<h4>Request body</h4>${contentHtml(body.content)}` : ''}
<h4>Responses</h4>
<table><thead><tr><th scope="col">Status</th><th scope="col">Meaning</th></tr></thead><tbody>
${Object.entries(operation.responses as Record<string, ResponseObject>)
	.map(
		([status, response]) =>
			`<tr><td><code>${escape(status)}</code></td><td>${inline(response.description)}${response.content ? contentHtml(response.content) : ''}</td></tr>`,
	)
	.join('\n')}
</tbody></table>
</article>`
}

function access(operation: OperationObject): string {
	const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement))
	if (schemes.includes('bearerAuth')) return 'Needs a session: <code>Authorization: Bearer &lt;token&gt;</code>.'
	if (schemes.includes('visitorToken')) return 'Needs the visitor’s token: <code>X-Visitor-Token</code>.'
	return 'Public: no session needed.'
}

function parametersHtml(parameters: ParameterObject[]): string {
	const rows = parameters.map((parameter) => {
		const schema = parameter.schema as SchemaObject | undefined
		return `<tr><td><code>${escape(parameter.name)}</code>${parameter.required ? ' <span class="required">required</span>' : ''}</td><td>${escape(parameter.in)}</td><td>${schema ? typeHtml(schema) : ''}${parameter.description ? ` ${inline(parameter.description)}` : ''}</td></tr>`
	})
	return `<table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Value</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

function contentHtml(content: NonNullable<RequestBodyObject['content']>): string {
	return Object.entries(content)
		.map(([type, media]) => {
			// A named schema is one link, on the line of its media type.
			if (media.schema && '$ref' in media.schema) return `<div><code>${escape(type)}</code>: ${refLink(media.schema)}</div>`
			return `<div><code>${escape(type)}</code>${media.schema ? schemaHtml(media.schema) : ''}</div>`
		})
		.join('')
}

/** A schema as a nested list of its fields; a reference as a link to where it is described. */
function schemaHtml(schema: Schema): string {
	if ('$ref' in schema) return `<ul class="schema"><li>${refLink(schema)}</li></ul>`
	const fields = fieldsHtml(schema)
	return fields ? `<ul class="schema">${fields}</ul>` : `<ul class="schema"><li>${typeHtml(schema)}</li></ul>`
}

function fieldsHtml(schema: SchemaObject): string {
	if (schema.oneOf || schema.anyOf) {
		const options = (schema.oneOf ?? schema.anyOf)!
		return `<li>one of:<ol>${options.map((option) => `<li>${'$ref' in option ? refLink(option) : fieldsHtml(option) ? `<ul class="schema">${fieldsHtml(option)}</ul>` : typeHtml(option)}</li>`).join('')}</ol></li>`
	}
	if (schema.allOf) return schema.allOf.map((part) => ('$ref' in part ? `<li>${refLink(part)}</li>` : fieldsHtml(part))).join('')
	if (schema.type === 'object' && schema.properties && Object.keys(schema.properties).length > 0) {
		const required = new Set(schema.required ?? [])
		return Object.entries(schema.properties)
			.map(([name, property]) => {
				const nested = '$ref' in property ? '' : nestedHtml(property)
				return `<li><code>${escape(name)}</code> ${'$ref' in property ? refLink(property) : typeHtml(property)}${required.has(name) ? ' <span class="required">required</span>' : ''}${nested}</li>`
			})
			.join('')
	}
	return ''
}

/** The fields inside an object, or inside an array's objects. */
function nestedHtml(schema: SchemaObject): string {
	const inner = schema.type === 'array' && schema.items && !('$ref' in schema.items) ? schema.items : schema
	const fields = fieldsHtml(inner)
	return fields && (inner.type === 'object' || inner.oneOf || inner.anyOf || inner.allOf) ? `<ul class="schema">${fields}</ul>` : ''
}

/** `string (uuid)`, `integer 1…100`, `"a" | "b"`, `array of string`… with the constraints a caller must meet. */
function typeHtml(schema: SchemaObject): string {
	if (schema.oneOf || schema.anyOf) return '<span class="type">one of the shapes below</span>'
	const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any')
	let text =
		schema.type === 'array' && schema.items
			? `array of ${'$ref' in schema.items ? refLink(schema.items) : typeHtml(schema.items)}`
			: `<span class="type">${escape(type)}</span>`
	if (schema.enum) text = schema.enum.map((value) => `<code>${escape(JSON.stringify(value))}</code>`).join(' | ')
	const constraints: string[] = []
	if (schema.format) constraints.push(schema.format)
	if (schema.nullable) constraints.push('or null')
	if (schema.minLength !== undefined || schema.maxLength !== undefined) constraints.push(`${schema.minLength ?? 0}…${schema.maxLength ?? ''} characters`)
	if (schema.minimum !== undefined || schema.maximum !== undefined) constraints.push(`${schema.minimum ?? ''}…${schema.maximum ?? ''}`)
	if (schema.minItems !== undefined || schema.maxItems !== undefined) constraints.push(`${schema.minItems ?? 0}…${schema.maxItems ?? ''} items`)
	if (schema.pattern) constraints.push(`matching <code>${escape(schema.pattern)}</code>`)
	if (schema.default !== undefined) constraints.push(`default <code>${escape(JSON.stringify(schema.default))}</code>`)
	const described = schema.description ? ` — ${inline(schema.description)}` : ''
	return `${text}${constraints.length ? ` <span class="constraints">(${constraints.join(', ')})</span>` : ''}${described}`
}

function refLink(reference: ReferenceObject): string {
	const name = reference.$ref.split('/').pop() ?? reference.$ref
	return `<a href="#schema-${anchor(name)}"><code>${escape(name)}</code></a>`
}

/** Text with Markdown's `code` spans, the only markup the descriptions use. */
function inline(text: string): string {
	return escape(text).replace(/`([^`]+)`/g, '<code>$1</code>')
}

function anchor(text: string): string {
	return text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')
}

function escape(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

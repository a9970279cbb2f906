import fc from 'fast-check'

/** Values that have broken servers before: NUL, lone surrogates, bidi overrides, SQL and HTML, numbers out of range, odd dates. */
export const nastyStrings = [
	'',
	' ',
	'\u0000',
	'a\u0000b',
	'\uD800',
	'x\uDFFFy',
	'\uD83D',
	'\u202Egnp.exe',
	'\u200F\u202B\u2066',
	'\uFEFF',
	'\uFFFF',
	"' OR '1'='1",
	"'; DROP TABLE users; --",
	'1; SELECT pg_sleep(0)',
	"\\'",
	'$1',
	'%',
	'_',
	'\\',
	'"',
	'<script>alert(1)</script>',
	'<img src=x onerror=alert(1)>',
	'{{name}}',
	'{{toString}} {{constructor|x}} {{attributes.__proto__}}',
	'${7*7}',
	'../../etc/passwd',
	'/\u202Egnp',
	'/a\r\nSet-Cookie: x=1',
	'/محمد?q=é',
	'/\t/evil.example',
	'null',
	'undefined',
	'NaN',
	'Infinity',
	'-1',
	'0',
	'1.5',
	'1e309',
	'99999999999999999999999',
	'-271821-04-20T00:00:00Z',
	'275760-09-13T00:00:00.001Z',
	'0001-01-01T00:00:00Z',
	'9999-12-31T23:59',
	'2024-02-30',
	'0000-00-00',
	'__proto__',
	'constructor',
	'toString',
	'00000000-0000-0000-0000-000000000000',
	'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
	'1234.5678',
	'private-workspace-00000000-0000-0000-0000-000000000000',
	'x'.repeat(5000),
]

/** Any UTF-16 code unit: NUL, controls, lone surrogates, bidi controls included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code))

export const hostileString: fc.Arbitrary<string> = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom(...nastyStrings) },
	{ weight: 2, arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 40 }) },
	{ weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
	{ weight: 1, arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((length) => 'é'.repeat(length)) },
	{ weight: 1, arbitrary: fc.tuple(fc.constantFrom(...nastyStrings), fc.constantFrom(...nastyStrings)).map(([a, b]) => `${a}${b}`) },
)

/** The fields the API's bodies take, so that generated objects reach past "unknown field". */
export const fieldNames = [
	'name',
	'email',
	'password',
	'currentPassword',
	'token',
	'code',
	'method',
	'role',
	'expiresInDays',
	'maxUses',
	'workspaceId',
	'userId',
	'availability',
	'confirmName',
	'timezone',
	'defaultLocale',
	'logoColor',
	'locale',
	'theme',
	'title',
	'color',
	'description',
	'shortCode',
	'content',
	'kind',
	'slug',
	'enabled',
	'settings',
	'credentials',
	'phone',
	'country',
	'company',
	'notes',
	'attributes',
	'labelIds',
	'contactIds',
	'labelId',
	'action',
	'numbers',
	'status',
	'snoozedUntil',
	'assigneeId',
	'priority',
	'body',
	'template',
	'parameters',
	'language',
	'channelId',
	'labelsIn',
	'labelsOut',
	'scheduledAt',
	'ratePerSecond',
	'campaignRatePerSecond',
	'businessHours',
	'autoReplies',
	'socket_id',
	'channel_name',
	'user_id',
	'greeting',
	'askName',
	'askEmail',
	'botToken',
	'accessToken',
	'appSecret',
	'phoneNumberId',
	'pageId',
	'__proto__',
	'constructor',
]

const hostileNumber = fc.oneof(
	fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, -1e308, 0.5, Number.MIN_VALUE, 999_999_999_999),
	fc.integer(),
	fc.double({ noNaN: true, noDefaultInfinity: true }),
)

/** JSON values of any shape, with hostile leaves and known field names as keys. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small', withCrossShrink: true },
		hostileString,
		hostileNumber,
		fc.boolean(),
		fc.constant(null),
		fc.array(tie('value'), { maxLength: 4 }),
		fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), hostileString), tie('value'), { maxKeys: 4 }),
	),
})).value

/** A body that stays close to a valid one: one of its own fields a hostile string (what reaches the database), or some fields any hostile value. */
export function mutatedBody(base: unknown): fc.Arbitrary<unknown> {
	const object = base && typeof base === 'object' && !Array.isArray(base) ? (base as Record<string, unknown>) : {}
	const own = Object.keys(object)
	const keys = [...new Set([...own, ...fieldNames])]
	const anyChange = fc.dictionary(fc.constantFrom(...keys), hostileJson, { minKeys: 1, maxKeys: 3 }).map((changes) => ({ ...object, ...changes }))
	if (own.length === 0) return anyChange
	const ownString = fc.tuple(fc.constantFrom(...own), hostileString).map(([key, value]) => ({ ...object, [key]: value }))
	return fc.oneof(ownString, anyChange)
}

const nested = (depth: number, open: string, close: string, leaf = '1') => `${open.repeat(depth)}${leaf}${close.repeat(depth)}`

/** Bodies that are not JSON, or JSON that hurts: deep nesting, huge numbers, a BOM, truncation, bytes that are not UTF-8. */
export const rawBodies = [
	'{',
	'{"name":',
	'{"name": "a"',
	"{'name': 'a'}",
	'{"name": "a",}',
	'\u0000',
	'\uFEFF{"name": "a"}',
	'null',
	'1',
	'"text"',
	'true',
	'[]',
	'{"name": 1e99999}',
	'{"__proto__": {"admin": true}, "name": "x"}',
	'{"constructor": {"prototype": {"polluted": 1}}}',
	'{"name": "\\u0000"}',
	'{"name": "\\ud800"}',
	nested(10_000, '[', ']'),
	nested(10_000, '{"a":', '}'),
	nested(200, '{"attributes":', '}', '{}'),
	`{"name": "${'x'.repeat(2_000_000)}"}`,
	'name=a&email=b',
	'\xff\xfe\x00{',
]

export const contentTypes = [
	'application/json',
	'application/json; charset=utf-8',
	'application/json; charset=utf-16',
	'application/json; charset=nonsense',
	'application/json;;; ===',
	'application/vnd.api+json',
	'text/plain',
	'text/csv',
	'text/csv; charset=latin1',
	'multipart/form-data',
	'multipart/form-data; boundary=xyz',
	'application/x-www-form-urlencoded',
	'*/*',
	'garbage',
	'',
]

/** Header text a client can send (printable Latin-1: fetch refuses the rest). */
export const headerText = fc.oneof(
	fc.constantFrom('', ' ', 'null', "' OR 1=1 --", '<script>', '%00', 'a'.repeat(2000), 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', '=;;=;'),
	fc.string({
		unit: fc
			.integer({ min: 0x20, max: 0xff })
			.filter((code) => code < 0x7f || code > 0x9f)
			.map((code) => String.fromCharCode(code)),
		maxLength: 60,
	}),
)

/** Path segments sent as they are, not encoded: bad percent-encoding and the like (not `..` nor `%2e%2e`, which fetch resolves away before sending). */
export const rawSegments = ['%', '%zz', '%E0%A4%A', '%00', '%ED%A0%80', '%C0%AF', '%FF%FE', '0x10', '1e3', '-1', '00001', '99999999999999999999', 'me', '%20']

/** What a failure may never show: a stack frame, a file of the server, a database's own words. */
export const leaks = [
	/\n\s+at /,
	/\bat [\w.<>]+ \(/,
	/\.ts:\d+:\d+/,
	/node_modules/,
	/syntax error/i,
	/relation "/i,
	/violates/i,
	/duplicate key/i,
	/invalid input syntax/i,
	/out of range/i,
	/TypeError|ReferenceError|RangeError/,
]

/** Like encodeURIComponent, but a lone surrogate goes out as the UTF-8 bytes of its code (which no decoder accepts) instead of throwing. */
export function encodeLoosely(text: string): string {
	return Array.from(text, (character) => {
		const code = character.charCodeAt(0)
		if (character.length === 1 && code >= 0xd800 && code <= 0xdfff)
			return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('')
		return encodeURIComponent(character)
	}).join('')
}

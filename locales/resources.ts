import arApi from './ar-eg/api.json'
import arCommon from './ar-eg/common.json'
import enApi from './en-us/api.json'
import enCommon from './en-us/common.json'
import frApi from './fr-x/api.json'
import frCommon from './fr-x/common.json'
import { type Locale } from './languages.ts'

/**
 * Every translation, by locale and namespace. `common` is what the web app shows (and what the
 * browser downloads from /_i18n/{locale}/messages.json); `api` holds the API's messages.
 */
export const resources = {
	'en-us': { common: enCommon, api: enApi },
	'ar-eg': { common: arCommon, api: arApi },
	'fr-x': { common: frCommon, api: frApi },
} satisfies Record<Locale, Record<string, unknown>>

export type Namespace = keyof (typeof resources)['en-us']

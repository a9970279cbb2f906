import arApi from './ar-eg/api.json'
import arAudit from './ar-eg/audit.json'
import arAutomation from './ar-eg/automation.json'
import arAuth from './ar-eg/auth.json'
import arBusinessHours from './ar-eg/businessHours.json'
import arCampaigns from './ar-eg/campaigns.json'
import arChannels from './ar-eg/channels.json'
import arCommon from './ar-eg/common.json'
import arContacts from './ar-eg/contacts.json'
import arInbox from './ar-eg/inbox.json'
import arMail from './ar-eg/mail.json'
import arIntegrations from './ar-eg/integrations.json'
import arNotifications from './ar-eg/notifications.json'
import arReports from './ar-eg/reports.json'
import arWebhooks from './ar-eg/webhooks.json'
import arWorkspaces from './ar-eg/workspaces.json'
import enApi from './en-us/api.json'
import enAudit from './en-us/audit.json'
import enAutomation from './en-us/automation.json'
import enAuth from './en-us/auth.json'
import enBusinessHours from './en-us/businessHours.json'
import enCampaigns from './en-us/campaigns.json'
import enChannels from './en-us/channels.json'
import enCommon from './en-us/common.json'
import enContacts from './en-us/contacts.json'
import enInbox from './en-us/inbox.json'
import enMail from './en-us/mail.json'
import enIntegrations from './en-us/integrations.json'
import enNotifications from './en-us/notifications.json'
import enReports from './en-us/reports.json'
import enWebhooks from './en-us/webhooks.json'
import enWorkspaces from './en-us/workspaces.json'
import frApi from './fr-x/api.json'
import frAudit from './fr-x/audit.json'
import frAutomation from './fr-x/automation.json'
import frAuth from './fr-x/auth.json'
import frBusinessHours from './fr-x/businessHours.json'
import frCampaigns from './fr-x/campaigns.json'
import frChannels from './fr-x/channels.json'
import frCommon from './fr-x/common.json'
import frContacts from './fr-x/contacts.json'
import frInbox from './fr-x/inbox.json'
import frMail from './fr-x/mail.json'
import frIntegrations from './fr-x/integrations.json'
import frNotifications from './fr-x/notifications.json'
import frReports from './fr-x/reports.json'
import frWebhooks from './fr-x/webhooks.json'
import frWorkspaces from './fr-x/workspaces.json'
import { type Locale } from './languages.ts'

/**
 * Every translation, by locale and namespace. `common` is what the web app shows (and what the
 * browser downloads from /_i18n/{locale}/messages.json); the others belong to the API: `api`
 * (shared errors and validation), one namespace per resource (`auth:…`, `workspaces:…`,
 * `contacts:…` with labels, `inbox:…`, `channels:…`, `campaigns:…`) and `mail` (the mails it sends); `reports` is the
 * dashboard's reports page alone; `audit` is the audit log's, its page's and its lines' (the API's CSV says them too);
 * `automation` is the rules' (their settings pages, and the API's validation and run log); `businessHours` is the
 * hours' and auto-replies' (the API's errors, the settings pages, the chat link's page);
 * `notifications` is the notifications' (the bell and its page on every dashboard page, the settings, the mails and pushes);
 * `webhooks` is the outgoing webhooks' (their settings pages, the API's errors, the mail of one turned off);
 * `integrations` is the access tokens' (the API's errors, the integrations page and the profile's section).
 */
export const resources = {
	'en-us': {
		common: enCommon,
		api: enApi,
		auth: enAuth,
		workspaces: enWorkspaces,
		contacts: enContacts,
		inbox: enInbox,
		channels: enChannels,
		campaigns: enCampaigns,
		mail: enMail,
		reports: enReports,
		audit: enAudit,
		automation: enAutomation,
		businessHours: enBusinessHours,
		notifications: enNotifications,
		webhooks: enWebhooks,
		integrations: enIntegrations,
	},
	'ar-eg': {
		common: arCommon,
		api: arApi,
		auth: arAuth,
		workspaces: arWorkspaces,
		contacts: arContacts,
		inbox: arInbox,
		channels: arChannels,
		campaigns: arCampaigns,
		mail: arMail,
		reports: arReports,
		audit: arAudit,
		automation: arAutomation,
		businessHours: arBusinessHours,
		notifications: arNotifications,
		webhooks: arWebhooks,
		integrations: arIntegrations,
	},
	'fr-x': {
		common: frCommon,
		api: frApi,
		auth: frAuth,
		workspaces: frWorkspaces,
		contacts: frContacts,
		inbox: frInbox,
		channels: frChannels,
		campaigns: frCampaigns,
		mail: frMail,
		reports: frReports,
		audit: frAudit,
		automation: frAutomation,
		businessHours: frBusinessHours,
		notifications: frNotifications,
		webhooks: frWebhooks,
		integrations: frIntegrations,
	},
} satisfies Record<Locale, Record<string, unknown>>

export type Namespace = keyof (typeof resources)['en-us']

/** Namespaces pages load besides `common` (a route's `handle.i18n`), from /_i18n/{locale}/{namespace}.json. */
export const pageNamespaces = [
	'inbox',
	'channels',
	'reports',
	'audit',
	'automation',
	'businessHours',
	'notifications',
	'webhooks',
	'integrations',
] as const satisfies readonly Namespace[]

/** The namespaces the API translates from; keys outside `api` are written `auth:errors.…`. */
export const apiNamespaces = [
	'api',
	'auth',
	'workspaces',
	'contacts',
	'inbox',
	'channels',
	'campaigns',
	'mail',
	'audit',
	'automation',
	'businessHours',
	'notifications',
	'webhooks',
	'integrations',
] as const satisfies readonly Namespace[]

/** The webhooks' settings page of a locale; a webhook's page is under it. */
export const webhooksPath = (locale: string) => `/${locale}/dashboard/settings/integrations/webhooks`

/** Where the rules' settings pages are, in the reader's language. */
export const automationPath = (locale: string) => `/${locale}/dashboard/settings/automation`

/** A page title: the page's name, then the product's. */
export function pageTitle(name: string | undefined) {
	return [{ title: name ? `${name} · CRM` : 'CRM' }]
}

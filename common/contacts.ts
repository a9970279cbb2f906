/** The longest a contact's fields may be (characters), and how many attributes and labels it may have: the API's rules, which the contact form checks first. */
export const contactLimits = {
	name: 120,
	email: 254,
	phone: 40,
	company: 120,
	notes: 5000,
	attributes: 50,
	attributeKey: 50,
	attributeValue: 500,
	labels: 100,
} as const

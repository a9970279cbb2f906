/**
 * The demo inbox's conversations: what customers of a shop in Cairo, Paris and London write on its
 * chat link, and what the team answers. Data, not logic: the seed plays each thread step by step
 * through the inbound path and the API's own actions (api/db/seed/demo.ts).
 */
import { type ConversationStatus, type Priority } from '#api/db/schema.ts'

/** The demo team, by the seed's short names: the owner, Amira (admin) and Julien (agent). */
export type Teammate = 'owner' | 'amira' | 'julien'

export type Step =
	| { in: string }
	| { reply: string; by: Teammate }
	| { note: string; by: Teammate }
	| { assign: Teammate | null; by: Teammate }
	| { status: Exclude<ConversationStatus, 'open'> | 'open'; by: Teammate }
	| { labels: string[]; by: Teammate }
	| { priority: Priority; by: Teammate }

export type Thread = { language: 'ar' | 'fr' | 'en'; steps: Step[] }

export const demoChannel = { name: 'Support', slug: 'demo-support', settings: { greeting: 'Hello! Ask us anything, we usually answer within the hour.' } }

export const demoThreads: Thread[] = [
	// Arabic
	{
		language: 'ar',
		steps: [
			{ in: 'السلام عليكم، طلبت فستان يوم الأحد ولم يصل حتى الآن. رقم الطلب ٤٥٢١' },
			{ assign: 'amira', by: 'amira' },
			{ reply: 'وعليكم السلام! الطلب خرج للتوصيل اليوم وسيصلك قبل الساعة ٦ مساءً.', by: 'amira' },
			{ in: 'تمام، شكراً جزيلاً 🌸' },
			{ status: 'resolved', by: 'amira' },
		],
	},
	{
		language: 'ar',
		steps: [{ in: 'مرحبا، هل يوجد هذا الحذاء مقاس ٤٢ باللون الأسود؟' }, { in: 'وكم سعر التوصيل إلى الإسكندرية؟' }],
	},
	{
		language: 'ar',
		steps: [
			{ in: 'تم خصم المبلغ مرتين من بطاقتي! أرجو الرد بسرعة' },
			{ priority: 'urgent', by: 'owner' },
			{ assign: 'amira', by: 'owner' },
			{ note: '@Julien Martin هل يمكنك مراجعة عمليات الدفع لهذا العميل؟', by: 'amira' },
			{ reply: 'نعتذر جداً عن ذلك. نراجع العملية الآن وسنرد عليك خلال ساعة.', by: 'amira' },
			{ labels: ['عميل-مميز', 'follow-up'], by: 'amira' },
		],
	},
	{
		language: 'ar',
		steps: [
			{ in: 'أريد إرجاع القميص، المقاس صغير.' },
			{ reply: 'بالتأكيد، يمكنك إرجاعه خلال ١٤ يوماً. سنرسل لك مندوب الاستلام غداً.', by: 'julien' },
			{ in: 'ممتاز، سأكون في البيت بعد الظهر.' },
			{ status: 'pending', by: 'julien' },
		],
	},
	{
		language: 'ar',
		steps: [
			{ in: 'هل عندكم فرع في مدينة نصر؟' },
			{ reply: 'نعم، فرعنا في شارع عباس العقاد مفتوح من ١٠ صباحاً إلى ١٠ مساءً.', by: 'amira' },
			{ status: 'resolved', by: 'amira' },
			{ in: 'وهل يوجد موقف سيارات؟' },
		],
	},
	{
		language: 'ar',
		steps: [
			{ in: 'أحتاج فاتورة ضريبية لطلب الشركة الأخير.' },
			{ assign: 'owner', by: 'owner' },
			{ note: 'الفاتورة تحتاج الرقم الضريبي للشركة، طلبته منهم.', by: 'owner' },
			{ reply: 'أرسل لنا الرقم الضريبي للشركة من فضلك وسنصدر الفاتورة فوراً.', by: 'owner' },
			{ status: 'snoozed', by: 'owner' },
			{ labels: ['wholesale'], by: 'owner' },
		],
	},
	{
		language: 'ar',
		steps: [{ in: 'كود الخصم RAMADAN لا يعمل عند الدفع.' }, { priority: 'high', by: 'julien' }],
	},
	{
		language: 'ar',
		steps: [
			{ in: 'شكراً على الخدمة الممتازة، وصل الطلب بسرعة!' },
			{ reply: 'يسعدنا ذلك! نتمنى لك يوماً سعيداً 😊', by: 'amira' },
			{ labels: ['customer'], by: 'amira' },
			{ status: 'resolved', by: 'amira' },
		],
	},
	{
		language: 'ar',
		steps: [{ in: 'ممكن أعرف مواعيد العمل يوم الجمعة؟' }, { reply: 'يوم الجمعة نعمل من ٢ ظهراً حتى ١١ مساءً.', by: 'julien' }],
	},
	{
		language: 'ar',
		steps: [
			{ in: 'أريد طلب ٥٠ قطعة للمحل، هل يوجد سعر جملة؟' },
			{ assign: 'owner', by: 'amira' },
			{ labels: ['wholesale', 'lead'], by: 'amira' },
			{ priority: 'medium', by: 'amira' },
		],
	},
	// French
	{
		language: 'fr',
		steps: [
			{ in: 'Bonjour, ma commande 7834 n’est toujours pas arrivée, pouvez-vous vérifier ?' },
			{ assign: 'julien', by: 'julien' },
			{ reply: 'Bonjour ! Le colis est chez le transporteur, livraison prévue demain avant midi.', by: 'julien' },
			{ in: 'Parfait, merci beaucoup !' },
			{ status: 'resolved', by: 'julien' },
		],
	},
	{
		language: 'fr',
		steps: [
			{ in: 'Bonjour, est-ce que vous livrez en Belgique ?' },
			{ reply: 'Oui, nous livrons en Belgique en 3 à 5 jours ouvrés.', by: 'julien' },
			{ in: 'Et les frais de port sont de combien ?' },
		],
	},
	{
		language: 'fr',
		steps: [
			{ in: 'Le code promo BIENVENUE ne fonctionne pas sur mon panier.' },
			{ assign: 'julien', by: 'amira' },
			{ note: 'Le code a expiré le 1er, proposer NOEL15 à la place.', by: 'amira' },
			{ reply: 'Ce code a expiré, mais vous pouvez utiliser NOEL15 qui donne 15 % de remise.', by: 'julien' },
			{ status: 'pending', by: 'julien' },
		],
	},
	{
		language: 'fr',
		steps: [{ in: 'J’ai reçu un article abîmé, je voudrais un remboursement.' }, { priority: 'high', by: 'owner' }, { labels: ['follow-up'], by: 'owner' }],
	},
	{
		language: 'fr',
		steps: [
			{ in: 'Bonjour, je suis revendeur à Lyon, proposez-vous des tarifs professionnels ?' },
			{ assign: 'owner', by: 'owner' },
			{ reply: 'Bonjour, oui ! Je vous envoie notre grille tarifaire professionnelle par e-mail.', by: 'owner' },
			{ labels: ['partenaire', 'lead'], by: 'owner' },
			{ status: 'snoozed', by: 'owner' },
		],
	},
	{
		language: 'fr',
		steps: [
			{ in: 'Pouvez-vous changer l’adresse de livraison de ma commande ?' },
			{ reply: 'C’est fait, la nouvelle adresse est enregistrée.', by: 'amira' },
			{ status: 'resolved', by: 'amira' },
		],
	},
	{
		language: 'fr',
		steps: [
			{ in: 'Bonsoir, le site affiche une erreur au paiement par carte.' },
			{ in: 'J’ai réessayé trois fois, toujours pareil.' },
			{ priority: 'urgent', by: 'julien' },
		],
	},
	{
		language: 'fr',
		steps: [
			{ in: 'Merci pour le cadeau dans le colis, c’est très gentil !' },
			{ reply: 'Avec plaisir, merci à vous pour votre fidélité !', by: 'julien' },
			{ labels: ['vip'], by: 'julien' },
			{ status: 'resolved', by: 'julien' },
		],
	},
	{
		language: 'fr',
		steps: [{ in: 'Quels sont vos horaires d’ouverture le dimanche ?' }, { assign: 'amira', by: 'owner' }],
	},
	{
		language: 'fr',
		steps: [
			{ in: 'Je voudrais annuler ma commande passée ce matin.' },
			{ reply: 'Votre commande est annulée, le remboursement arrive sous 5 jours.', by: 'owner' },
			{ in: 'Super, merci.' },
			{ status: 'resolved', by: 'owner' },
		],
	},
	// English
	{
		language: 'en',
		steps: [
			{ in: 'Hi, I was charged twice for order 9912. Can you refund one of them?' },
			{ assign: 'julien', by: 'owner' },
			{ priority: 'high', by: 'owner' },
			{ note: 'Checked Stripe: the second charge is a pre-authorisation, it drops in 48 h.', by: 'julien' },
			{ reply: 'Hi! The second charge is only a hold; it disappears from your statement within 48 hours.', by: 'julien' },
			{ in: 'Ah ok, thanks for checking!' },
			{ status: 'resolved', by: 'julien' },
		],
	},
	{
		language: 'en',
		steps: [{ in: 'Do you ship to Ireland? And how long does it take?' }],
	},
	{
		language: 'en',
		steps: [
			{ in: 'The app keeps logging me out every few minutes.' },
			{ assign: 'amira', by: 'amira' },
			{ reply: 'Sorry about that! Which phone and app version are you using?', by: 'amira' },
			{ in: 'iPhone 13, the latest version from the App Store.' },
			{ note: 'Same report as last week, @Demo Owner can we ask the developers?', by: 'amira' },
			{ labels: ['follow-up'], by: 'amira' },
		],
	},
	{
		language: 'en',
		steps: [
			{ in: 'Could I get an invoice with my company name on it?' },
			{ reply: 'Of course, what is the company name and address?', by: 'julien' },
			{ in: 'Kettle & Crumb Ltd, 12 Mill Lane, Bristol.' },
			{ reply: 'Done, the invoice is in your inbox.', by: 'julien' },
			{ status: 'resolved', by: 'julien' },
		],
	},
	{
		language: 'en',
		steps: [
			{ in: 'We would like 200 units for our shops, can we talk about pricing?' },
			{ assign: 'owner', by: 'owner' },
			{ labels: ['wholesale', 'lead'], by: 'owner' },
			{ priority: 'medium', by: 'owner' },
			{ reply: 'Great to hear! I will call you tomorrow morning to go through our wholesale prices.', by: 'owner' },
			{ status: 'snoozed', by: 'owner' },
		],
	},
	{
		language: 'en',
		steps: [
			{ in: 'My parcel arrived damaged, the box was crushed.' },
			{ reply: 'I am sorry! Could you send a photo of the item? We will send a replacement right away.', by: 'amira' },
			{ status: 'pending', by: 'amira' },
		],
	},
	{
		language: 'en',
		steps: [{ in: 'Is the blue jacket coming back in stock?' }, { assign: 'julien', by: 'amira' }],
	},
	{
		language: 'en',
		steps: [
			{ in: 'Just wanted to say the new collection is lovely!' },
			{ reply: 'Thank you so much, that made our day!', by: 'owner' },
			{ labels: ['vip', 'customer'], by: 'owner' },
			{ status: 'resolved', by: 'owner' },
		],
	},
	{
		language: 'en',
		steps: [
			{ in: 'How do I reset my password? The e-mail never arrives.' },
			{ reply: 'Please check your spam folder; I have sent a new link just now.', by: 'julien' },
			{ in: 'Found it in spam, all good now.' },
		],
	},
	{
		language: 'en',
		steps: [
			{ in: 'Can I change the size on my order before it ships?' },
			{ in: 'It is order 10233, I need a medium instead of a small.' },
			{ priority: 'low', by: 'owner' },
		],
	},
]

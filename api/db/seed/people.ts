/**
 * The people of the demo workspace: names as customers of a business in Cairo, Casablanca, Paris
 * and London would write them, with their companies and phones. Data, not logic: the seed draws
 * from these lists with a fixed seed, so every install gets the same demo.
 */

/** An Arabic name with the Latin spelling its owner uses in an e-mail address. */
type Spelled = readonly [arabic: string, latin: string]

export const arabicFirstNames: Spelled[] = [
	['محمد', 'mohamed'],
	['أحمد', 'ahmed'],
	['مصطفى', 'mostafa'],
	['عمر', 'omar'],
	['يوسف', 'youssef'],
	['خالد', 'khaled'],
	['كريم', 'karim'],
	['طارق', 'tarek'],
	['هشام', 'hisham'],
	['مروان', 'marwan'],
	['سارة', 'sara'],
	['فاطمة', 'fatma'],
	['مريم', 'mariam'],
	['نور', 'nour'],
	['ياسمين', 'yasmine'],
	['هبة', 'heba'],
	['دينا', 'dina'],
	['ليلى', 'leila'],
	['رنا', 'rana'],
	['أميرة', 'amira'],
	['سلمى', 'salma'],
	['إيمان', 'iman'],
	['حسام', 'hossam'],
	['زياد', 'ziad'],
	['نادية', 'nadia'],
]

export const arabicFamilyNames: Spelled[] = [
	['حسن', 'hassan'],
	['عبد الله', 'abdallah'],
	['إبراهيم', 'ibrahim'],
	['السيد', 'elsayed'],
	['منصور', 'mansour'],
	['الشريف', 'elsherif'],
	['عثمان', 'osman'],
	['النجار', 'elnaggar'],
	['فاروق', 'farouk'],
	['سليمان', 'soliman'],
	['بن علي', 'benali'],
	['العلوي', 'alaoui'],
	['الإدريسي', 'idrissi'],
	['بنكيران', 'benkirane'],
	['القحطاني', 'alqahtani'],
	['الحربي', 'alharbi'],
	['درويش', 'darwish'],
	['خليل', 'khalil'],
	['جابر', 'gaber'],
	['رزق', 'rizk'],
]

export const frenchFirstNames = [
	'Camille',
	'Léa',
	'Chloé',
	'Manon',
	'Inès',
	'Louise',
	'Zoé',
	'Élodie',
	'Margaux',
	'Céline',
	'Julien',
	'Mathieu',
	'Théo',
	'Hugo',
	'Lucas',
	'Antoine',
	'Étienne',
	'François',
	'Noël',
	'Benoît',
	'Amélie',
	'Hélène',
	'Gaëlle',
	'Jérôme',
	'Rémi',
]

export const frenchFamilyNames = [
	'Martin',
	'Bernard',
	'Dubois',
	'Lefèvre',
	'Moreau',
	'Laurent',
	'Girard',
	'Rousseau',
	'Fournier',
	'Mercier',
	'Lemoine',
	'Faure',
	'Chevalier',
	'Gauthier',
	'Perrin',
	'Bonnet',
	'Dupont',
	'Lambert',
	'Fontaine',
	'Roux',
]

export const englishFirstNames = [
	'Oliver',
	'Amelia',
	'Harry',
	'Isla',
	'George',
	'Emily',
	'Jack',
	'Sophie',
	'Noah',
	'Grace',
	'Daniel',
	'Hannah',
	'Samuel',
	'Chloe',
	'James',
	'Priya',
	'Arjun',
	'Aisha',
	'Liam',
	'Maya',
]

export const englishFamilyNames = [
	'Smith',
	'Jones',
	'Taylor',
	'Brown',
	'Williams',
	'Wilson',
	'Johnson',
	'Davies',
	'Patel',
	'Robinson',
	'Wright',
	'Thompson',
	'Evans',
	'Walker',
	'Khan',
	'Hughes',
	'Green',
	'Clarke',
	"O'Connor",
	'Murphy',
]

export const arabicCompanies = [
	'شركة النيل للتجارة',
	'مخبز الأمل',
	'صيدلية الشفاء',
	'مؤسسة الفجر للمقاولات',
	'دار الياسمين للعطور',
	'مطاعم بيت الشام',
	'الأطلس للنقل',
	'مكتبة المعرفة',
	'مركز النور الطبي',
	'شركة الواحة للسياحة',
]

export const frenchCompanies = [
	'Boulangerie Lemoine',
	'Atelier Lumière',
	'Transports Girard',
	'Cabinet Moreau & Associés',
	'Librairie du Marais',
	'Fromagerie des Alpes',
	'Maison Fontaine',
	'Hôtel Beau Rivage',
	'Garage Perrin',
	'Pâtisserie Élise',
]

export const englishCompanies = [
	'Northwind Traders',
	'Bluebird Logistics',
	'Harbour & Co',
	'Greenleaf Grocers',
	'Brightside Dental',
	'Oakwood Furniture',
	'Riverside Clinic',
	'Silverline Travel',
	'Kettle & Crumb',
	'Summit Outdoor',
]

/**
 * Mobile numbers of each country, valid for libphonenumber: a prefix and the count of digits
 * that follow it.
 */
export const mobilePlans: Record<'egypt' | 'morocco' | 'saudi' | 'france' | 'uk', ReadonlyArray<readonly [prefix: string, digits: number]>> = {
	egypt: [
		['+2010', 8],
		['+2011', 8],
		['+2012', 8],
		['+2015', 8],
	],
	morocco: [
		['+21261', 7],
		['+21262', 7],
		['+21265', 7],
		['+21266', 7],
	],
	saudi: [
		['+96650', 7],
		['+96654', 7],
		['+96655', 7],
		['+96656', 7],
	],
	france: [
		['+3361', 7],
		['+3362', 7],
		['+3364', 7],
		['+3366', 7],
		['+3367', 7],
		['+3376', 7],
		['+3377', 7],
		['+3378', 7],
	],
	uk: [
		['+4477', 8],
		['+4478', 8],
		['+4479', 8],
	],
}

export type Region = keyof typeof mobilePlans

/** Labels of the demo, with the colours and descriptions a team would give them. */
export const demoLabels = [
	{ title: 'vip', color: '#d97706', description: 'Our most valuable customers: answer first.' },
	{ title: 'lead', color: '#2563eb', description: 'Interested, not yet a customer.' },
	{ title: 'customer', color: '#16a34a', description: 'Has bought at least once.' },
	{ title: 'wholesale', color: '#8b5cf6', description: 'Buys in bulk for a shop.' },
	{ title: 'follow-up', color: '#f43f5e', description: 'Waiting for our answer or a call back.' },
	{ title: 'عميل-مميز', color: '#ec4899', description: 'عملاء مميزون في القاهرة والرياض.' },
	{ title: 'partenaire', color: '#475569', description: 'Partenaires et revendeurs en France.' },
] as const

export const demoNotes = [
	'Prefers WhatsApp in the evening.',
	'Asked for a quote for 200 units.',
	'يفضل التواصل باللغة العربية.',
	'Souhaite être rappelée le matin.',
	'Returned an order in March; resolved with a refund.',
	'عميل منذ ٢٠١٩، يطلب شهرياً.',
	'Intéressé par l’offre de fin d’année.',
]

/** Replies the demo team keeps ready, in the three languages it answers in. */
export const demoCannedResponses = [
	{ shortCode: 'hello', content: 'Hello! Thanks for writing to us. How can we help you today?' },
	{ shortCode: 'hours', content: 'We are open Sunday to Thursday, 9:00 to 18:00 (Cairo time). We answer every message the same day.' },
	{ shortCode: 'refund', content: 'Your refund has been issued. It usually reaches your account within 5 working days.' },
	{ shortCode: 'مرحبا', content: 'أهلاً بك! شكراً لتواصلك معنا. كيف يمكننا مساعدتك اليوم؟' },
	{ shortCode: 'توصيل', content: 'يصل الطلب خلال يومين إلى ثلاثة أيام عمل داخل القاهرة والجيزة.' },
	{ shortCode: 'bonjour', content: 'Bonjour ! Merci pour votre message. Comment pouvons-nous vous aider ?' },
	{ shortCode: 'merci', content: 'Merci pour votre patience. N’hésitez pas à nous écrire si vous avez d’autres questions.' },
]

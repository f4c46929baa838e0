/**
 * Reference lists of the recruiting service, exactly as listed in
 * `service-interface.md` (ids, German/default names and response order).
 * English names are the sandbox's own translations; the German data is the
 * default answer (`lang=de` or no `lang`).
 */

export type Lang = 'de' | 'en';

/** [id, German name, English name] */
type Named = readonly [number, string, string];

interface DivisionSource {
	readonly division: Named;
	readonly areas: readonly Named[];
}

const BUSINESS_AREAS: readonly DivisionSource[] = [
	{
		division: [1, 'Einkauf & Verkauf', 'Purchasing & Sales'],
		areas: [
			[1, 'Einkauf', 'Purchasing'],
			[2, 'Kundenservice', 'Customer Service'],
			[3, 'Sales', 'Sales'],
		],
	},
	{
		division: [2, 'Management & Organisation', 'Management & Organisation'],
		areas: [
			[4, 'Management & Strategie', 'Management & Strategy'],
			[5, 'Business Development', 'Business Development'],
			[6, 'Organisation & Infrastructure', 'Organisation & Infrastructure'],
			[7, 'Human Resources', 'Human Resources'],
		],
	},
	{
		division: [3, 'Marketing & Kommunikation', 'Marketing & Communication'],
		areas: [
			[8, 'Kommunikation / PR / Events', 'Communication / PR / Events'],
			[9, 'Marketing & Online-Marketing', 'Marketing & Online Marketing'],
		],
	},
	{
		division: [4, 'Finanzen & Buchhaltung', 'Finance & Accounting'],
		areas: [
			[16, 'Accounting', 'Accounting'],
			[17, 'Controlling', 'Controlling'],
			[18, 'Finanzierung & Treasury', 'Financing & Treasury'],
			[19, 'Steuern', 'Taxes'],
			[15, 'Audit & Wirtschaftsprüfung', 'Audit & Public Accounting'],
		],
	},
	{
		division: [5, 'Consulting', 'Consulting'],
		areas: [
			[13, 'Technische Beratung', 'Technical Consulting'],
			[14, 'Steuerberatung', 'Tax Consulting'],
			[11, 'IT Beratung', 'IT Consulting'],
			[10, 'Unternehmensberatung', 'Management Consulting'],
			[12, 'Personalberatung', 'Recruitment Consulting'],
		],
	},
	{
		division: [6, 'Banken & Vermögensverwaltung', 'Banking & Wealth Management'],
		areas: [
			[20, 'Asset Management', 'Asset Management'],
			[21, 'Bank Treasury', 'Bank Treasury'],
			[22, 'Corporate Banking', 'Corporate Banking'],
			[23, 'Financial Technology', 'Financial Technology'],
			[24, 'Investment Banking & Corporate Finance', 'Investment Banking & Corporate Finance'],
			[26, 'Private Wealth Management', 'Private Wealth Management'],
			[28, 'Research', 'Research'],
			[29, 'Retail Banking', 'Retail Banking'],
			[30, 'Risk Management', 'Risk Management'],
			[31, 'Transaction Banking', 'Transaction Banking'],
			[32, 'Transactions & Operations', 'Transactions & Operations'],
			[25, 'Capital Markets', 'Capital Markets'],
			[27, 'Projektfinanzierung & Spezialfinanzierung', 'Project Finance & Specialised Finance'],
		],
	},
	{
		division: [7, 'Versicherungswesen & Finanzdienstleistung', 'Insurance & Financial Services'],
		areas: [
			[33, 'Zentralbank & Bankenaufsicht', 'Central Bank & Banking Supervision'],
			[34, 'Finanzdienstleistung', 'Financial Services'],
			[35, 'Aktuariat & Insurance Risk Management', 'Actuarial Science & Insurance Risk Management'],
			[36, 'Schadensregulierung & Specialist', 'Claims Management & Specialist'],
			[37, 'Sales & Salessupport', 'Sales & Sales Support'],
		],
	},
	{
		division: [8, 'Jura & Rechtswesen', 'Law & Legal Services'],
		areas: [
			[38, 'Arbeitsrecht', 'Employment Law'],
			[39, 'Bank- & Finanzrecht', 'Banking & Finance Law'],
			[40, 'Compliance', 'Compliance'],
			[41, 'Gesellschaftsrecht', 'Corporate Law'],
			[44, 'Kartellrecht & Wettbewerbsrecht', 'Antitrust & Competition Law'],
			[45, 'M&A / IPO / Wertpapierrecht', 'M&A / IPO / Securities Law'],
			[46, 'Markenrecht', 'Trademark Law'],
			[47, 'Nachfolge / Vermögen / Stiftungen', 'Succession / Wealth / Foundations'],
			[48, 'Notariat', 'Notary Services'],
			[49, 'Patentrecht', 'Patent Law'],
			[50, 'PE & VC', 'PE & VC'],
			[51, 'Wirtschafts- & Steuerstrafrecht', 'White-Collar & Tax Criminal Law'],
			[52, 'Dispute Resolution', 'Dispute Resolution'],
			[53, 'Verwaltungsrecht', 'Administrative Law'],
			[54, 'Steuerrecht', 'Tax Law'],
			[55, 'Strafrecht', 'Criminal Law'],
			[56, 'Energierecht / Gesundheitsrecht / Lebensmittelrecht', 'Energy Law / Health Law / Food Law'],
			[57, 'Umweltrecht', 'Environmental Law'],
			[58, 'Technologie & Medien', 'Technology & Media'],
			[59, 'Versicherungsrecht', 'Insurance Law'],
			[60, 'Vertrieb / Handel / Logistik', 'Distribution / Trade / Logistics'],
			[42, 'Immobilien- & Baurecht', 'Real Estate & Construction Law'],
			[43, 'Insolvenzrecht und Restrukturierung', 'Insolvency Law and Restructuring'],
		],
	},
	{
		division: [9, 'Startups & Digitalisierung', 'Startups & Digitalisation'],
		areas: [
			[61, 'Startup', 'Startup'],
			[62, 'Technologie & Digitalisierung', 'Technology & Digitalisation'],
		],
	},
	{
		division: [10, 'IT & Softwareentwicklung', 'IT & Software Development'],
		areas: [
			[63, 'Hardware', 'Hardware'],
			[64, 'IT Projekt- & Produktmanagement', 'IT Project & Product Management'],
			[65, 'Infrastruktur / Netzwerke / Telekom', 'Infrastructure / Networks / Telecom'],
			[66, 'Softwareentwicklung', 'Software Development'],
			[67, 'Web Design', 'Web Design'],
		],
	},
	{
		division: [11, 'Ingenieurwesen & Technik', 'Engineering & Technology'],
		areas: [
			[68, 'Architektur & Stadtplanung', 'Architecture & Urban Planning'],
			[69, 'Automatisierungstechnik', 'Automation Engineering'],
			[70, 'Bauingenieurwesen', 'Civil Engineering'],
			[71, 'Biotechnologie', 'Biotechnology'],
			[72, 'Chemieingenieurwesen', 'Chemical Engineering'],
			[73, 'Elektrotechnik', 'Electrical Engineering'],
			[74, 'Energie- & Umwelttechnik', 'Energy & Environmental Engineering'],
			[75, 'Fahrzeugtechnik', 'Automotive Engineering'],
			[76, 'Informationstechnik', 'Information Technology'],
			[77, 'Luft- & Raumfahrttechnik', 'Aerospace Engineering'],
			[78, 'Maschinenbau', 'Mechanical Engineering'],
			[79, 'Mechatronik', 'Mechatronics'],
			[80, 'Verfahrenstechnik', 'Process Engineering'],
			[81, 'Weitere Ingenieurwissenschaften', 'Other Engineering Sciences'],
			[82, 'Werkstofftechnik', 'Materials Engineering'],
			[83, 'Technischer Vertrieb', 'Technical Sales'],
			[84, 'Entwicklung', 'Development'],
			[85, 'Konstruktion', 'Design Engineering'],
			[86, 'Produktion', 'Production'],
			[88, 'Qualität & Instandhaltung', 'Quality & Maintenance'],
			[87, 'Logistik & Supply Chain', 'Logistics & Supply Chain'],
		],
	},
	{
		division: [12, 'Naturwissenschaften', 'Natural Sciences'],
		areas: [
			[89, 'Biologie', 'Biology'],
			[90, 'Mathematik', 'Mathematics'],
			[91, 'Chemie', 'Chemistry'],
			[92, 'Physik', 'Physics'],
			[93, 'Forschung', 'Research'],
			[94, 'Energie & Rohstoffe', 'Energy & Raw Materials'],
			[102, 'Agrar', 'Agriculture'],
			[103, 'Hotellier', 'Hotelier'],
		],
	},
	{
		division: [13, 'Design, Gestaltung & Medien', 'Design, Creative & Media'],
		areas: [
			[96, 'Journalismus & Verlagswesen', 'Journalism & Publishing'],
			[97, 'Film / Funk / Fernsehen', 'Film / Radio / Television'],
			[95, 'Design / Gestaltung / Mode', 'Design / Creative / Fashion'],
		],
	},
	{
		division: [14, 'Gesundheit', 'Health'],
		areas: [
			[98, 'Medizin & Psychologie', 'Medicine & Psychology'],
			[99, 'Pharma', 'Pharmaceuticals'],
		],
	},
	{
		division: [15, 'Öffentlicher Sektor', 'Public Sector'],
		areas: [[100, 'Verwaltung', 'Public Administration']],
	},
	{
		division: [16, 'Bildung & Soziales', 'Education & Social Services'],
		areas: [[101, 'Bildung & Soziales', 'Education & Social Services']],
	},
];

/** Job types in response order: [id, name_ger, name_eng] (typos as in the service data). */
const JOB_TYPES: readonly Named[] = [
	[1, 'Praktikant', 'Internship'],
	[2, 'Werkstudent', 'Working student'],
	[3, 'Trainee', 'Trainee'],
	[7, 'Duales Studium', 'Dual studies'],
	[4, 'Festanstellung', 'Permanent position'],
	[8, 'Referendariat', 'Clerkship'],
	[5, 'Bachelorarbeit (im Unternehmen)', 'Bachelor thesis (in company)'],
	[6, 'Masterarbeit (im Unternehmen)', 'Master thesis (in company)'],
	[14, 'Studentische Hilfskraft', 'Student Resarch Assistant'],
	[15, 'Wissenschaftlicher Mitarbeiter / Doktorand', 'Research Assistant / PhD Student'],
	[9, 'Teilzeit (befristet)', 'Part-Time (fixed term)'],
	[10, 'Vollzeit (befristet)', 'Full-Time (fixed term)'],
];

/** University degrees: [id, default (German) value, English value]. */
const UNIVERSITY_DEGREES: readonly Named[] = [
	[1, 'Bachelor of Arts', 'Bachelor of Arts'],
	[2, 'Bachelor of Science', 'Bachelor of Science'],
	[3, 'Bachelor of Engineering', 'Bachelor of Engineering'],
	[4, 'Bachelor of Laws', 'Bachelor of Laws'],
	[5, 'Bachelor of Education', 'Bachelor of Education'],
	[6, 'Bachelor of Music', 'Bachelor of Music'],
	[7, 'Bachelor of Fine Arts', 'Bachelor of Fine Arts'],
	[8, 'Bachelor of Musical Arts', 'Bachelor of Musical Arts'],
	[9, 'Master of Arts', 'Master of Arts'],
	[10, 'Master of Science', 'Master of Science'],
	[11, 'Master of Engineering', 'Master of Engineering'],
	[12, 'Master of Laws', 'Master of Laws'],
	[13, 'Master of Education', 'Master of Education'],
	[14, 'Master of Music', 'Master of Music'],
	[15, 'Master of Fine Arts', 'Master of Fine Arts'],
	[16, 'Master of Musical Arts', 'Master of Musical Arts'],
	[17, 'Magister Artium', 'Magister Artium'],
	[18, 'Magister Legum', 'Magister Legum'],
	[19, 'Erstes Staatsexamen', 'First State Examination'],
	[20, 'Zweites Staatsexamen', 'Second State Examination'],
	[21, 'Promotion', 'Doctorate'],
	[22, 'MBA', 'MBA'],
	[23, 'Diplom', 'Diploma'],
	[24, 'Vollzeit', 'Full-time'],
];

/** Language skills by id: default value (as listed), plus English values where they differ. */
const LANGUAGE_VALUES: readonly string[] = [
	'Afar', 'Abkhaz', 'Afrikaans', 'Amharic', 'Arabic', 'Assamese', 'Aymara', 'Azerbaijani',
	'South Azerbaijani', 'Bashkir', 'Belarusian', 'Bulgarian', 'Bihari', 'Bislama', 'Bengali; Bangla',
	'Tibetan Standard, Tibetan, Central', 'Breton', 'Catalan; Valencian', 'Corsican', 'Czech', 'Welsh',
	'Danish', 'German', 'Dzongkha', 'Greek, Modern', 'English', 'Esperanto', 'Spanish', 'Estonian',
	'Basque', 'Persian (Farsi)', 'Finnish', 'Fijian', 'Faroese', 'French', 'Western Frisian', 'Irish',
	'Scottish Gaelic; Gaelic', 'Galician', 'Guaraní', 'Gujarati', 'Hausa', 'Hebrew (modern)', 'Hindi',
	'Croatian', 'Hungarian', 'Armenian', 'Interlingua', 'Indonesian', 'Interlingue', 'Inupiaq',
	'Icelandic', 'Italian', 'Inuktitut', 'Japanese', 'Javanese', 'Georgian', 'Kazakh',
	'Kalaallisut, Greenlandic', 'Khmer', 'Kannada', 'Korean', 'Kashmiri', 'Kurdish', 'Kyrgyz', 'Latin',
	'Lingala', 'Lao', 'Lithuanian', 'Latvian', 'Malagasy', 'Māori', 'Macedonian', 'Malayalam',
	'Mongolian', 'Marathi (Marāṭhī)', 'Malay', 'Maltese', 'Burmese', 'Nauru', 'Nepali', 'Dutch',
	'Norwegian', 'Occitan', 'Oromo', 'Oriya', 'Panjabi, Punjabi', 'Polish', 'Pashto, Pushto',
	'Portuguese', 'Quechua', 'Romansh', 'Kirundi', 'Romanian', 'Russian', 'Kinyarwanda',
	'Sanskrit (Saṁskṛta)', 'Sindhi', 'Sango', 'Sinhala, Sinhalese', 'Slovak', 'Slovene', 'Samoan',
	'Shona', 'Somali', 'Albanian', 'Serbian', 'Swati', 'Southern Sotho', 'Sundanese', 'Swedish',
	'Swahili', 'Tamil', 'Telugu', 'Tajik', 'Thai', 'Tigrinya', 'Turkmen', 'Tagalog', 'Tswana',
	'Tonga (Tonga Islands)', 'Turkish', 'Tsonga', 'Tatar', 'Twi', 'Uyghur, Uighur', 'Ukrainian', 'Urdu',
	'Uzbek', 'Vietnamese', 'Volapük', 'Wolof', 'Xhosa', 'Yiddish', 'Yoruba', 'Zhuang, Chuang',
	'Chinese', 'Zulu', 'Luxemburgisch', 'Kantonesisch',
];
const LANGUAGE_ENGLISH_OVERRIDES: Readonly<Record<number, string>> = {
	139: 'Luxembourgish',
	140: 'Cantonese',
};
const LANGUAGE_FIRST_IDS = [23, 26, 35, 28, 66];

export interface IdName {
	id: number;
	name: string;
}
export interface BusinessAreaDivision extends IdName {
	area: IdName[];
}
export interface JobType {
	id: number;
	name_ger: string;
	name_eng: string;
}
export interface IdValue {
	id: number;
	value: string;
}

/** `lang` query value to a supported language; anything else falls back to the default `de`. */
export function parseLang(value: unknown): Lang {
	return typeof value === 'string' && value.trim().toLowerCase() === 'en' ? 'en' : 'de';
}

const pick = (entry: Named, lang: Lang): string => (lang === 'en' ? entry[2] : entry[1]);

export function businessAreas(lang: Lang): BusinessAreaDivision[] {
	return BUSINESS_AREAS.map(({ division, areas }) => ({
		id: division[0],
		name: pick(division, lang),
		area: areas.map((area) => ({ id: area[0], name: pick(area, lang) })),
	}));
}

export function jobTypes(): JobType[] {
	return JOB_TYPES.map(([id, nameGer, nameEng]) => ({ id, name_ger: nameGer, name_eng: nameEng }));
}

export function universityDegrees(lang: Lang): IdValue[] {
	return UNIVERSITY_DEGREES.map((entry) => ({ id: entry[0], value: pick(entry, lang) }));
}

export function languageSkills(lang: Lang): IdValue[] {
	const all = LANGUAGE_VALUES.map((value, index) => {
		const id = index + 1;
		return { id, value: lang === 'en' ? (LANGUAGE_ENGLISH_OVERRIDES[id] ?? value) : value };
	});
	const byId = new Map(all.map((entry) => [entry.id, entry]));
	const first = LANGUAGE_FIRST_IDS.map((id) => byId.get(id)).filter(
		(entry): entry is IdValue => entry !== undefined,
	);
	const rest = all.filter((entry) => !LANGUAGE_FIRST_IDS.includes(entry.id));
	return [...first, ...rest];
}

export const JOB_TYPE_IDS: ReadonlySet<number> = new Set(JOB_TYPES.map(([id]) => id));
export const UNIVERSITY_DEGREE_IDS: ReadonlySet<number> = new Set(UNIVERSITY_DEGREES.map(([id]) => id));
export const LANGUAGE_IDS: ReadonlySet<number> = new Set(LANGUAGE_VALUES.map((_, index) => index + 1));

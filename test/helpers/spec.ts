/**
 * The four reference lists exactly as `../shared/spec/service-interface.md` (beside the repository)
 * writes them (copied verbatim from the spec text and parsed here, independent of the sandbox's own data),
 * to check the sandbox and the node end to end.
 */

/** Business area divisions, one line per division: "<id> <name>: <id> <area> | ...". */
const BUSINESS_AREA_LINES: readonly string[] = [
	'1 Einkauf & Verkauf: 1 Einkauf | 2 Kundenservice | 3 Sales',
	'2 Management & Organisation: 4 Management & Strategie | 5 Business Development | 6 Organisation & Infrastructure | 7 Human Resources',
	'3 Marketing & Kommunikation: 8 Kommunikation / PR / Events | 9 Marketing & Online-Marketing',
	'4 Finanzen & Buchhaltung: 16 Accounting | 17 Controlling | 18 Finanzierung & Treasury | 19 Steuern | 15 Audit & Wirtschaftsprüfung',
	'5 Consulting: 13 Technische Beratung | 14 Steuerberatung | 11 IT Beratung | 10 Unternehmensberatung | 12 Personalberatung',
	'6 Banken & Vermögensverwaltung: 20 Asset Management | 21 Bank Treasury | 22 Corporate Banking | 23 Financial Technology | 24 Investment Banking & Corporate Finance | 26 Private Wealth Management | 28 Research | 29 Retail Banking | 30 Risk Management | 31 Transaction Banking | 32 Transactions & Operations | 25 Capital Markets | 27 Projektfinanzierung & Spezialfinanzierung',
	'7 Versicherungswesen & Finanzdienstleistung: 33 Zentralbank & Bankenaufsicht | 34 Finanzdienstleistung | 35 Aktuariat & Insurance Risk Management | 36 Schadensregulierung & Specialist | 37 Sales & Salessupport',
	'8 Jura & Rechtswesen: 38 Arbeitsrecht | 39 Bank- & Finanzrecht | 40 Compliance | 41 Gesellschaftsrecht | 44 Kartellrecht & Wettbewerbsrecht | 45 M&A / IPO / Wertpapierrecht | 46 Markenrecht | 47 Nachfolge / Vermögen / Stiftungen | 48 Notariat | 49 Patentrecht | 50 PE & VC | 51 Wirtschafts- & Steuerstrafrecht | 52 Dispute Resolution | 53 Verwaltungsrecht | 54 Steuerrecht | 55 Strafrecht | 56 Energierecht / Gesundheitsrecht / Lebensmittelrecht | 57 Umweltrecht | 58 Technologie & Medien | 59 Versicherungsrecht | 60 Vertrieb / Handel / Logistik | 42 Immobilien- & Baurecht | 43 Insolvenzrecht und Restrukturierung',
	'9 Startups & Digitalisierung: 61 Startup | 62 Technologie & Digitalisierung',
	'10 IT & Softwareentwicklung: 63 Hardware | 64 IT Projekt- & Produktmanagement | 65 Infrastruktur / Netzwerke / Telekom | 66 Softwareentwicklung | 67 Web Design',
	'11 Ingenieurwesen & Technik: 68 Architektur & Stadtplanung | 69 Automatisierungstechnik | 70 Bauingenieurwesen | 71 Biotechnologie | 72 Chemieingenieurwesen | 73 Elektrotechnik | 74 Energie- & Umwelttechnik | 75 Fahrzeugtechnik | 76 Informationstechnik | 77 Luft- & Raumfahrttechnik | 78 Maschinenbau | 79 Mechatronik | 80 Verfahrenstechnik | 81 Weitere Ingenieurwissenschaften | 82 Werkstofftechnik | 83 Technischer Vertrieb | 84 Entwicklung | 85 Konstruktion | 86 Produktion | 88 Qualität & Instandhaltung | 87 Logistik & Supply Chain',
	'12 Naturwissenschaften: 89 Biologie | 90 Mathematik | 91 Chemie | 92 Physik | 93 Forschung | 94 Energie & Rohstoffe | 102 Agrar | 103 Hotellier',
	'13 Design, Gestaltung & Medien: 96 Journalismus & Verlagswesen | 97 Film / Funk / Fernsehen | 95 Design / Gestaltung / Mode',
	'14 Gesundheit: 98 Medizin & Psychologie | 99 Pharma',
	'15 Öffentlicher Sektor: 100 Verwaltung',
	'16 Bildung & Soziales: 101 Bildung & Soziales',
];

/** Job types as "<id> <name_ger> / <name_eng>" (one name holds a slash itself: see JOB_TYPES). */
export const JOB_TYPE_TEXT =
	'1 Praktikant / Internship | 2 Werkstudent / Working student | 3 Trainee / Trainee | 7 Duales Studium / Dual studies | 4 Festanstellung / Permanent position | 8 Referendariat / Clerkship | 5 Bachelorarbeit (im Unternehmen) / Bachelor thesis (in company) | 6 Masterarbeit (im Unternehmen) / Master thesis (in company) | 14 Studentische Hilfskraft / Student Resarch Assistant | 15 Wissenschaftlicher Mitarbeiter / Doktorand / Research Assistant / PhD Student | 9 Teilzeit (befristet) / Part-Time (fixed term) | 10 Vollzeit (befristet) / Full-Time (fixed term)';

const UNIVERSITY_DEGREE_TEXT =
	'1 Bachelor of Arts | 2 Bachelor of Science | 3 Bachelor of Engineering | 4 Bachelor of Laws | 5 Bachelor of Education | 6 Bachelor of Music | 7 Bachelor of Fine Arts | 8 Bachelor of Musical Arts | 9 Master of Arts | 10 Master of Science | 11 Master of Engineering | 12 Master of Laws | 13 Master of Education | 14 Master of Music | 15 Master of Fine Arts | 16 Master of Musical Arts | 17 Magister Artium | 18 Magister Legum | 19 Erstes Staatsexamen | 20 Zweites Staatsexamen | 21 Promotion | 22 MBA | 23 Diplom | 24 Vollzeit';

const LANGUAGE_TEXT =
	'1 Afar | 2 Abkhaz | 3 Afrikaans | 4 Amharic | 5 Arabic | 6 Assamese | 7 Aymara | 8 Azerbaijani | 9 South Azerbaijani | 10 Bashkir | 11 Belarusian | 12 Bulgarian | 13 Bihari | 14 Bislama | 15 Bengali; Bangla | 16 Tibetan Standard, Tibetan, Central | 17 Breton | 18 Catalan; Valencian | 19 Corsican | 20 Czech | 21 Welsh | 22 Danish | 23 German | 24 Dzongkha | 25 Greek, Modern | 26 English | 27 Esperanto | 28 Spanish | 29 Estonian | 30 Basque | 31 Persian (Farsi) | 32 Finnish | 33 Fijian | 34 Faroese | 35 French | 36 Western Frisian | 37 Irish | 38 Scottish Gaelic; Gaelic | 39 Galician | 40 Guaraní | 41 Gujarati | 42 Hausa | 43 Hebrew (modern) | 44 Hindi | 45 Croatian | 46 Hungarian | 47 Armenian | 48 Interlingua | 49 Indonesian | 50 Interlingue | 51 Inupiaq | 52 Icelandic | 53 Italian | 54 Inuktitut | 55 Japanese | 56 Javanese | 57 Georgian | 58 Kazakh | 59 Kalaallisut, Greenlandic | 60 Khmer | 61 Kannada | 62 Korean | 63 Kashmiri | 64 Kurdish | 65 Kyrgyz | 66 Latin | 67 Lingala | 68 Lao | 69 Lithuanian | 70 Latvian | 71 Malagasy | 72 Māori | 73 Macedonian | 74 Malayalam | 75 Mongolian | 76 Marathi (Marāṭhī) | 77 Malay | 78 Maltese | 79 Burmese | 80 Nauru | 81 Nepali | 82 Dutch | 83 Norwegian | 84 Occitan | 85 Oromo | 86 Oriya | 87 Panjabi, Punjabi | 88 Polish | 89 Pashto, Pushto | 90 Portuguese | 91 Quechua | 92 Romansh | 93 Kirundi | 94 Romanian | 95 Russian | 96 Kinyarwanda | 97 Sanskrit (Saṁskṛta) | 98 Sindhi | 99 Sango | 100 Sinhala, Sinhalese | 101 Slovak | 102 Slovene | 103 Samoan | 104 Shona | 105 Somali | 106 Albanian | 107 Serbian | 108 Swati | 109 Southern Sotho | 110 Sundanese | 111 Swedish | 112 Swahili | 113 Tamil | 114 Telugu | 115 Tajik | 116 Thai | 117 Tigrinya | 118 Turkmen | 119 Tagalog | 120 Tswana | 121 Tonga (Tonga Islands) | 122 Turkish | 123 Tsonga | 124 Tatar | 125 Twi | 126 Uyghur, Uighur | 127 Ukrainian | 128 Urdu | 129 Uzbek | 130 Vietnamese | 131 Volapük | 132 Wolof | 133 Xhosa | 134 Yiddish | 135 Yoruba | 136 Zhuang, Chuang | 137 Chinese | 138 Zulu | 139 Luxemburgisch | 140 Kantonesisch';

export interface IdName {
	id: number;
	name: string;
}
export interface IdValue {
	id: number;
	value: string;
}
export interface Division extends IdName {
	area: IdName[];
}
export interface JobType {
	id: number;
	name_ger: string;
	name_eng: string;
}

/** "12 Some name" → [12, "Some name"] */
function idAndText(part: string): [number, string] {
	const match = /^(\d+) (.+)$/.exec(part.trim());
	if (!match) throw new Error(`spec.ts: cannot parse "${part}"`);
	return [Number(match[1]), match[2]];
}

const idValues = (text: string): IdValue[] =>
	text.split(' | ').map((part) => {
		const [id, value] = idAndText(part);
		return { id, value };
	});

/** Business areas (German, the default), in response order. */
export const BUSINESS_AREAS_DE: Division[] = BUSINESS_AREA_LINES.map((line) => {
	const colon = line.indexOf(': ');
	const [id, name] = idAndText(line.slice(0, colon));
	const area = line
		.slice(colon + 2)
		.split(' | ')
		.map((part) => {
			const [areaId, areaName] = idAndText(part);
			return { id: areaId, name: areaName };
		});
	return { id, name, area };
});

/**
 * Job types in response order. Each spec entry is "<name_ger> / <name_eng>"; entry 15 has a
 * slash in both names, so the split is at the middle " / " for it.
 */
export const JOB_TYPES: JobType[] = JOB_TYPE_TEXT.split(' | ').map((part) => {
	const [id, names] = idAndText(part);
	const pieces = names.split(' / ');
	const half = pieces.length / 2;
	if (!Number.isInteger(half)) throw new Error(`spec.ts: odd job type "${part}"`);
	return { id, name_ger: pieces.slice(0, half).join(' / '), name_eng: pieces.slice(half).join(' / ') };
});

/** University degrees (default language), in response order. */
export const UNIVERSITY_DEGREES_DE: IdValue[] = idValues(UNIVERSITY_DEGREE_TEXT);

const ALL_LANGUAGES: IdValue[] = idValues(LANGUAGE_TEXT);
export const LANGUAGE_FIRST_IDS = [23, 26, 35, 28, 66];

/** Language skills (default language) in response order: 23, 26, 35, 28, 66 first, then ascending ids. */
export const LANGUAGE_SKILLS_DE: IdValue[] = [
	...LANGUAGE_FIRST_IDS.map((id) => ALL_LANGUAGES.find((entry) => entry.id === id) as IdValue),
	...ALL_LANGUAGES.filter((entry) => !LANGUAGE_FIRST_IDS.includes(entry.id)).sort((a, b) => a.id - b.id),
];

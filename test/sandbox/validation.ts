/**
 * Request-body validation of the sandbox's candidate endpoints.
 * A failure is reported as the first problem found, in the form `<field>: <rule>`
 * (the service answers it as 422 `{message, status: 422}`).
 */
import { DateTime } from 'luxon';
import { z } from 'zod';

import { JOB_TYPE_IDS, LANGUAGE_IDS, UNIVERSITY_DEGREE_IDS } from './reference-data';

const DATE_SHAPE = /^\d{2}-\d{2}-\d{4}$/;
const DATE_ORDERS = ['dd-MM-yyyy', 'MM-dd-yyyy'] as const;
type DateOrder = (typeof DATE_ORDERS)[number];

function parseDate(value: string, order: DateOrder): DateTime | undefined {
	if (!DATE_SHAPE.test(value)) return undefined;
	const parsed = DateTime.fromFormat(value, order, { zone: 'utc' });
	return parsed.isValid ? parsed : undefined;
}

/** `NN-NN-NNNN` that is a real calendar date read as DD-MM-YYYY or as MM-DD-YYYY. */
export function isRecordDate(value: string): boolean {
	return DATE_ORDERS.some((order) => parseDate(value, order) !== undefined);
}

/** `DD-MM-YYYY` that is a real calendar date (birthdays are always day-month-year). */
export function isBirthday(value: string): boolean {
	return parseDate(value, 'dd-MM-yyyy') !== undefined;
}

/**
 * True when `end` lies before `start` under every reading (DD-MM-YYYY, MM-DD-YYYY) in which
 * both dates are valid; a pair that no single reading makes comparable is not rejected.
 */
export function isEndBeforeStart(start: string, end: string): boolean {
	let comparable = false;
	for (const order of DATE_ORDERS) {
		const startDate = parseDate(start, order);
		const endDate = parseDate(end, order);
		if (startDate === undefined || endDate === undefined) continue;
		comparable = true;
		if (endDate.toMillis() >= startDate.toMillis()) return false;
	}
	return comparable;
}

const RULE = {
	required: 'is required',
	string: 'must be a string',
	boolean: 'must be a boolean',
	positiveInteger: 'must be a positive integer',
	email: 'must be a valid e-mail address',
	recordDate: 'must be a valid date in the form DD-MM-YYYY or MM-DD-YYYY',
	birthday: 'must be a valid date in the form DD-MM-YYYY',
	skillLevel: 'must be an integer from 1 to 4',
	endBeforeStart: 'must not be before start_date',
	object: 'must be a JSON object',
} as const;

const emailFormat = z.string().email();
const isEmail = (value: string): boolean => emailFormat.safeParse(value).success;
const isBlank = (value: string | null | undefined): boolean =>
	value === undefined || value === null || value.trim() === '';

const text = () => z.string({ required_error: RULE.required, invalid_type_error: RULE.string });
const requiredText = () => text().refine((value) => value.trim() !== '', RULE.required);
const optionalText = () => text().nullish();
const optionalBoolean = () => z.boolean({ invalid_type_error: RULE.boolean }).nullish();
const positiveInteger = () =>
	z
		.number({ required_error: RULE.required, invalid_type_error: RULE.positiveInteger })
		.int(RULE.positiveInteger)
		.positive(RULE.positiveInteger);
const listId = (ids: ReadonlySet<number>, listName: string) =>
	positiveInteger().refine((id) => ids.has(id), `must be an id from the ${listName} list`);
const requiredDate = () => requiredText().refine(isRecordDate, RULE.recordDate);
const optionalDate = () =>
	text()
		.refine((value) => value === '' || isRecordDate(value), RULE.recordDate)
		.nullish();
const optionalEmail = () =>
	text()
		.refine((value) => value.trim() === '' || isEmail(value), RULE.email)
		.nullish();
const body = <T extends z.ZodRawShape>(shape: T) =>
	z.object(shape, { required_error: RULE.object, invalid_type_error: RULE.object });

function checkDateOrder(
	value: { start_date?: string | null; end_date?: string | null },
	ctx: z.RefinementCtx,
): void {
	const { start_date: start, end_date: end } = value;
	if (isBlank(start) || isBlank(end)) return;
	if (isEndBeforeStart(start as string, end as string)) {
		ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['end_date'], message: RULE.endBeforeStart });
	}
}

export const candidateCreateSchema = body({
	phone: optionalText(),
	email: optionalEmail(),
	source: optionalText(),
	employee: optionalBoolean(),
	company_id: positiveInteger().nullish(),
}).superRefine((value, ctx) => {
	if (isBlank(value.phone) && isBlank(value.email)) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['phone'],
			message: 'is required when email is missing',
		});
	}
});

export const candidateUpdateSchema = body({
	user_slug: requiredText(),
	email: optionalEmail(),
	first_name: optionalText(),
	last_name: optionalText(),
	city: optionalText(),
	street: optionalText(),
	zip_code: optionalText(),
	phone: optionalText(),
	birthday: text()
		.refine((value) => value === '' || isBirthday(value), RULE.birthday)
		.nullish(),
	whatsapp_preference: optionalBoolean(),
	sms_preference: optionalBoolean(),
	email_preference: optionalBoolean(),
});

export const jobSchema = body({
	user_slug: requiredText(),
	company_name: requiredText(),
	start_date: requiredDate(),
	end_date: optionalDate(),
	city_name: optionalText(),
	job_type_id: listId(JOB_TYPE_IDS, 'job types').nullish(),
	description: optionalText(),
	job_title: optionalText(),
	business_area_division: optionalText(),
	lang: optionalText(),
}).superRefine(checkDateOrder);

export const universitySchema = body({
	user_slug: requiredText(),
	start_date: requiredDate(),
	end_date: optionalDate(),
	university_name: optionalText(),
	study_name: optionalText(),
	university_degrees_id: listId(UNIVERSITY_DEGREE_IDS, 'university degrees').nullish(),
	description: optionalText(),
	grade: positiveInteger().nullish(),
	grading_systems_id: positiveInteger().nullish(),
}).superRefine(checkDateOrder);

export const itSkillSchema = body({
	user_slug: requiredText(),
	skill_name: requiredText(),
	skill_level_id: z
		.number({ required_error: RULE.required, invalid_type_error: RULE.skillLevel })
		.int(RULE.skillLevel)
		.min(1, RULE.skillLevel)
		.max(4, RULE.skillLevel),
});

export const languageSchema = body({
	user_slug: requiredText(),
	language_id: listId(LANGUAGE_IDS, 'language skills'),
	language_level_id: positiveInteger(),
});

export const additionalInfoSchema = body({
	user_slug: requiredText(),
	title: requiredText(),
	description: optionalText(),
	start_date: optionalDate(),
	end_date: optionalDate(),
}).superRefine(checkDateOrder);

/** The service's sub-record routes (the node's specs name the same paths). */
export const JOB_PATH = '/gin/v1/company/candidate/job';
export const UNIVERSITY_PATH = '/gin/v1/company/candidate/university';
export const IT_SKILL_PATH = '/gin/v1/company/candidate/it-skill';
export const LANGUAGE_PATH = '/gin/v1/company/candidate/language';
export const ADDITIONAL_INFO_PATH = '/gin/v1/company/candidate/additional-information';
export const SERVICE_RECORD_PATHS: readonly string[] = [JOB_PATH, UNIVERSITY_PATH, IT_SKILL_PATH, LANGUAGE_PATH, ADDITIONAL_INFO_PATH];

const present = () =>
	z.unknown().refine((value) => !(value === undefined || value === null || (typeof value === 'string' && value.trim() === '')), RULE.required);

/**
 * A sub-record the sandbox knows only from the node's spec (a record added to the node before
 * the sandbox learns the service's own rules for it): `user_slug` and the spec's required
 * fields must be given; every field the spec names is kept, any other is dropped.
 */
export function specRecordSchema(fields: ReadonlyArray<{ wire: string; required?: boolean }>) {
	const shape: z.ZodRawShape = { user_slug: requiredText() };
	for (const field of fields) shape[field.wire] = field.required ? present() : z.unknown();
	return body(shape) as unknown as z.ZodType<{ user_slug: string } & Record<string, unknown>, z.ZodTypeDef, unknown>;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Validates `input`; on failure returns the first problem as `<field>: <rule>`. */
export function validate<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, input: unknown): ValidationResult<T> {
	// no body at all = no fields (so the answer names the first missing field)
	const result = schema.safeParse(input ?? {});
	if (result.success) return { ok: true, value: result.data };
	const issue = result.error.issues[0];
	const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
	return { ok: false, message: `${field}: ${issue.message}` };
}

/** Drops `null`/`undefined` members (absent optional fields) from a validated body. */
export function compact<T extends object>(value: T): { [K in keyof T]?: NonNullable<T[K]> } {
	return Object.fromEntries(
		Object.entries(value).filter(([, member]) => member !== undefined && member !== null),
	) as { [K in keyof T]?: NonNullable<T[K]> };
}

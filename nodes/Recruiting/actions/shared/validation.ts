/**
 * Building blocks of the request-body schemas (zod): each operation declares one schema that
 * takes the raw parameter values of one item (keyed by wire field) and returns the wire body:
 * text trimmed, numbers as JSON integers, dates in the service's form, empty optional fields
 * left out. A failure names the field (as the user sees it) and the rule, fails only that item,
 * and happens before any request is sent.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { DateOrder } from './dates';
import { compareCalendarDates, inZone, normalizeDate } from './dates';
import type { ListLanguage } from '../../referenceData/lists';
import { languageCode } from '../../referenceData/lists';
import { parseIdOrName, quote, visibleText } from '../../referenceData/names';

export const RULES = {
	required: 'is required',
	text: 'must be text',
	email: 'must be a valid e-mail address',
	phone: 'must be a phone number: digits, with an optional leading +, spaces, brackets, dashes, / and ., and an optional extension (ext. 89)',
	boolean: 'must be true or false',
	positiveInteger: 'must be a positive integer',
	catalogueId: 'must be a whole number, 0 or more',
	integer: 'must be an integer',
	skillLevel: 'must be an integer from 1 to 4',
	endBeforeStart: 'must not be before the start date',
	language: 'must be "de" or "en"',
} as const;

/** Nothing given: undefined, null, or text of spaces only. */
export function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Every value a message quotes goes through the one `quote` (long values are cut). */
const show = quote;

type Field<T> = z.ZodType<T | undefined, z.ZodTypeDef, unknown>;

/**
 * A field: empty → undefined (or "is required"), otherwise `convert` returns the wire value or
 * a rule broken.
 */
function field<T>(required: boolean, convert: (value: unknown) => { value: T } | { rule: string }): Field<T> {
	return z.unknown().transform((value, ctx): T | undefined => {
		if (isEmpty(value)) {
			if (required) ctx.addIssue({ code: z.ZodIssueCode.custom, message: RULES.required });
			return undefined;
		}
		const result = convert(value);
		if ('rule' in result) {
			ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.rule });
			return z.NEVER;
		}
		return result.value;
	});
}

const asText = (value: unknown): { value: string } | { rule: string } =>
	typeof value === 'string'
		? { value: value.trim() }
		: typeof value === 'number' && Number.isFinite(value)
			? { value: String(value) }
			: { rule: `${RULES.text} (got ${show(value)})` };

/** Text (numbers become text, e.g. a zip code read from a spreadsheet as 10119 → "10119"). */
export const text = (required = false): Field<string> => field(required, asText);

/** A language the service's lists take: "de" or "en" (also in capitals, or named: "English", "Deutsch"). */
export const listLanguage = (required = false): Field<ListLanguage> =>
	field(required, (value) => {
		const code = languageCode(value);
		return code ? { value: code } : { rule: `${RULES.language} (got ${show(value)})` };
	});

/**
 * An e-mail address, internationalised ones included (RFC 6531/6532: `info@müller.de`,
 * `a@example.xn--p1ai`; zod 3's own check is ASCII-only): a local part without spaces, quotes,
 * brackets or a second @, no dot at its ends or twice in a row; a domain of at least two labels
 * of letters (any script), digits and inner hyphens; a top-level label of letters or an
 * ASCII-encoded (`xn--`) one. At most 254 characters.
 */
const EMAIL_FORMAT =
	/^(?!\.)(?!.*\.\.)[^\s@"(),:;<>[\]\\]{1,64}(?<!\.)@(?:[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?\.)+(?:[\p{L}\p{M}]{2,63}|xn--[a-z0-9-]{1,59})$/iu;

export const email = (required = false): Field<string> =>
	field(required, (value) => {
		const converted = asText(value);
		if ('rule' in converted) return converted;
		return converted.value.length <= 254 && EMAIL_FORMAT.test(converted.value)
			? converted
			: { rule: `${RULES.email} (got ${show(converted.value)})` };
	});

/**
 * A phone number as people write it: national or international, grouped with spaces (no-break
 * ones too), brackets, any dash (hyphen, non-breaking hyphen, en dash, minus), slashes or dots
 * (+49 30 1234567, (+49) 30 1234567, (030) 123-45, 0151/1234567). Invisible characters pasted
 * with it (zero-width spaces, direction marks) are dropped. It must have a digit, and no letter
 * but those of an extension at its end ("ext. 89", "x 89", "#89", "Durchwahl 89", "DW 89": the
 * description gives the field as a string). A number from a spreadsheet becomes text. Sent as
 * written (trimmed, invisible characters removed).
 */
const PHONE_FORMAT = /^[\s([]*\+?[\d\s()[\]./\p{Pd}\u2212]+(?:[,;]?\s*(?:ext\.?|extension|x|#|durchwahl|dw\.?)\s*\d{1,6})?$/iu;

export const phone = (required = false): Field<string> =>
	field(required, (value) => {
		const converted = asText(value);
		if ('rule' in converted) return converted;
		const written = visibleText(converted.value);
		return PHONE_FORMAT.test(written) && /\d/.test(written)
			? { value: written }
			: { rule: `${RULES.phone} (got ${show(converted.value)})` };
	});

const TRUE_TEXT = new Set(['true', 'yes', '1', 'on']);
const FALSE_TEXT = new Set(['false', 'no', '0', 'off']);

/** A boolean; "true"/"false", "yes"/"no" and 1/0 from expressions are read as booleans. */
export const boolean = (): Field<boolean> =>
	field(false, (value) => {
		if (typeof value === 'boolean') return { value };
		const key = String(value).trim().toLowerCase();
		if ((typeof value === 'string' || typeof value === 'number') && TRUE_TEXT.has(key)) return { value: true };
		if ((typeof value === 'string' || typeof value === 'number') && FALSE_TEXT.has(key)) return { value: false };
		return { rule: `${RULES.boolean} (got ${show(value)})` };
	});

function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return value;
	if (typeof value === 'string' && /^\s*[+-]?\d+(?:[.,]\d*)?\s*$/.test(value)) return Number(value.trim().replace(',', '.'));
	return undefined;
}

/** An integer within [min, max] (a number, or digits as text). */
export const integer = (
	options: { required?: boolean; min?: number; max?: number; rule?: string } = {},
): Field<number> =>
	field(options.required ?? false, (value) => {
		const number = toNumber(value);
		const ok =
			number !== undefined &&
			Number.isInteger(number) &&
			(options.min === undefined || number >= options.min) &&
			(options.max === undefined || number <= options.max);
		return ok ? { value: number } : { rule: `${options.rule ?? RULES.integer} (got ${show(value)})` };
	});

export const positiveInteger = (required = false): Field<number> =>
	integer({ required, min: 1, rule: RULES.positiveInteger });

/** An ID of a catalogue the service does not publish (language levels, grading systems): any whole number from 0, sent as it is. */
export const catalogueId = (required = false): Field<number> => integer({ required, min: 0, rule: RULES.catalogueId });

/**
 * A dropdown value: a positive integer ID (number, or digits as text) → the ID; any other text
 * → that name (trimmed), to be resolved against the reference list before sending.
 */
export const idOrName = (required = false): Field<number | string> =>
	field<number | string>(required, (value) => {
		const parsed = parseIdOrName(value);
		if (parsed.kind === 'id') return { value: parsed.id };
		if (parsed.kind === 'name') return { value: parsed.name };
		return { rule: parsed.reason };
	});

/** A date in any accepted form → `order` (e.g. DD-MM-YYYY). */
export const date = (order: DateOrder, required = false): Field<string> =>
	field(required, (value) => {
		const result = normalizeDate(value, order);
		return result.ok ? { value: result.text } : { rule: result.reason };
	});

/** Refinement of bodies with `start_date` / `end_date`: the end is not before the start. */
export function endNotBeforeStart(order: DateOrder) {
	return (body: { start_date?: string; end_date?: string }, ctx: z.RefinementCtx): void => {
		if (body.start_date === undefined || body.end_date === undefined) return;
		const start = normalizeDate(body.start_date, order);
		const end = normalizeDate(body.end_date, order);
		if (start.ok && end.ok && compareCalendarDates(end.date, start.date) < 0) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['end_date'],
				message: `${RULES.endBeforeStart} (start ${body.start_date}, end ${body.end_date})`,
			});
		}
	};
}

/**
 * A schema built once per date order (schemas hold no state, so one serves every item):
 * `perDateOrder((order) => z.object({ ... }))`.
 */
export function perDateOrder<S>(build: (order: DateOrder) => S): (order: DateOrder) => S {
	const built = new Map<DateOrder, S>();
	return (order) => {
		let schema = built.get(order);
		if (schema === undefined) {
			schema = build(order);
			built.set(order, schema);
		}
		return schema;
	};
}

/** Leaves out the fields that were not given. */
export function compact<T extends object>(value: T): IDataObject {
	return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as IDataObject;
}

/** An item's raw values checked against a body schema: the wire body, or every problem found. */
export type BodyCheck = { ok: true; body: IDataObject } | { ok: false; problems: string[] };

/**
 * Checks one item's raw values against `schema`: the wire body (empty fields left out), or the
 * problems, each naming the field (`labels`: wire field → the name the user sees) and the rule.
 * Date objects from expressions count in `zone`, the n8n instance's time zone (`inZone`).
 */
export function checkBody<T extends object>(
	schema: z.ZodType<T, z.ZodTypeDef, unknown>,
	input: IDataObject,
	labels: Record<string, string>,
	zone: string,
): BodyCheck {
	const result = schema.safeParse(inZone(input, zone));
	if (result.success) return { ok: true, body: compact(result.data) };
	const problems = result.error.issues.map((issue) => {
		const key = issue.path.length > 0 ? String(issue.path[0]) : '';
		const label = labels[key] ?? key;
		return label ? `"${label}" ${issue.message}` : issue.message;
	});
	return { ok: false, problems };
}

/** The rest of an item's problems after the first, as the description of its error. */
function otherProblems(problems: string[]): string | undefined {
	return problems.length > 1 ? `Also: ${problems.slice(1).join('; ')}` : undefined;
}

/** Every problem in one line: the first, then "Also: ..." the others. */
export function problemSummary(problems: string[]): string {
	const others = otherProblems(problems);
	return others ? `${problems[0]}. ${others}` : problems[0];
}

/**
 * Validates one item's raw values against `schema` and returns the wire body, or fails the
 * item with a NodeOperationError: the first problem, the others in its description.
 */
export function validateBody<T extends object>(
	context: IExecuteFunctions,
	itemIndex: number,
	schema: z.ZodType<T, z.ZodTypeDef, unknown>,
	input: IDataObject,
	labels: Record<string, string>,
): IDataObject {
	const checked = checkBody(schema, input, labels, context.getTimezone());
	if (checked.ok) return checked.body;
	throw new NodeOperationError(context.getNode(), checked.problems[0], {
		itemIndex,
		description: otherProblems(checked.problems),
	});
}

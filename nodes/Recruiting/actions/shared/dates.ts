/**
 * Dates as users give them (form fields, spreadsheet cells, expressions) → the hyphenated
 * day-month-year or month-day-year text the service takes. Pure: no n8n context, no time zone
 * of the machine involved. A date written as text is read as the calendar date it names (an ISO
 * date-time keeps the date as written, whatever its offset); a date object from an expression
 * (JavaScript Date, Luxon DateTime) is an instant, read as its calendar date in the n8n
 * instance's time zone (`inZone`, applied to an item's values before they are checked).
 */
import type { IDataObject } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { quote } from '../../referenceData/names';

/** Day/month order of a date sent to the service (`options.dateFormat`). */
export type DateOrder = 'DD-MM-YYYY' | 'MM-DD-YYYY';

export const DEFAULT_DATE_ORDER: DateOrder = 'DD-MM-YYYY';

/** The order of the birthday, whatever `options.dateFormat` says. */
export const BIRTHDAY_ORDER: DateOrder = 'DD-MM-YYYY';

export interface CalendarDate {
	year: number;
	month: number;
	day: number;
}

export type DateResult = { ok: true; date: CalendarDate; text: string } | { ok: false; reason: string };

/** The accepted forms, as named in error messages and field descriptions. */
export function acceptedDateForms(order: DateOrder): string {
	return `YYYY-MM-DD (e.g. 2024-03-05), an ISO date-time (e.g. 2024-03-05T14:30:00Z; its date is kept as written), DD.MM.YYYY (e.g. 05.03.2024), ${order} (e.g. ${order === 'DD-MM-YYYY' ? '05-03-2024' : '03-05-2024'}), or a date from an expression (Luxon DateTime or JavaScript Date)`;
}

export function isDateOrder(value: unknown): value is DateOrder {
	return value === 'DD-MM-YYYY' || value === 'MM-DD-YYYY';
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DOTTED = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const HYPHENATED = /^(\d{1,2})-(\d{1,2})-(\d{4})$/;
/** How n8n writes a DateTime or Date that ended up inside text: `[DateTime: 2024-03-05T00:00:00.000+01:00]`. */
const N8N_OBJECT_TEXT = /^\[(?:DateTime|Date): (.+)\]$/;

function pad(value: number, length = 2): string {
	return String(value).padStart(length, '0');
}

/** Writes a calendar date in the given order, e.g. 05-03-2024 for 5 March 2024 in DD-MM-YYYY. */
export function formatCalendarDate(date: CalendarDate, order: DateOrder): string {
	const first = order === 'DD-MM-YYYY' ? date.day : date.month;
	const second = order === 'DD-MM-YYYY' ? date.month : date.day;
	return `${pad(first)}-${pad(second)}-${pad(date.year, 4)}`;
}

/** A real calendar date (no 31 February, no month 13), or undefined. */
export function calendarDate(year: number, month: number, day: number): CalendarDate | undefined {
	if (year < 1 || year > 9999) return undefined;
	const parsed = DateTime.fromObject({ year, month, day }, { zone: 'utc' });
	return parsed.isValid ? { year, month, day } : undefined;
}

function describeValue(value: unknown): string {
	if (isJsDate(value)) return 'an invalid JavaScript Date';
	if (DateTime.isDateTime(value)) return 'an invalid Luxon DateTime';
	return quote(value);
}

function isJsDate(value: unknown): value is Date {
	return Object.prototype.toString.call(value) === '[object Date]';
}

/**
 * A date object as a DateTime in `zone`, or undefined for anything else (and invalid dates).
 * (n8n-core hands a parameter's Luxon DateTime to the node as its ISO text, in the DateTime's
 * own zone, which for `$now`, `$today` and `DateTime.fromISO(…)` in an expression is the
 * instance's zone; a JavaScript Date arrives as an object.)
 */
function dateObjectInZone(value: unknown, zone: string): DateTime | undefined {
	if (DateTime.isDateTime(value)) return value.isValid ? value.setZone(zone) : undefined;
	if (isJsDate(value)) return Number.isNaN(value.getTime()) ? undefined : DateTime.fromJSDate(value, { zone });
	return undefined;
}

/**
 * An item's values with every date object (JavaScript Date, Luxon DateTime) as a Luxon DateTime
 * in `zone`, the n8n instance's time zone (`getTimezone()`): `new Date(2024, 2, 5)` written in an
 * expression on an instance in Europe/Berlin is 5 March there, though 4 March in UTC. Other
 * values (text included) are left as they are. A new object; `values` is not changed.
 */
export function inZone(values: IDataObject, zone: string): IDataObject {
	let zoned: IDataObject | undefined;
	for (const [key, value] of Object.entries(values)) {
		const moved = dateObjectInZone(value, zone);
		if (moved === undefined) continue;
		zoned ??= { ...values };
		zoned[key] = moved as unknown as IDataObject[string];
	}
	return zoned ?? values;
}

function fromText(text: string, order: DateOrder): CalendarDate | 'impossible' | undefined {
	const check = (year: string, month: string, day: string) =>
		calendarDate(Number(year), Number(month), Number(day)) ?? 'impossible';

	let match = ISO_DATE.exec(text) ?? ISO_DATE_TIME.exec(text);
	if (match) {
		if (match.length > 4) {
			// A date-time: the time must be a real time too, but its offset never moves the date.
			const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
			if (hour > 23 || minute > 59 || second > 59) return 'impossible';
		}
		return check(match[1], match[2], match[3]);
	}
	match = DOTTED.exec(text);
	if (match) return check(match[3], match[2], match[1]);
	match = HYPHENATED.exec(text);
	if (match) {
		return order === 'DD-MM-YYYY' ? check(match[3], match[2], match[1]) : check(match[3], match[1], match[2]);
	}
	return undefined;
}

/**
 * Reads a date given in any accepted form and writes it in `order`.
 * Empty values are not dates: callers decide whether the field may be left out.
 */
export function normalizeDate(value: unknown, order: DateOrder): DateResult {
	const done = (date: CalendarDate): DateResult => ({ ok: true, date, text: formatCalendarDate(date, order) });
	const fail = (why: string): DateResult => ({
		ok: false,
		reason: `${why}. Accepted forms: ${acceptedDateForms(order)}`,
	});

	if (DateTime.isDateTime(value)) {
		if (!value.isValid) return fail(`is ${describeValue(value)} (${value.invalidReason ?? 'invalid'})`);
		// Its calendar date in its own zone (`inZone` puts it in the instance's zone first).
		return done({ year: value.year, month: value.month, day: value.day });
	}
	if (isJsDate(value)) {
		if (Number.isNaN(value.getTime())) return fail(`is ${describeValue(value)}`);
		// An instant not put in a zone by `inZone`: its UTC date, as in its ISO text.
		return done({ year: value.getUTCFullYear(), month: value.getUTCMonth() + 1, day: value.getUTCDate() });
	}
	if (typeof value !== 'string') {
		return fail(`${describeValue(value)} is not a date`);
	}
	let text = value.trim();
	const wrapped = N8N_OBJECT_TEXT.exec(text);
	if (wrapped) text = wrapped[1].trim();
	const parsed = fromText(text, order);
	if (parsed === 'impossible') return fail(`${quote(value)} is not a real calendar date`);
	if (!parsed) return fail(`${quote(value)} is not in an accepted date form`);
	return done(parsed);
}

/** Compares two calendar dates: negative when `a` is before `b`. */
export function compareCalendarDates(a: CalendarDate, b: CalendarDate): number {
	return a.year - b.year || a.month - b.month || a.day - b.day;
}

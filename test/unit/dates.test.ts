/** The date helpers on their own: every accepted form, the rejected ones, both orders. */
import { DateTime } from 'luxon';

import {
	acceptedDateForms,
	calendarDate,
	compareCalendarDates,
	formatCalendarDate,
	normalizeDate,
} from '../../nodes/Recruiting/actions/common/dates';

const text = (value: unknown, order: 'DD-MM-YYYY' | 'MM-DD-YYYY' = 'DD-MM-YYYY') => {
	const result = normalizeDate(value, order);
	return result.ok ? result.text : `error: ${result.reason}`;
};

describe('normalizeDate', () => {
	it.each([
		['2024-03-05', '05-03-2024', '03-05-2024'],
		['  2024-03-05 ', '05-03-2024', '03-05-2024'],
		['2024-03-05T00:00:00', '05-03-2024', '03-05-2024'],
		['2024-03-05T23:59:59Z', '05-03-2024', '03-05-2024'],
		['2024-03-05T00:30:00+02:00', '05-03-2024', '03-05-2024'],
		['2024-03-05T23:30:00.123-08:00', '05-03-2024', '03-05-2024'],
		['2024-03-05 10:15', '05-03-2024', '03-05-2024'],
		['2024-03-05T10:15:00+0530', '05-03-2024', '03-05-2024'],
		['05.03.2024', '05-03-2024', '03-05-2024'],
		['5.3.2024', '05-03-2024', '03-05-2024'],
		['[DateTime: 2024-03-05T00:00:00.000+01:00]', '05-03-2024', '03-05-2024'],
		['29.02.2024', '29-02-2024', '02-29-2024'],
	])('%j → %s (day first) / %s (month first)', (value, dayFirst, monthFirst) => {
		expect(text(value, 'DD-MM-YYYY')).toBe(dayFirst);
		expect(text(value, 'MM-DD-YYYY')).toBe(monthFirst);
	});

	it('takes a value already in the target order as it is, in each order', () => {
		expect(text('05-03-2024', 'DD-MM-YYYY')).toBe('05-03-2024');
		expect(text('03-05-2024', 'MM-DD-YYYY')).toBe('03-05-2024');
		expect(text('5-3-2024', 'DD-MM-YYYY')).toBe('05-03-2024');
		expect(text('12-31-2024', 'MM-DD-YYYY')).toBe('12-31-2024');
	});

	it('reads a Luxon DateTime by its own calendar date, whatever its zone', () => {
		expect(text(DateTime.fromISO('2024-03-05'))).toBe('05-03-2024');
		expect(text(DateTime.fromISO('2024-03-05T23:30:00', { zone: 'Pacific/Kiritimati' }))).toBe('05-03-2024');
		expect(text(DateTime.fromISO('2024-03-05T00:10:00', { zone: 'America/Los_Angeles' }), 'MM-DD-YYYY')).toBe('03-05-2024');
	});

	it('reads a JavaScript Date by its UTC date (as its ISO text shows it)', () => {
		expect(text(new Date(Date.UTC(2024, 2, 5)))).toBe('05-03-2024');
		expect(text(new Date('2024-03-05T23:59:59.000Z'))).toBe('05-03-2024');
	});

	it.each([
		['31.02.2024', 'is not a real calendar date'],
		['29.02.2023', 'is not a real calendar date'],
		['2024-13-01', 'is not a real calendar date'],
		['2024-00-10', 'is not a real calendar date'],
		['2024-03-05T24:00:00Z', 'is not a real calendar date'],
		['2024-03-05T10:61:00Z', 'is not a real calendar date'],
		['13-25-2024', 'is not a real calendar date'],
		['0000-01-01', 'is not a real calendar date'],
		['05/03/2024', 'is not in an accepted date form'],
		['2024/03/05', 'is not in an accepted date form'],
		['05.03.24', 'is not in an accepted date form'],
		['March 5, 2024', 'is not in an accepted date form'],
		['20240305', 'is not in an accepted date form'],
		['', 'is not in an accepted date form'],
	])('rejects %j: %s, and names the accepted forms', (value, reason) => {
		const result = normalizeDate(value, 'DD-MM-YYYY');
		expect(result.ok).toBe(false);
		if (result.ok) return;
		expect(result.reason).toContain(`"${value}" ${reason}`);
		expect(result.reason).toContain(`Accepted forms: ${acceptedDateForms('DD-MM-YYYY')}`);
	});

	it('a day-first value is not a month-first one: 25-03-2024 fails in MM-DD-YYYY', () => {
		expect(text('25-03-2024', 'MM-DD-YYYY')).toContain('is not a real calendar date');
	});

	it.each([[45356], [true], [{}], [null], [DateTime.invalid('test')], [new Date('nope')]])('rejects %p', (value) => {
		expect(normalizeDate(value, 'DD-MM-YYYY').ok).toBe(false);
	});
});

describe('calendar helpers', () => {
	it('formats in both orders with zero padding', () => {
		expect(formatCalendarDate({ year: 987, month: 1, day: 2 }, 'DD-MM-YYYY')).toBe('02-01-0987');
		expect(formatCalendarDate({ year: 2024, month: 12, day: 31 }, 'MM-DD-YYYY')).toBe('12-31-2024');
	});

	it('knows real dates', () => {
		expect(calendarDate(2024, 2, 29)).toEqual({ year: 2024, month: 2, day: 29 });
		expect(calendarDate(2100, 2, 29)).toBeUndefined();
		expect(calendarDate(2024, 4, 31)).toBeUndefined();
	});

	it('compares calendar dates', () => {
		expect(compareCalendarDates({ year: 2024, month: 3, day: 5 }, { year: 2024, month: 3, day: 6 })).toBeLessThan(0);
		expect(compareCalendarDates({ year: 2025, month: 1, day: 1 }, { year: 2024, month: 12, day: 31 })).toBeGreaterThan(0);
		expect(compareCalendarDates({ year: 2024, month: 3, day: 5 }, { year: 2024, month: 3, day: 5 })).toBe(0);
	});
});

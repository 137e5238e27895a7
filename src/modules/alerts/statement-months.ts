import { lagosDay, lagosDayStart } from '../../shared/lagos-time.ts';

/**
 * Calendar months as a customer in Lagos counts them (UTC+01:00 all year): `2026-03-01` is March
 * 2026, from 2026-02-28T23:00:00Z to 2026-03-31T22:59:59.999Z. A month is written as its first
 * day, as the database's `date` column holds it.
 */
export type StatementMonth = string;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The Lagos month an instant falls in. */
export function lagosMonthOf(date: Date): StatementMonth {
  return `${lagosDay(date).slice(0, 7)}-01`;
}

/** The month `count` months after (or before, negative) `month`. */
export function addMonths(month: StatementMonth, count: number): StatementMonth {
  const year = Number(month.slice(0, 4));
  const index = year * 12 + Number(month.slice(5, 7)) - 1 + count;
  const y = Math.floor(index / 12);
  return `${String(y).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/** The month's first and last instants in Lagos (the statement's fromDate and toDate). */
export function monthRange(month: StatementMonth): { from: Date; to: Date } {
  const from = lagosDayStart(month);
  const to = new Date(lagosDayStart(addMonths(month, 1)).getTime() - 1);
  return { from, to };
}

/** `March 2026`. */
export function monthName(month: StatementMonth): string {
  return `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
}

/**
 * The months whose statements are due at `now`, oldest first: the month that ended last, and
 * the ones before it that no run has started yet (after `latestStarted`), at most `catchUp` in
 * all. With no run ever (a new bank), only the month that ended last: a bank does not send its
 * customers the statements of months before it sent any.
 */
export function dueMonths(
  now: Date,
  latestStarted: StatementMonth | undefined,
  catchUp: number,
): StatementMonth[] {
  const last = addMonths(lagosMonthOf(now), -1);
  const earliest = addMonths(last, 1 - catchUp);
  let first = latestStarted === undefined ? last : addMonths(latestStarted, 1);
  if (first < earliest) {
    first = earliest;
  }
  const months: StatementMonth[] = [];
  for (let month = first; month <= last; month = addMonths(month, 1)) {
    months.push(month);
  }
  return months;
}

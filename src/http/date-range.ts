import { AppError } from '../errors/app-error.ts';
import { lagosDayStart } from '../shared/lagos-time.ts';

export interface DateRange {
  readonly from: Date | undefined;
  readonly to: Date | undefined;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** Whose calendar a date without a time names: UTC's (the JSON lists) or Lagos's (documents). */
export type CalendarDays = 'UTC' | 'Africa/Lagos';

/**
 * A calendar date as `fromDate` means the start of that day (UTC's, or Lagos's for a
 * statement document); as `toDate`, the end of it (inclusive), so fromDate=toDate=2025-03-03
 * covers that whole day.
 */
export function parseDateRange(
  fromDate?: string,
  toDate?: string,
  days: CalendarDays = 'UTC',
): DateRange {
  const from = fromDate === undefined ? undefined : parseDate('fromDate', fromDate, false, days);
  const to = toDate === undefined ? undefined : parseDate('toDate', toDate, true, days);
  if (from !== undefined && to !== undefined && from > to) {
    throw new AppError('INVALID_DATE_RANGE');
  }
  return { from, to };
}

function parseDate(field: string, value: string, endOfDay: boolean, days: CalendarDays): Date {
  const dateOnly = DATE_ONLY.test(value);
  const date =
    dateOnly && days === 'Africa/Lagos'
      ? lagosDayStart(value)
      : new Date(dateOnly ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime())) {
    throw new AppError('VALIDATION_ERROR', `${field} is not a valid date`, {
      details: [{ field, message: 'is not a valid date' }],
    });
  }
  return dateOnly && endOfDay ? new Date(date.getTime() + DAY_MS - 1) : date;
}

import { AppError } from '../errors/app-error.ts';

export interface DateRange {
  readonly from: Date | undefined;
  readonly to: Date | undefined;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * A calendar date as `fromDate` means the start of that UTC day; as `toDate`, the end of it
 * (inclusive), so fromDate=toDate=2025-03-03 covers that whole day.
 */
export function parseDateRange(fromDate?: string, toDate?: string): DateRange {
  const from = fromDate === undefined ? undefined : parseDate('fromDate', fromDate, false);
  const to = toDate === undefined ? undefined : parseDate('toDate', toDate, true);
  if (from !== undefined && to !== undefined && from > to) {
    throw new AppError('INVALID_DATE_RANGE');
  }
  return { from, to };
}

function parseDate(field: string, value: string, endOfDay: boolean): Date {
  const date = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime())) {
    throw new AppError('VALIDATION_ERROR', `${field} is not a valid date`, {
      details: [{ field, message: 'is not a valid date' }],
    });
  }
  return DATE_ONLY.test(value) && endOfDay ? new Date(date.getTime() + DAY_MS - 1) : date;
}

import { AppError } from '../errors/app-error.ts';
import { type Kobo, parseNaira } from '../shared/money.ts';

const REASONS = {
  not_a_number: 'amount must be a number of naira',
  too_many_decimals: 'amount must have at most two decimals',
  not_positive: 'amount must be greater than zero',
  too_large: 'amount is above the maximum allowed',
} as const;

/** A wire amount (naira) to kobo, or a 400 naming the field. */
export function parseAmount(value: unknown, maxKobo: Kobo, field = 'amount'): Kobo {
  const parsed = parseNaira(value, maxKobo);
  if (parsed.ok) {
    return parsed.kobo;
  }
  const message = REASONS[parsed.reason].replace('amount', field);
  throw new AppError('INVALID_AMOUNT', message, { details: [{ field, message }] });
}

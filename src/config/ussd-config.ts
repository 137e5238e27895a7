import { type EnvReader, readEnvInt, readEnvNaira } from './env-reader.ts';

export interface UssdConfig {
  /** How long a reference can be paid after it is created. */
  readonly referenceValidForSeconds: number;
  /** The collection fee: a share of each accepted payment (basis points), at most the cap. */
  readonly feeBasisPoints: bigint;
  readonly feeCapKobo: bigint;
  /**
   * Delays between status queries of an unpaid reference (the last repeats), for a payment
   * whose notice never arrived; they stop this long after the reference expires.
   */
  readonly statusQueryScheduleSeconds: readonly number[];
  readonly statusQueryGraceSeconds: number;
}

export function readUssdConfig(
  read: EnvReader,
  readSchedule: (name: string, fallback: readonly number[]) => readonly number[],
): UssdConfig {
  return Object.freeze({
    referenceValidForSeconds: readEnvInt(read, 'USSD_REFERENCE_VALID_FOR_SECONDS', {
      fallback: 900,
      min: 60,
      max: 7 * 86_400,
    }),
    feeBasisPoints: BigInt(
      readEnvInt(read, 'USSD_FEE_BASIS_POINTS', { fallback: 50, min: 0, max: 10_000 }),
    ),
    feeCapKobo: readEnvNaira(read, 'USSD_FEE_CAP_NAIRA', { fallback: '300' }),
    statusQueryScheduleSeconds: readSchedule(
      'USSD_STATUS_QUERY_SCHEDULE_SECONDS',
      [60, 120, 300, 600],
    ),
    statusQueryGraceSeconds: readEnvInt(read, 'USSD_STATUS_QUERY_GRACE_SECONDS', {
      fallback: 3600,
      min: 0,
      max: 7 * 86_400,
    }),
  });
}

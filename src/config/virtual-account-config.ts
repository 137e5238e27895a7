import { type EnvReader, readEnvInt, readEnvNaira } from './env-reader.ts';

export interface VirtualAccountConfig {
  /** The window a virtual account takes payments for when the request names none. */
  readonly defaultValidForSeconds: number;
  readonly minValidForSeconds: number;
  readonly maxValidForSeconds: number;
  /** The collection fee: a share of each accepted payment (basis points), at most the cap. */
  readonly feeBasisPoints: bigint;
  readonly feeCapKobo: bigint;
}

export function readVirtualAccountConfig(read: EnvReader): VirtualAccountConfig {
  const minValidForSeconds = readEnvInt(read, 'VIRTUAL_ACCOUNT_MIN_VALID_FOR_SECONDS', {
    fallback: 60,
    min: 1,
    max: 86_400,
  });
  const maxValidForSeconds = readEnvInt(read, 'VIRTUAL_ACCOUNT_MAX_VALID_FOR_SECONDS', {
    fallback: 7 * 86_400,
    min: minValidForSeconds,
    max: 365 * 86_400,
  });
  return Object.freeze({
    defaultValidForSeconds: readEnvInt(read, 'VIRTUAL_ACCOUNT_DEFAULT_VALID_FOR_SECONDS', {
      fallback: 900,
      min: minValidForSeconds,
      max: maxValidForSeconds,
    }),
    minValidForSeconds,
    maxValidForSeconds,
    feeBasisPoints: BigInt(
      readEnvInt(read, 'VIRTUAL_ACCOUNT_FEE_BASIS_POINTS', { fallback: 50, min: 0, max: 10_000 }),
    ),
    feeCapKobo: readEnvNaira(read, 'VIRTUAL_ACCOUNT_FEE_CAP_NAIRA', { fallback: '300' }),
  });
}

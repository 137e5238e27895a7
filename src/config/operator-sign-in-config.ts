import { type EnvReader, readEnvInt } from './env-reader.ts';

/**
 * Local operators' sign-in (docs/operators.md, "Local operators: password and second factor"):
 * how many wrong passwords or codes lock an operator out and for how long, how long a setup link
 * lives, and the cost of the password hash.
 */
export interface LocalSignInConfig {
  /** Consecutive failed sign-ins that lock the operator (OPERATOR_LOCKOUT_FAILURES). */
  readonly lockoutFailures: number;
  /** How long the lock holds (OPERATOR_LOCKOUT_SECONDS); another admin may lift it sooner. */
  readonly lockoutSeconds: number;
  /** How long a setup link may wait to be opened (OPERATOR_SETUP_LINK_TTL_SECONDS). */
  readonly setupLinkTtlSeconds: number;
  /**
   * scrypt's cost as log2 N (OPERATOR_PASSWORD_SCRYPT_LOG2N): 17 is OWASP's minimum (128 MiB,
   * about 0.4 s a hash). Hashes carry their own parameters, so raising it leaves existing
   * passwords valid; the tests lower it to spare the machine.
   */
  readonly passwordLog2N: number;
}

export function readLocalSignInConfig(read: EnvReader): LocalSignInConfig {
  return Object.freeze({
    lockoutFailures: readEnvInt(read, 'OPERATOR_LOCKOUT_FAILURES', {
      fallback: 5,
      min: 1,
      max: 100,
    }),
    lockoutSeconds: readEnvInt(read, 'OPERATOR_LOCKOUT_SECONDS', {
      fallback: 900,
      min: 1,
      max: 86_400,
    }),
    setupLinkTtlSeconds: readEnvInt(read, 'OPERATOR_SETUP_LINK_TTL_SECONDS', {
      fallback: 86_400,
      min: 300,
      max: 7 * 86_400,
    }),
    passwordLog2N: readEnvInt(read, 'OPERATOR_PASSWORD_SCRYPT_LOG2N', {
      fallback: 17,
      min: 14,
      max: 20,
    }),
  });
}

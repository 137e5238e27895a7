import { createSecretKey, type KeyObject } from 'node:crypto';
import { type EnvReader, readEnvInt, readEnvString } from './env-reader.ts';

/**
 * Local operators' sign-in (docs/operators.md, "Local operators: password and second factor"):
 * how many wrong passwords or codes lock an operator out and for how long, how long a setup link
 * lives, the cost of the password hash, and the keys that encrypt the second factor at rest.
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
  /**
   * The keys that encrypt operators' TOTP secrets at rest (OPERATOR_SECRETS_KEY): the first
   * encrypts, every one decrypts. Required in production; undefined in a sandbox that sets none
   * (the sandbox then derives one, src/auth/operator-secret-box.ts).
   */
  readonly secretsKeys: readonly OperatorSecretsKey[] | undefined;
}

/** One key of OPERATOR_SECRETS_KEY, named by the id stored beside what it encrypted. */
export interface OperatorSecretsKey {
  readonly id: string;
  /** A KeyObject, not bytes: neither a log line nor JSON of the configuration shows it. */
  readonly key: KeyObject;
}

export function readLocalSignInConfig(read: EnvReader, production: boolean): LocalSignInConfig {
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
    secretsKeys: readSecretsKeys(read, production),
  });
}

const SECRETS_KEY = 'OPERATOR_SECRETS_KEY';
/** A bare key (no `id:` before it) is named so. */
const BARE_KEY_ID = 'main';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * OPERATOR_SECRETS_KEY: `<key>` or `<id>:<key>[,<id>:<key>...]`, each key 32 bytes in base64,
 * base64url or hex. A problem names the key's id, never the key.
 */
function readSecretsKeys(
  read: EnvReader,
  production: boolean,
): readonly OperatorSecretsKey[] | undefined {
  const raw = readEnvString(read, SECRETS_KEY, {});
  if (raw === undefined) {
    if (production) {
      read.problems.push(
        `${SECRETS_KEY} is required in production: 32 random bytes in base64 or hex (openssl rand -base64 32), the key that encrypts local operators' TOTP secrets at rest`,
      );
    }
    return undefined;
  }
  const keys: OperatorSecretsKey[] = [];
  for (const entry of raw.split(',').map((item) => item.trim())) {
    const at = entry.indexOf(':');
    const id = at < 0 ? BARE_KEY_ID : entry.slice(0, at).trim();
    const key = keyBytes(at < 0 ? entry : entry.slice(at + 1).trim());
    if (!KEY_ID.test(id) || keys.some((known) => known.id === id)) {
      read.problems.push(
        `${SECRETS_KEY}: each key needs its own id (letters, digits, - or _; at most 32), as "id:key,id:key"`,
      );
    } else if (key === undefined) {
      read.problems.push(`${SECRETS_KEY}: key "${id}" must be 32 bytes in base64 or hex`);
    } else {
      keys.push({ id, key: createSecretKey(key) });
    }
  }
  return Object.freeze(keys);
}

function keyBytes(text: string): Buffer | undefined {
  const bytes = HEX_KEY.test(text)
    ? Buffer.from(text, 'hex')
    : BASE64_KEY.test(text)
      ? Buffer.from(text.replaceAll('-', '+').replaceAll('_', '/'), 'base64')
      : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

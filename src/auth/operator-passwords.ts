import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Local operators' passwords (docs/operators.md, "Local operators: password and second
 * factor"): scrypt, the memory-hard function OWASP lists beside argon2id, from node:crypto so
 * no native package is needed. A hash is stored as `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`
 * (base64url), so it carries its own parameters: raising the cost later leaves every stored
 * password valid.
 */

const SCHEME = 'scrypt';
const SALT_BYTES = 16;
const HASH_BYTES = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
/** The bounds a stored hash's parameters must fall within: a tampered row cannot ask for more. */
const LOG2N_RANGE = { min: 14, max: 20 } as const;

export const PASSWORD_MIN_LENGTH = 12;
/** scrypt takes any length; the bound keeps a sign-in form from carrying megabytes. */
export const PASSWORD_MAX_LENGTH = 256;

interface ScryptParameters {
  readonly log2N: number;
  readonly r: number;
  readonly p: number;
}

function derive(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const N = 2 ** parameters.log2N;
  const options: ScryptOptions = {
    N,
    r: parameters.r,
    p: parameters.p,
    // Node refuses more than 32 MiB by default; scrypt needs 128 * N * r bytes, and a little more.
    maxmem: 128 * N * parameters.r * 2,
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, HASH_BYTES, options, (error, key) =>
      error === null ? resolve(key) : reject(error),
    );
  });
}

/** The stored form of a new password, with a fresh salt. */
export async function hashPassword(password: string, log2N: number): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const parameters = { log2N, r: BLOCK_SIZE, p: PARALLELISM };
  const hash = await derive(password, salt, parameters);
  return [
    SCHEME,
    log2N,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString('base64url'),
    hash.toString('base64url'),
  ].join('$');
}

/** Whether the password is the one a stored hash was made from (compared in constant time). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (parsed === undefined) {
    return false;
  }
  const candidate = await derive(password, parsed.salt, parsed.parameters);
  return candidate.length === parsed.hash.length && timingSafeEqual(candidate, parsed.hash);
}

/**
 * A hash of no password, to verify against when the email names nobody: an unknown address
 * costs as long as a known one, so the time of an answer does not say which addresses exist.
 */
export async function dummyPasswordHash(log2N: number): Promise<string> {
  return hashPassword(randomBytes(16).toString('base64url'), log2N);
}

function parseStored(
  stored: string,
): { parameters: ScryptParameters; salt: Buffer; hash: Buffer } | undefined {
  const [scheme, log2N, r, p, salt, hash, ...rest] = stored.split('$');
  const parameters = { log2N: Number(log2N), r: Number(r), p: Number(p) };
  const sane =
    scheme === SCHEME &&
    rest.length === 0 &&
    Number.isInteger(parameters.log2N) &&
    parameters.log2N >= LOG2N_RANGE.min &&
    parameters.log2N <= LOG2N_RANGE.max &&
    parameters.r === BLOCK_SIZE &&
    parameters.p === PARALLELISM &&
    salt !== undefined &&
    hash !== undefined;
  if (!sane) {
    return undefined;
  }
  const hashBytes = Buffer.from(hash, 'base64url');
  return hashBytes.length === HASH_BYTES
    ? { parameters, salt: Buffer.from(salt, 'base64url'), hash: hashBytes }
    : undefined;
}

/**
 * What is wrong with a new password, or undefined when it may be used. The policy follows
 * NIST SP 800-63B: length over composition rules (at least 12 characters, at most 256, any
 * characters, spaces included), and not the operator's own email address or its name part.
 */
export function passwordProblem(password: string, email: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return `Choose a password of at least ${PASSWORD_MIN_LENGTH} characters.`;
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return `Choose a password of at most ${PASSWORD_MAX_LENGTH} characters.`;
  }
  const lowered = password.trim().toLowerCase();
  const address = email.trim().toLowerCase();
  const name = address.split('@')[0] ?? address;
  if (lowered === address || lowered === name) {
    return 'Your password must not be your email address.';
  }
  return undefined;
}

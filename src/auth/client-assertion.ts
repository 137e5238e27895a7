import type { KeyObject } from 'node:crypto';
import { errors, type JWTPayload, jwtVerify } from 'jose';
import { AppError } from '../errors/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import type { AppKeyRecord } from './oauth-app-repository.ts';
import { parsePublicKey } from './public-keys.ts';

export interface AssertionPolicy {
  readonly audiences: readonly string[];
  readonly minRsaKeyBits: number;
  readonly clock: Clock;
  /** The longest lifetime an assertion may have: `exp - iat`, or `exp - now` without `iat`. */
  readonly maxLifetimeSeconds: number;
}

/** The clock skew allowed on `exp`, `nbf` and `iat`. */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Verifies an RFC 7523 client assertion against the app's registered keys. Only RS256 and ES256
 * are accepted, so `alg: none` and HMAC tricks (HS256 keyed with the public key) fail here.
 */
export async function verifyClientAssertion(
  assertion: string,
  oauthClientId: string,
  keys: readonly AppKeyRecord[],
  policy: AssertionPolicy,
): Promise<JWTPayload> {
  let lastError: unknown = new errors.JWSSignatureVerificationFailed();
  for (const key of keys) {
    try {
      const { payload } = await jwtVerify(assertion, importKey(key, policy.minRsaKeyBits), {
        algorithms: [key.algorithm],
        audience: [...policy.audiences],
        subject: oauthClientId,
        requiredClaims: ['exp', 'sub', 'aud'],
        currentDate: policy.clock.now(),
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      checkLifetime(payload, policy);
      return payload;
    } catch (error) {
      if (!(error instanceof errors.JOSEError)) {
        throw error;
      }
      lastError = error;
      // Another registered key may still verify the signature; claim errors are final.
      if (!(error instanceof errors.JWSSignatureVerificationFailed)) {
        break;
      }
    }
  }
  throw new AppError('OAUTH_INVALID_CLIENT', describe(lastError), { cause: lastError });
}

/**
 * jose checks `exp` and `nbf`, but not an `iat` in the future nor how long the assertion lives: a
 * signed assertion valid for days is a long-lived credential, so its lifetime is capped.
 */
function checkLifetime(payload: JWTPayload, policy: AssertionPolicy): void {
  const now = Math.floor(policy.clock.now().getTime() / 1000);
  const { iat, exp } = payload;
  if (typeof iat === 'number' && iat > now + CLOCK_TOLERANCE_SECONDS) {
    throw new AppError(
      'OAUTH_INVALID_CLIENT',
      'The client assertion was issued in the future (iat).',
    );
  }
  // Without iat the lifetime counts from now; the tolerance covers a client clock a little ahead.
  const lifetime = typeof iat === 'number' ? (exp as number) - iat : (exp as number) - now;
  const allowed =
    policy.maxLifetimeSeconds + (typeof iat === 'number' ? 0 : CLOCK_TOLERANCE_SECONDS);
  if (lifetime > allowed) {
    throw new AppError(
      'OAUTH_INVALID_CLIENT',
      `The client assertion lives too long: exp may be at most ${policy.maxLifetimeSeconds} seconds after iat (or now, without iat).`,
    );
  }
}

const importedKeys = new Map<string, KeyObject>();
const IMPORTED_KEYS_MAX = 1000;

function importKey(key: AppKeyRecord, minRsaKeyBits: number): KeyObject {
  const cached = importedKeys.get(key.id);
  if (cached !== undefined) {
    return cached;
  }
  const keyObject = parsePublicKey(key.publicKeyPem, minRsaKeyBits).keyObject;
  if (importedKeys.size >= IMPORTED_KEYS_MAX) {
    importedKeys.clear();
  }
  importedKeys.set(key.id, keyObject);
  return keyObject;
}

function describe(error: unknown): string {
  if (error instanceof errors.JWTExpired) {
    return 'The client assertion has expired.';
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') {
      return 'The client assertion audience (aud) does not name this server.';
    }
    if (error.claim === 'sub') {
      return 'The client assertion subject (sub) must be the OAuth client id.';
    }
    return `The client assertion claim "${error.claim}" is invalid.`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return 'The client assertion algorithm is not allowed.';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'The client assertion signature does not verify.';
  }
  return 'The client assertion is malformed.';
}

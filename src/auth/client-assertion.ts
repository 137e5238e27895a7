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
}

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

import { createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import { AppError } from '../errors/app-error.ts';

export type AssertionAlgorithm = 'RS256' | 'ES256';

export interface ParsedPublicKey {
  readonly algorithm: AssertionAlgorithm;
  readonly keyObject: KeyObject;
  /** The key as SPKI PEM, whatever form it was registered in. */
  readonly spkiPem: string;
}

/**
 * Accepts an X.509 certificate PEM (what the published onboarding makes) or an SPKI public key
 * PEM. RSA keys sign RS256 and must be at least minRsaKeyBits long; EC keys must be P-256 (ES256).
 */
export function parsePublicKey(pem: string, minRsaKeyBits: number): ParsedPublicKey {
  const keyObject = readKey(pem.trim());
  const details = keyObject.asymmetricKeyDetails ?? {};
  if (keyObject.asymmetricKeyType === 'rsa') {
    if ((details.modulusLength ?? 0) < minRsaKeyBits) {
      throw invalidKey(`RSA keys must be at least ${minRsaKeyBits} bits`);
    }
    return withSpki('RS256', keyObject);
  }
  if (keyObject.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1') {
    return withSpki('ES256', keyObject);
  }
  throw invalidKey('publicKey must be an RSA key (RS256) or a P-256 EC key (ES256)');
}

function readKey(pem: string): KeyObject {
  try {
    if (pem.includes('BEGIN CERTIFICATE')) {
      return new X509Certificate(pem).publicKey;
    }
    if (pem.includes('PRIVATE KEY')) {
      throw invalidKey('publicKey must not be a private key');
    }
    return createPublicKey({ key: pem, format: 'pem' });
  } catch (error) {
    if (error instanceof AppError) {
      throw error;
    }
    throw invalidKey('publicKey must be an X.509 certificate or SPKI public key in PEM form');
  }
}

function withSpki(algorithm: AssertionAlgorithm, keyObject: KeyObject): ParsedPublicKey {
  const spkiPem = keyObject.export({ type: 'spki', format: 'pem' }).toString();
  return { algorithm, keyObject, spkiPem };
}

function invalidKey(message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, {
    details: [{ field: 'publicKey', message }],
  });
}

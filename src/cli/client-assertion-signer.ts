import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';

/** Signs the client assertion the token endpoint expects (RFC 7523), as a client would. */
export async function signClientAssertion(options: {
  oauthClientId: string;
  privateKeyPem: string;
  audience: string;
  lifetimeSeconds?: number;
  issuer?: string;
}): Promise<string> {
  const key = createPrivateKey(options.privateKeyPem);
  const algorithm = key.asymmetricKeyType === 'ec' ? 'ES256' : 'RS256';
  const nowSeconds = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
    .setIssuer(options.issuer ?? 'https://openibs.local')
    .setSubject(options.oauthClientId)
    .setAudience(options.audience)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + (options.lifetimeSeconds ?? 300))
    .sign(key);
}

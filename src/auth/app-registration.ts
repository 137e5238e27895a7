import type { Queryable } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import { newHexReference, newObjectId } from '../shared/ids.ts';
import { insertApp, insertAppKey, type OAuthAppRecord } from './oauth-app-repository.ts';
import { type AssertionAlgorithm, parsePublicKey } from './public-keys.ts';

export type { OAuthAppRecord };

/**
 * Registers an OAuth app of a client with its public key, in the caller's transaction. The key
 * is checked first (a weak or malformed key is a 400); the OAuth client id is 32 random hex
 * characters, unless sandbox fixtures name it.
 */
export async function registerOAuthApp(
  tx: Queryable,
  deps: { clock: Clock; minRsaKeyBits: number },
  input: { clientId: string; name: string; publicKey: string; oauthClientId?: string },
): Promise<{ app: OAuthAppRecord; algorithm: AssertionAlgorithm }> {
  const key = parsePublicKey(input.publicKey, deps.minRsaKeyBits);
  const app: OAuthAppRecord = {
    id: newObjectId(deps.clock),
    clientId: input.clientId,
    oauthClientId: input.oauthClientId ?? newHexReference(deps.clock),
    name: input.name.trim(),
    createdAt: deps.clock.now(),
  };
  await insertApp(tx, app);
  await insertAppKey(tx, {
    id: newObjectId(deps.clock),
    appId: app.id,
    publicKeyPem: key.spkiPem,
    algorithm: key.algorithm,
    createdAt: app.createdAt,
  });
  return { app, algorithm: key.algorithm };
}

import type { Queryable } from '../db/db.ts';
import { AppError, recordNotFound } from '../errors/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { isObjectId, newObjectId } from '../shared/ids.ts';
import * as access from './client-access-repository.ts';
import * as apps from './oauth-app-repository.ts';
import { parsePublicKey } from './public-keys.ts';
import * as refreshTokens from './refresh-token-repository.ts';

/** Live keys an app may hold at once: enough to rotate, too few to hoard. */
export const MAX_LIVE_KEYS_PER_APP = 5;

export type { AppWithKeys } from './oauth-app-repository.ts';

/**
 * Operator control over apps, keys and a client's access, each in the caller's transaction. The
 * caller invalidates the revocation list after commit, so this process refuses revoked access
 * tokens at once and every other process within its refresh interval.
 */
export async function findClientApp(db: Queryable, clientId: string, appId: string) {
  const app = isObjectId(appId) ? await apps.findApp(db, appId) : undefined;
  if (app === undefined || app.clientId !== clientId) {
    throw recordNotFound();
  }
  return app;
}

export const listClientApps = (db: Queryable, clientId: string) =>
  apps.listAppsOfClient(db, clientId);

/** Revokes the app: no new token, and every token it holds (access and refresh) stops. */
export async function revokeApp(tx: Queryable, clock: Clock, clientId: string, appId: string) {
  const app = await findClientApp(tx, clientId, appId);
  const now = clock.now();
  if (await apps.revokeApp(tx, app.id, now)) {
    await refreshTokens.revokeRefreshTokensOf(tx, { appId: app.id }, now);
  }
}

/** Adds a public key to a live app (key rotation: add the new key, then revoke the old). */
export async function addAppKey(
  tx: Queryable,
  deps: { clock: Clock; minRsaKeyBits: number },
  input: { clientId: string; appId: string; publicKey: string },
) {
  const key = parsePublicKey(input.publicKey, deps.minRsaKeyBits);
  const app = await findClientApp(tx, input.clientId, input.appId);
  if (app.revokedAt !== null) {
    throw new AppError('CONFLICT', 'The app is revoked: register a new app instead.');
  }
  const live = await apps.listActiveAppKeys(tx, app.id);
  if (live.length >= MAX_LIVE_KEYS_PER_APP) {
    throw new AppError(
      'CONFLICT',
      `An app holds at most ${MAX_LIVE_KEYS_PER_APP} live keys: revoke one first.`,
    );
  }
  const record = {
    id: newObjectId(deps.clock),
    appId: app.id,
    publicKeyPem: key.spkiPem,
    algorithm: key.algorithm,
    createdAt: deps.clock.now(),
  };
  await apps.insertAppKey(tx, record);
  return record;
}

/**
 * Revokes one key. A revoked key may have leaked, so every token the app holds stops too; the
 * app authenticates again with a key it still has.
 */
export async function revokeAppKey(
  tx: Queryable,
  clock: Clock,
  input: { clientId: string; appId: string; keyId: string },
) {
  const app = await findClientApp(tx, input.clientId, input.appId);
  const now = clock.now();
  if (!isObjectId(input.keyId) || !(await apps.revokeAppKey(tx, app.id, input.keyId, now))) {
    throw recordNotFound();
  }
  await apps.revokeAppTokens(tx, app.id, now);
  await refreshTokens.revokeRefreshTokensOf(tx, { appId: app.id }, now);
}

/** Disabled: no token is issued to any of the client's apps and every token it holds stops. */
export async function setClientDisabled(
  tx: Queryable,
  clock: Clock,
  clientId: string,
  disabled: boolean,
) {
  const now = clock.now();
  await access.setClientDisabled(tx, clientId, disabled, now);
  if (disabled) {
    await refreshTokens.revokeRefreshTokensOf(tx, { clientId }, now);
  }
}

/** Every access and refresh token of the client's apps stops; new ones can be had at once. */
export async function revokeClientTokens(tx: Queryable, clock: Clock, clientId: string) {
  const now = clock.now();
  await access.revokeClientTokens(tx, clientId, now);
  await refreshTokens.revokeRefreshTokensOf(tx, { clientId }, now);
}

export const findClientAccess = access.findClientAccess;

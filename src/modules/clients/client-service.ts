import { randomBytes } from 'node:crypto';
import type { OAuthAppRecord } from '../../auth/oauth-app-repository.ts';
import * as apps from '../../auth/oauth-app-repository.ts';
import { parsePublicKey } from '../../auth/public-keys.ts';
import type { Db } from '../../db/db.ts';
import { recordNotFound } from '../../errors/app-error.ts';
import type { Clock } from '../../shared/clock.ts';
import { isObjectId, newObjectId } from '../../shared/ids.ts';
import { invariant } from '../../shared/invariant.ts';
import { findClientAccount } from '../accounts/account-repository.ts';
import type { AccountService } from '../accounts/account-service.ts';
import type { ClientRecord } from './client-repository.ts';
import * as clients from './client-repository.ts';

export interface ClientServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly accountService: AccountService;
  readonly minRsaKeyBits: number;
}

/** Operator use cases: onboarding clients and registering their OAuth apps. */
export function createClientService(deps: ClientServiceDeps) {
  /** A client comes with its main account, opened in the same transaction. */
  async function createClient(input: { name: string; emailAddress?: string }) {
    const clientId = newObjectId(deps.clock);
    await deps.db.transaction(async (tx) => {
      await clients.insertClient(tx, {
        id: clientId,
        name: input.name.trim(),
        emailAddress: input.emailAddress ?? null,
        createdAt: deps.clock.now(),
      });
      const accountId = await deps.accountService.openAccount(tx, {
        clientId,
        accountName: input.name.trim().toUpperCase(),
        accountType: 'Current',
        isSubAccount: false,
        metadata: {},
      });
      await clients.setMainAccount(tx, clientId, accountId);
    });
    return getClientWithMainAccount(clientId);
  }

  async function getClientWithMainAccount(clientId: string) {
    const client = await getClient(clientId);
    const mainAccount =
      client.mainAccountId === null
        ? undefined
        : await findClientAccount(deps.db, client.id, client.mainAccountId);
    invariant(mainAccount !== undefined, `client ${client.id} has no main account`);
    return { client, mainAccount };
  }

  async function getClient(clientId: string): Promise<ClientRecord> {
    const client = isObjectId(clientId) ? await clients.findClient(deps.db, clientId) : undefined;
    if (client === undefined) {
      throw recordNotFound();
    }
    return client;
  }

  /** Registers an app with its public key; the OAuth client id is 32 random hex characters. */
  async function registerApp(clientId: string, input: { name: string; publicKey: string }) {
    const client = await getClient(clientId);
    const key = parsePublicKey(input.publicKey, deps.minRsaKeyBits);
    const app: OAuthAppRecord = {
      id: newObjectId(deps.clock),
      clientId: client.id,
      oauthClientId: randomBytes(16).toString('hex'),
      name: input.name.trim(),
      createdAt: deps.clock.now(),
    };
    await deps.db.transaction(async (tx) => {
      await apps.insertApp(tx, app);
      await apps.insertAppKey(tx, {
        id: newObjectId(deps.clock),
        appId: app.id,
        publicKeyPem: key.spkiPem,
        algorithm: key.algorithm,
        createdAt: app.createdAt,
      });
    });
    return { app, algorithm: key.algorithm };
  }

  return { createClient, getClient, getClientWithMainAccount, registerApp };
}

export type ClientService = ReturnType<typeof createClientService>;

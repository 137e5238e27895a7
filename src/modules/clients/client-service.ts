import * as appManagement from '../../auth/app-management.ts';
import { registerOAuthApp } from '../../auth/app-registration.ts';
import type { RevocationList } from '../../auth/revocation-list.ts';
import type { Db, Queryable, Tx } from '../../db/db.ts';
import { recordNotFound } from '../../errors/app-error.ts';
import type { Clock } from '../../shared/clock.ts';
import { isObjectId, newObjectId } from '../../shared/ids.ts';
import { invariant } from '../../shared/invariant.ts';
import {
  type AccountService,
  type ClientNames,
  findAccountsByIds,
  findClientAccount,
} from '../accounts/index.ts';
import type { ClientRecord } from './client-repository.ts';
import * as clients from './client-repository.ts';

export interface ClientServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly accountService: AccountService;
  readonly minRsaKeyBits: number;
  /** Told after each revocation, so this process refuses the revoked tokens at once. */
  readonly revocations: Pick<RevocationList, 'invalidate'>;
}

/** Operator use cases: onboarding clients and registering their OAuth apps. */
export function createClientService(deps: ClientServiceDeps) {
  /** A client comes with its main account, opened in the same transaction. */
  async function createClient(input: { name: string; emailAddress?: string }) {
    const clientId = newObjectId(deps.clock);
    await deps.db.transaction((tx) => insertClientWithMainAccount(tx, { ...input, id: clientId }));
    return getClientWithMainAccount(clientId);
  }

  /**
   * Inserts a client and opens its main account in the caller's transaction; answers the main
   * account's id. Sandbox fixtures name the client's id and the account's number.
   */
  async function insertClientWithMainAccount(
    tx: Tx,
    input: {
      id: string;
      name: string;
      emailAddress?: string | undefined;
      mainAccount?: { accountNumber?: string; accountType?: 'Current' | 'Savings' };
    },
  ): Promise<string> {
    await clients.insertClient(tx, {
      id: input.id,
      name: input.name.trim(),
      emailAddress: input.emailAddress ?? null,
      createdAt: deps.clock.now(),
    });
    const accountId = await deps.accountService.openAccount(tx, {
      clientId: input.id,
      accountName: input.name.trim().toUpperCase(),
      accountType: input.mainAccount?.accountType ?? 'Current',
      isSubAccount: false,
      metadata: {},
      ...(input.mainAccount?.accountNumber === undefined
        ? {}
        : { accountNumber: input.mainAccount.accountNumber }),
    });
    await clients.setMainAccount(tx, input.id, accountId);
    return accountId;
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

  /** Every client with its main account, newest first (operator use). */
  async function listClients(page: { page: number; limit: number }) {
    const { clients: found, total } = await clients.listClients(deps.db, {
      offset: page.page * page.limit,
      limit: page.limit,
    });
    const mainAccounts = await findAccountsByIds(
      deps.db,
      found.flatMap((client) => client.mainAccountId ?? []),
    );
    const listed = found.map((client) => {
      const mainAccount =
        client.mainAccountId === null ? undefined : mainAccounts.get(client.mainAccountId);
      invariant(mainAccount !== undefined, `client ${client.id} has no main account`);
      return { client, mainAccount };
    });
    return { clients: listed, total };
  }

  async function getClient(clientId: string): Promise<ClientRecord> {
    const client = isObjectId(clientId) ? await clients.findClient(deps.db, clientId) : undefined;
    if (client === undefined) {
      throw recordNotFound();
    }
    return client;
  }

  /** Registers an app with its public key (auth/app-registration.ts). */
  async function registerApp(clientId: string, input: { name: string; publicKey: string }) {
    const client = await getClient(clientId);
    return deps.db.transaction((tx) =>
      registerOAuthApp(tx, deps, { clientId: client.id, ...input }),
    );
  }

  /** The client's apps with their keys, revoked ones included. */
  async function listApps(clientId: string) {
    const client = await getClient(clientId);
    return appManagement.listClientApps(deps.db, client.id);
  }

  async function addAppKey(clientId: string, appId: string, publicKey: string) {
    const client = await getClient(clientId);
    return deps.db.transaction((tx) =>
      appManagement.addAppKey(tx, deps, { clientId: client.id, appId, publicKey }),
    );
  }

  /** Runs a revocation in a transaction, then makes it felt in this process at once. */
  async function revoking(work: (tx: Tx) => Promise<void>) {
    await deps.db.transaction(work);
    deps.revocations.invalidate();
  }

  async function revokeApp(clientId: string, appId: string) {
    const client = await getClient(clientId);
    await revoking((tx) => appManagement.revokeApp(tx, deps.clock, client.id, appId));
    return appManagement.findClientApp(deps.db, client.id, appId);
  }

  async function revokeAppKey(clientId: string, appId: string, keyId: string) {
    const client = await getClient(clientId);
    await revoking((tx) =>
      appManagement.revokeAppKey(tx, deps.clock, { clientId: client.id, appId, keyId }),
    );
  }

  async function setDisabled(clientId: string, disabled: boolean) {
    const client = await getClient(clientId);
    await revoking((tx) => appManagement.setClientDisabled(tx, deps.clock, client.id, disabled));
    return getClientWithMainAccount(client.id);
  }

  async function revokeTokens(clientId: string) {
    const client = await getClient(clientId);
    await revoking((tx) => appManagement.revokeClientTokens(tx, deps.clock, client.id));
    return appManagement.findClientAccess(deps.db, client.id);
  }

  async function accessOf(clientId: string) {
    return appManagement.findClientAccess(deps.db, clientId);
  }

  return {
    createClient,
    insertClientWithMainAccount,
    /** Every client's id, in the caller's transaction (sandbox resets). */
    clientIds: (tx: Queryable) => clients.listClientIds(tx),
    getClient,
    getClientWithMainAccount,
    listClients,
    registerApp,
    listApps,
    addAppKey,
    revokeApp,
    revokeAppKey,
    setDisabled,
    revokeTokens,
    accessOf,
  };
}

export type ClientService = ReturnType<typeof createClientService>;

/** The names that the accounts module puts on a client's own accounts. */
export const clientNames: ClientNames = {
  async nameOf(tx, clientId) {
    return (await clients.findClient(tx, clientId))?.name;
  },
};

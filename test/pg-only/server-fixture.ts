// What the PostgreSQL-only tests that run the server as real child processes share: their own
// database and data directory, servers started on it, and a client signed in over HTTP.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '../../src/db/db.ts';
import { verifyLedger } from '../../src/ledger/ledger-audit.ts';
import { publicKeyPem, rsaKeyPair, signAssertion } from '../factories.ts';
import { NO_RATE_LIMITS } from '../harness.ts';
import { type ServerProcess, startServerProcess } from '../server-process.ts';
import { createTestDb, type TestDb } from '../test-db.ts';

/** Our institution code (the sandbox default): a transfer to it is intra-bank. */
export const OUR_BANK = '999240';
const HTTP_TIMEOUT_MS = 10_000;

type Headers = Record<string, string>;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ServerSecrets {
  readonly adminToken: string;
  readonly tokenSigningSecret: string;
  /** The audience client assertions name. */
  readonly publicBaseUrl: string;
}

/**
 * One test file's PostgreSQL database and data directory, and every server process started on
 * them (all killed by close, whatever state the test left them in).
 */
export class ServerFixture {
  private testDb: TestDb | undefined;
  private dataDir: string | undefined;
  private readonly servers: ServerProcess[] = [];

  constructor(
    private readonly label: string,
    readonly secrets: ServerSecrets,
  ) {}

  async open(): Promise<void> {
    this.testDb = await createTestDb();
    assert.ok(this.testDb.url !== undefined, 'createTestDb gave a PostgreSQL database');
    this.dataDir = await mkdtemp(path.join(tmpdir(), `openibs-${this.label}-`));
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.kill()));
    await this.testDb?.close();
    if (this.dataDir !== undefined) {
      await rm(this.dataDir, { recursive: true, force: true });
    }
  }

  /** The test's own connection to the database the servers use. */
  get db(): Db {
    assert.ok(this.testDb !== undefined, 'open() first');
    return this.testDb.db;
  }

  /** A sandbox server on the fixture's database, as `npm start` runs it, on a free port. */
  async startServer(extra: Record<string, string> = {}) {
    assert.ok(this.testDb?.url !== undefined && this.dataDir !== undefined, 'open() first');
    const started = await startServerProcess({
      DATABASE_URL: this.testDb.url,
      IBS_ENV: 'sandbox',
      DATA_DIR: this.dataDir,
      ADMIN_TOKEN: this.secrets.adminToken,
      TOKEN_SIGNING_SECRET: this.secrets.tokenSigningSecret,
      PUBLIC_BASE_URL: this.secrets.publicBaseUrl,
      WEBHOOK_WORKER_ENABLED: 'false',
      ...NO_RATE_LIMITS,
      ...extra,
    });
    this.servers.push(started.server);
    return started;
  }

  /** Every ledger invariant (src/ledger/ledger-audit.ts) that does not hold, with its count. */
  async ledgerViolations(): Promise<[string, number][]> {
    return Object.entries(await verifyLedger(this.db)).filter(([, count]) => count !== 0);
  }
}

/** A request that must succeed: its parsed body, or a failed assertion with what it answered. */
export async function callApi(
  baseUrl: string,
  method: string,
  url: string,
  headers: Headers,
  body?: unknown,
) {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as { data: Record<string, unknown> } & Record<string, unknown>;
}

export interface SignedInClient {
  readonly clientId: string;
  readonly mainAccount: { readonly _id: string; readonly accountNumber: string };
  /** What every authenticated call sends. */
  readonly headers: Headers;
}

/** A new client with an RS256 app, through the admin API, and an access token for it. */
export async function signUpClient(
  baseUrl: string,
  secrets: ServerSecrets,
  name: string,
  keyIndex = 0,
): Promise<SignedInClient> {
  const adminHeaders = { authorization: `Bearer ${secrets.adminToken}` };
  const client = (await callApi(baseUrl, 'POST', '/admin/clients', adminHeaders, { name }))
    .data as { _id: string; mainAccount: { _id: string; accountNumber: string } };
  const keys = rsaKeyPair(keyIndex);
  const registered = (
    await callApi(baseUrl, 'POST', `/admin/clients/${client._id}/apps`, adminHeaders, {
      name: `${name} app`,
      publicKey: publicKeyPem(keys.publicKey),
    })
  ).data as { clientId: string };
  const assertion = await signAssertion(
    { oauthClientId: registered.clientId, privateKey: keys.privateKey },
    { now: new Date(), audience: secrets.publicBaseUrl },
  );
  const token = (await callApi(
    baseUrl,
    'POST',
    '/oauth2/token',
    {},
    {
      grant_type: 'client_credentials',
      client_id: registered.clientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    },
  )) as unknown as { access_token: string };
  return {
    clientId: client._id,
    mainAccount: client.mainAccount,
    headers: { authorization: `Bearer ${token.access_token}`, clientid: client._id },
  };
}

/** POST /admin/sandbox/credits: money from "another bank" into one of our accounts. */
export async function sandboxCredit(
  baseUrl: string,
  secrets: ServerSecrets,
  accountNumber: string,
  amount: number,
): Promise<void> {
  await callApi(
    baseUrl,
    'POST',
    '/admin/sandbox/credits',
    { authorization: `Bearer ${secrets.adminToken}` },
    { accountNumber, amount },
  );
}

/** A name enquiry's session id, to quote as a transfer's nameEnquiryReference. */
export async function nameEnquiry(
  baseUrl: string,
  headers: Headers,
  bankCode: string,
  accountNumber: string,
): Promise<string> {
  const enquiry = await callApi(baseUrl, 'POST', '/transfers/name-enquiry', headers, {
    bankCode,
    accountNumber,
  });
  return enquiry.data.sessionId as string;
}

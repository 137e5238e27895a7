/**
 * `openibs/testing`: a sandbox bank started from your test, in your process, on a free port
 * (docs/testing-with-openibs.md). Everything it offers is a typed call of the sandbox's admin
 * API, so what a test does here an operator can do with the CLI or the dashboard.
 */
import { readFile } from 'node:fs/promises';
import { signClientAssertion } from '../cli/client-assertion-signer.ts';
import { type StartedServer, startServer } from '../start.ts';

export interface SandboxOptions {
  /** A fixtures document, or the path of its JSON file (docs/fixtures.md). */
  readonly fixtures?: Record<string, unknown> | string;
  /** Default 0: a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** More configuration, as environment variables (README, Configuration). */
  readonly env?: Readonly<Record<string, string>>;
  /** The server's log level (default `warn`; `silent` for none). */
  readonly logLevel?: string;
}

/** A client of the bank, as a test signs in with it. */
export interface SandboxClient {
  readonly name: string;
  readonly ibsClientId: string;
  readonly oauthClientId: string;
  readonly privateKeyPem: string;
  /**
   * A client assertion (for SDKs that take one), signed on this machine's clock: as a real
   * client's, it is judged in real time even when the bank's test clock has moved.
   */
  assertion(): Promise<string>;
  /** A fresh access token (a client assertion, then /oauth2/token). */
  token(): Promise<string>;
  /** Headers for an API call: the bearer token and ClientID. */
  headers(): Promise<{ authorization: string; clientid: string }>;
}

export interface SandboxFault {
  readonly clientId: string;
  readonly route: string;
  readonly fault: '503' | '500' | '429' | 'timeout' | 'commit-then-drop' | 'commit-then-504';
  readonly times?: number;
}

export interface WebhookRecord {
  readonly _id: string;
  readonly eventId: string;
  readonly clientId: string;
  readonly type: string;
  readonly url: string | null;
  readonly requestHeaders: Record<string, string>;
  readonly requestBody: string;
  readonly responseStatus: number | null;
  readonly responseBody: string | null;
  readonly attemptedAt: string;
}

/** An alert email or SMS the bank made (GET /admin/sandbox/messages; docs/alerts.md). */
export interface MessageRecord {
  /** Stable: the email's Message-ID (<_id@alerts.openibs>), the SMS's de-duplication key. */
  readonly _id: string;
  readonly accountNumber: string;
  readonly clientId: string;
  readonly channel: 'email' | 'sms';
  readonly to: string;
  readonly status: 'pending' | 'sent' | 'failed' | 'suppressed';
  readonly subject: string | null;
  readonly body: string;
  readonly html: string | null;
  readonly createdAt: string;
  readonly sentAt: string | null;
  /** A monthly statement's message: the month it is the statement of (`2026-03-01`); else null. */
  readonly statementMonth: string | null;
}

export interface Sandbox {
  readonly url: string;
  readonly adminToken: string;
  /** A client by its fixtures name or ibs client id; without one, the first (or the demo). */
  client(nameOrId?: string): SandboxClient;
  /** An account by number, as its holder's API shows it. */
  account(accountNumber: string): Promise<Record<string, unknown>>;
  /** Money arrives from another bank (an inbound NIP credit). */
  credit(options: { accountNumber: string; amount: number; narration?: string }): Promise<unknown>;
  /** A customer of another bank pays a virtual account. */
  payVirtualAccount(options: {
    accountNumber: string;
    amount: number;
    payerBankCode?: string;
    scenario?: 'onTime' | 'afterExpiry' | 'duplicateSession';
  }): Promise<unknown>;
  /** A customer dials a USSD reference at their bank and pays it. */
  dialUssd(options: {
    reference: string;
    ussdBankCode?: string;
    amount?: number;
  }): Promise<unknown>;
  /** The next outbound NIP transfer gets this response code (docs/sandbox-nip.md). */
  queueNipOutcome(responseCode: string): Promise<unknown>;
  /**
   * The beneficiary bank sends back a Completed outbound NIP transfer, by its session id: it
   * answers the transfer, now Reversed (docs/sandbox-nip.md, "Returns").
   */
  returnTransfer(options: { sessionId: string; reason?: string }): Promise<Record<string, unknown>>;
  /**
   * The sending bank recalls a Completed credit it sent, by its session id: it answers
   * `{ transfer, lien }`, the credit now Reversed and the lien the account owes if it had spent
   * the money, or null (docs/sandbox-nip.md, "Recalls").
   */
  recallCredit(options: { sessionId: string; reason?: string }): Promise<Record<string, unknown>>;
  readonly clock: {
    now(): Promise<Date>;
    /** Moves the bank's time forward by an ISO 8601 duration (`PT2H`, `P1D`). */
    advance(duration: string): Promise<Date>;
  };
  readonly faults: {
    inject(fault: SandboxFault): Promise<Record<string, unknown>>;
    list(clientId?: string): Promise<Record<string, unknown>[]>;
    clear(clientId?: string): Promise<void>;
  };
  readonly webhooks: {
    list(filter?: { clientId?: string; type?: string }): Promise<WebhookRecord[]>;
    /** Resolves with the first webhook of this type the predicate accepts, sent or to come. */
    waitFor(
      type: string,
      predicate?: (record: WebhookRecord, payload: Record<string, unknown>) => boolean,
      options?: { timeoutMs?: number },
    ): Promise<WebhookRecord>;
  };
  /**
   * The alert emails and SMS the bank made, newest first (the alerts worker makes them within
   * ALERTS_POLL_INTERVAL_MS of the posting).
   */
  messages(filter?: {
    accountNumber?: string;
    channel?: 'email' | 'sms';
  }): Promise<MessageRecord[]>;
  /** Back to the fixtures: every record made since gone, the fixtures' world back. */
  reset(): Promise<void>;
  /** Any admin call: `bank.admin('GET', '/admin/clients')`. */
  admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** Starts a sandbox bank in memory; refuses `IBS_ENV=production`. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const env = { ...process.env, ...options.env };
  if ((env.IBS_ENV || 'sandbox') !== 'sandbox') {
    throw new Error('openibs/testing starts a sandbox only: IBS_ENV must be unset or "sandbox"');
  }
  delete env.DATABASE_URL;
  const server = await startServer({
    env: { ...env, IBS_ENV: 'sandbox' },
    memory: true,
    port: options.port ?? 0,
    ...(options.host === undefined ? {} : { host: options.host }),
    logger: { level: options.logLevel ?? 'warn' },
    // With fixtures, they are the whole world: no demo client to make and then remove.
    demoClient: options.fixtures === undefined,
  });
  try {
    const admin = adminClient(server);
    const clients = await loadClients(server, admin, options.fixtures);
    return sandboxOf(server, admin, clients);
  } catch (error) {
    await server.close();
    throw error;
  }
}

type AdminCall = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

function adminClient(server: StartedServer): AdminCall {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${server.secrets.adminToken}`,
        'x-operator': 'openibs-testing',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const payload = (await response.json()) as { data?: T; message?: string; details?: unknown };
    if (!response.ok) {
      const details = payload.details === undefined ? '' : ` ${JSON.stringify(payload.details)}`;
      throw new Error(`${method} ${path}: ${response.status} ${payload.message ?? ''}${details}`);
    }
    return payload.data as T;
  };
}

interface ClientKeys {
  readonly name: string;
  readonly ibsClientId: string;
  readonly oauthClientId: string;
  readonly privateKeyPem: string;
}

/** The clients a test can sign in as: the fixtures' (with a private key), or the demo client. */
async function loadClients(
  server: StartedServer,
  admin: AdminCall,
  fixtures: SandboxOptions['fixtures'],
): Promise<ClientKeys[]> {
  if (fixtures === undefined) {
    const demo = server.demo;
    return demo?.privateKeyPem === undefined
      ? []
      : [{ name: 'demo', ...demo, privateKeyPem: demo.privateKeyPem }];
  }
  const document =
    typeof fixtures === 'string'
      ? (JSON.parse(await readFile(fixtures, 'utf8')) as Record<string, unknown>)
      : fixtures;
  await admin('POST', '/admin/sandbox/fixtures', document);
  return fixtureClients(document);
}

/** Every app of every fixtures client that carries its private key. */
function fixtureClients(document: Record<string, unknown>): ClientKeys[] {
  const clients = Array.isArray(document.clients) ? document.clients : [];
  return clients.flatMap((client: Record<string, unknown>) => {
    const apps = Array.isArray(client.apps) ? client.apps : [];
    return apps
      .filter((app: Record<string, unknown>) => typeof app.privateKeyPem === 'string')
      .map((app: Record<string, unknown>) => ({
        name: String(client.name),
        ibsClientId: String(client.ibsClientId),
        oauthClientId: String(app.oauthClientId),
        privateKeyPem: String(app.privateKeyPem),
      }));
  });
}

function sandboxOf(server: StartedServer, admin: AdminCall, clients: ClientKeys[]): Sandbox {
  const clock = {
    now: async () => new Date((await admin<{ now: string }>('GET', '/admin/sandbox/clock')).now),
    advance: async (duration: string) =>
      new Date(
        (await admin<{ now: string }>('POST', '/admin/sandbox/clock', { advance: duration })).now,
      ),
  };
  return {
    url: server.url,
    adminToken: server.secrets.adminToken,
    client(nameOrId) {
      const keys =
        nameOrId === undefined
          ? clients[0]
          : clients.find((c) => c.name === nameOrId || c.ibsClientId === nameOrId);
      if (keys === undefined) {
        throw new Error(`no client ${nameOrId ?? ''} with a private key in this sandbox`);
      }
      return signedInClient(server.url, keys);
    },
    account: (accountNumber) =>
      admin('GET', `/admin/accounts/${encodeURIComponent(accountNumber)}`),
    credit: (body) => admin('POST', '/admin/sandbox/credits', body),
    payVirtualAccount: (body) => admin('POST', '/admin/sandbox/virtual-account-payments', body),
    dialUssd: (body) => admin('POST', '/admin/sandbox/ussd-dials', body),
    queueNipOutcome: (responseCode) =>
      admin('POST', '/admin/sandbox/nip/next-outcome', { responseCode }),
    returnTransfer: (body) => admin('POST', '/admin/sandbox/nip/returns', body),
    recallCredit: (body) => admin('POST', '/admin/sandbox/nip/recalls', body),
    clock,
    faults: {
      inject: (fault) => admin('POST', '/admin/sandbox/faults', fault),
      list: (clientId) => admin('GET', `/admin/sandbox/faults${query({ clientId })}`),
      clear: async (clientId) => {
        await admin('DELETE', `/admin/sandbox/faults${query({ clientId })}`);
      },
    },
    webhooks: {
      list: (filter = {}) =>
        admin<WebhookRecord[]>(
          'GET',
          `/admin/sandbox/webhooks${query({ ...filter, limit: '100' })}`,
        ),
      waitFor: (type, predicate, options) => waitForWebhook(admin, type, predicate, options),
    },
    messages: (filter = {}) =>
      admin<MessageRecord[]>('GET', `/admin/sandbox/messages${query({ ...filter, limit: '100' })}`),
    reset: async () => {
      await admin('POST', '/admin/sandbox/reset');
    },
    admin,
    close: () => server.close(),
  };
}

function signedInClient(baseUrl: string, keys: ClientKeys): SandboxClient {
  const assertion = async () =>
    signClientAssertion({
      oauthClientId: keys.oauthClientId,
      privateKeyPem: keys.privateKeyPem,
      audience: baseUrl,
    });
  const token = async () => {
    const response = await fetch(`${baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: keys.oauthClientId,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: await assertion(),
      }),
    });
    const answer = (await response.json()) as { access_token?: string; message?: string };
    if (answer.access_token === undefined) {
      throw new Error(`no token for ${keys.name}: ${response.status} ${answer.message ?? ''}`);
    }
    return answer.access_token;
  };
  return {
    ...keys,
    assertion,
    token,
    headers: async () => ({ authorization: `Bearer ${await token()}`, clientid: keys.ibsClientId }),
  };
}

/**
 * Reads the inbox once, then long-polls it for entries newer than the newest seen (`after`,
 * `wait`), until one of the type passes the predicate or the time is up.
 */
async function waitForWebhook(
  admin: AdminCall,
  type: string,
  predicate: ((record: WebhookRecord, payload: Record<string, unknown>) => boolean) | undefined,
  options: { timeoutMs?: number } = {},
): Promise<WebhookRecord> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  const matches = (record: WebhookRecord) =>
    predicate === undefined ||
    predicate(record, JSON.parse(record.requestBody) as Record<string, unknown>);
  let after: string | undefined;
  let waitSeconds = 0;
  while (true) {
    const records = await admin<WebhookRecord[]>(
      'GET',
      `/admin/sandbox/webhooks${query({ type, after, wait: String(waitSeconds), limit: '100' })}`,
    );
    const found = records.find(matches);
    if (found !== undefined) {
      return found;
    }
    // Newest first: the first record is the newest seen; the next read starts after it.
    after = records[0]?._id ?? after;
    const leftSeconds = Math.floor((deadline - Date.now()) / 1000);
    if (leftSeconds < 1) {
      throw new Error(`no ${type} webhook within ${timeoutMs} ms`);
    }
    waitSeconds = Math.min(leftSeconds, 30);
  }
}

function query(values: Record<string, string | undefined>): string {
  const entries = Object.entries(values).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries).toString()}`;
}

// Several hosts in DATABASE_URL, as libpq takes them (`postgres://u@h1:5432,h2:5432/db`): each new
// connection goes to the first host, in the order given, that accepts writes. node-postgres knows
// one host only, so the pool gets a Client class that picks the host before it connects.
import pg from 'pg';
import { isDatabaseUnavailable } from './database-unavailable.ts';

/** What a host must be to be kept (libpq's `target_session_attrs`, the values that can write). */
export type TargetSessionAttrs = 'read-write' | 'primary';

export interface DatabaseHost {
  /** `host:port` as written in the URL, for messages (never the credentials). */
  readonly label: string;
  /** The URL with this host alone, as node-postgres reads it. */
  readonly url: string;
}

export interface MultiHostUrl {
  readonly hosts: readonly DatabaseHost[];
  readonly targetSessionAttrs: TargetSessionAttrs;
}

const TARGET_SESSION_ATTRS = 'target_session_attrs';
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is;
const HOST_PORT = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d*))?$/;
const MAX_PORT = 65_535;

/**
 * The hosts of a URL that names several (`scheme://[userinfo@]h1[:p1],h2[:p2],.../db?...`), each
 * as a URL of its own, and what each connection needs of its host; undefined for a URL naming one
 * host (or none), which is then used exactly as before. `target_session_attrs` may be absent
 * (then `read-write`: OpenIBS writes on every connection), `read-write` or `primary`; it is taken
 * out of the per-host URLs. Throws, without the URL (it holds the password), when the list is
 * malformed or asks for a host that may be read-only.
 */
export function parseMultiHostUrl(url: string): MultiHostUrl | undefined {
  const parts = URL_PARTS.exec(url);
  if (parts === null) {
    return undefined;
  }
  const [, scheme = '', authority = '', rest = ''] = parts;
  const at = authority.lastIndexOf('@');
  const userinfo = authority.slice(0, at + 1);
  const hostList = authority.slice(at + 1);
  if (!hostList.includes(',')) {
    return undefined;
  }
  const { rest: restWithout, value } = takeQueryParameter(rest, TARGET_SESSION_ATTRS);
  const targetSessionAttrs = value ?? 'read-write';
  if (targetSessionAttrs !== 'read-write' && targetSessionAttrs !== 'primary') {
    throw new Error(
      `DATABASE_URL: ${TARGET_SESSION_ATTRS}=${targetSessionAttrs} is not supported with several ` +
        'hosts; OpenIBS writes on every connection: use read-write (the default) or primary',
    );
  }
  const hosts = hostList.split(',').map((entry, index) => {
    const match = HOST_PORT.exec(entry);
    const port = match?.[2];
    if (
      match === null ||
      (port !== undefined && (port === '' || Number(port) < 1 || Number(port) > MAX_PORT))
    ) {
      throw new Error(
        `DATABASE_URL: host ${index + 1} of the host list is not host[:port] ` +
          '(an IPv6 address goes in brackets)',
      );
    }
    return { label: entry, url: `${scheme}${userinfo}${entry}${restWithout}` };
  });
  return { hosts, targetSessionAttrs };
}

/** The rest of a URL (path, query, fragment) without one query parameter, and its last value. */
function takeQueryParameter(rest: string, name: string): { rest: string; value?: string } {
  const hash = rest.indexOf('#');
  const beforeHash = hash === -1 ? rest : rest.slice(0, hash);
  const fragment = hash === -1 ? '' : rest.slice(hash);
  const question = beforeHash.indexOf('?');
  if (question === -1) {
    return { rest };
  }
  let value: string | undefined;
  const kept = beforeHash
    .slice(question + 1)
    .split('&')
    .filter((pair) => {
      const [key = '', raw = ''] = pair.split(/=(.*)/s);
      if (decodeQueryComponent(key) !== name) {
        return true;
      }
      value = decodeQueryComponent(raw);
      return false;
    });
  const query = kept.length === 0 ? '' : `?${kept.join('&')}`;
  return { rest: `${beforeHash.slice(0, question)}${query}${fragment}`, value };
}

function decodeQueryComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A host that answered, but cannot take writes (a standby, or default_transaction_read_only). */
export class ReadOnlyHostError extends Error {
  override readonly name = 'ReadOnlyHostError';
}

/**
 * No host took the connection: each was down, unreachable or read-only. SQLSTATE 08001 (unable to
 * establish a connection), so it counts as "database unavailable" (503, Retry-After) while a
 * failover is under way; what each host answered is in the message and in `cause`.
 */
export class NoWritableHostError extends Error {
  override readonly name = 'NoWritableHostError';
  readonly code = '08001';

  constructor(failures: readonly HostFailure[]) {
    super(
      `no host in DATABASE_URL accepts writes: ${failures
        .map(({ host, error }) => `${host.label} (${describe(error)})`)
        .join('; ')}`,
      { cause: new AggregateError(failures.map(({ error }) => error)) },
    );
  }
}

interface HostFailure {
  readonly host: DatabaseHost;
  readonly error: unknown;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

const STATE_QUERY =
  'SELECT pg_catalog.pg_is_in_recovery() AS in_recovery, ' +
  "pg_catalog.current_setting('transaction_read_only') AS read_only";

/** Throws ReadOnlyHostError unless the connected session is what `wanted` asks. */
async function assertWritable(
  client: pg.Client,
  wanted: TargetSessionAttrs,
  timeoutMs: number,
): Promise<void> {
  let state: { in_recovery: boolean; read_only: string } | undefined;
  try {
    const result = await client.query<{ in_recovery: boolean; read_only: string }>({
      text: STATE_QUERY,
      query_timeout: timeoutMs,
    } as pg.QueryConfig);
    state = result.rows[0];
  } catch (error) {
    if (error instanceof Error && error.message === 'Query read timeout') {
      // A host that accepted the connection but does not answer is as good as down.
      throw Object.assign(new Error(`no answer within ${timeoutMs} ms`, { cause: error }), {
        code: '08006',
      });
    }
    throw error;
  }
  if (state?.in_recovery !== false) {
    throw new ReadOnlyHostError('read-only: a standby (in recovery)');
  }
  if (wanted === 'read-write' && state.read_only !== 'off') {
    throw new ReadOnlyHostError('read-only: default_transaction_read_only is on');
  }
}

/**
 * A pg.Client class for the pool that, on connect, tries the hosts in order, each with a
 * short-lived connection of its own (node-postgres connects a client once only), and connects to
 * the first that accepts writes; the new connection then checks again that it can write (the host
 * may have changed role in between). Every other setting is the pool's. A connection lost later
 * is dropped by the pool as usual, and its replacement looks for the writable host again: that
 * is how a failover is followed without a restart.
 */
export function multiHostClient(
  target: MultiHostUrl,
  connectTimeoutMs: number,
): new (
  config?: pg.ClientConfig,
) => pg.Client {
  return class MultiHostClient extends pg.Client {
    readonly #config: pg.ClientConfig;

    constructor(config?: pg.ClientConfig) {
      const own = { ...config, connectionTimeoutMillis: connectTimeoutMs };
      super(own);
      this.#config = own;
    }

    override connect(): Promise<pg.Client>;
    override connect(
      callback: ((err: Error) => void) | ((err: null, client: pg.Client) => void),
    ): void;
    override connect(
      callback?: ((err: Error) => void) | ((err: null, client: pg.Client) => void),
    ): Promise<pg.Client> | undefined {
      const connected = this.#connectToWritableHost();
      if (callback === undefined) {
        return connected;
      }
      // pg's own connect calls back (error) or (null, client); so does this one.
      const done = callback as (err: Error | null, client?: pg.Client) => void;
      connected.then(
        (client) => done(null, client),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
      return undefined;
    }

    async #connectToWritableHost(): Promise<pg.Client> {
      const { host, answer } = await firstWritableHost(target.hosts, (candidate) =>
        this.#probe(candidate.url),
      );
      this.host = answer.host;
      this.port = answer.port;
      await super.connect();
      try {
        await assertWritable(this, target.targetSessionAttrs, connectTimeoutMs);
      } catch (error) {
        await this.end().catch(() => undefined);
        throw isDatabaseUnavailable(error) || error instanceof ReadOnlyHostError
          ? new NoWritableHostError([{ host, error }])
          : error;
      }
      return this;
    }

    /** Connects to one host, checks it accepts writes, disconnects; where it connected. */
    async #probe(url: string): Promise<{ host: string; port: number }> {
      const probe = new pg.Client({ ...this.#config, connectionString: url });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await assertWritable(probe, target.targetSessionAttrs, connectTimeoutMs);
        return { host: probe.host, port: probe.port };
      } finally {
        await probe.end().catch(() => undefined);
      }
    }
  };
}

/**
 * The first host, in order, for which `probe` resolves, with its answer. When none does: the
 * first failure that is neither "unavailable" nor "read-only" (bad credentials, no such
 * database: a mistake to show as it is, as with one host), else NoWritableHostError.
 */
export async function firstWritableHost<T>(
  hosts: readonly DatabaseHost[],
  probe: (host: DatabaseHost) => Promise<T>,
): Promise<{ host: DatabaseHost; answer: T }> {
  const failures: HostFailure[] = [];
  for (const host of hosts) {
    try {
      return { host, answer: await probe(host) };
    } catch (error) {
      failures.push({ host, error });
    }
  }
  const mistake = failures.find(
    ({ error }) => !(error instanceof ReadOnlyHostError) && !isDatabaseUnavailable(error),
  );
  if (mistake !== undefined) {
    throw mistake.error;
  }
  throw new NoWritableHostError(failures);
}

// End to end: the README quick start on a fresh machine. The server runs as `npm start` runs it
// (a real process on embedded PGlite under a fresh DATA_DIR), the CLI as a user runs it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { freePort, ROOT, ServerProcess } from '../server-process.ts';

const execFileAsync = promisify(execFile);

const SHUTDOWN_TIMEOUT_MS = 15_000;
const CLI_TIMEOUT_MS = 30_000;
const HTTP_TIMEOUT_MS = 10_000;
/** The README's sandbox: ₦1,000,000 opening credit, less ₦50 stamp duty. */
const DEMO_OPENING_BALANCE = 999_950;

interface DemoFile {
  ibsClientId: string;
  oauthClientId: string;
  mainAccountNumber: string;
  baseUrl: string;
  privateKeyFile: string;
}

interface WireAccount {
  _id: string;
  accountNumber: string;
  accountBalance: number;
}

/** What a fresh shell has: no DATABASE_URL, no secrets, no OpenIBS settings. */
function freshEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...extra };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT']) {
    const value = process.env[name];
    if (value !== undefined) {
      env[name] = value;
    }
  }
  return env;
}

function bannerField(banner: string, label: string): string {
  const match = new RegExp(`${label}\\s+(\\S+)`).exec(banner);
  assert.ok(match?.[1] !== undefined, `banner has "${label}":\n${banner}`);
  return match[1];
}

interface LogLine {
  msg?: string;
  req?: { url?: unknown };
  res?: { statusCode?: unknown };
  responseTime?: unknown;
}

/** The JSON lines of a server's output (the banner and other text are skipped). */
function logLines(output: string): LogLine[] {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) {
      return [];
    }
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs = HTTP_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) {
      return value;
    }
    assert.ok(Date.now() < deadline, `nothing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('README quick start on a fresh machine', { timeout: 240_000 }, () => {
  let dataDir: string;
  let port: number;
  let baseUrl: string;
  let demo: DemoFile;
  const servers: ServerProcess[] = [];

  function startServer(): ServerProcess {
    const server = new ServerProcess(freshEnv({ DATA_DIR: dataDir, PORT: String(port) }), {
      throughTsx: true, // the README's `npm start`, as written
    });
    servers.push(server);
    return server;
  }

  /** `npx openibs <args>`: the CLI finds the server, the demo app and its key through DATA_DIR. */
  async function cli(...args: string[]): Promise<string> {
    try {
      const { stdout } = await execFileAsync(process.execPath, ['bin/openibs.js', ...args], {
        cwd: ROOT,
        env: freshEnv({ DATA_DIR: dataDir }),
        timeout: CLI_TIMEOUT_MS,
      });
      return stdout;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(
        `openibs ${args.join(' ')} failed: ${failed.message}\n${failed.stderr ?? ''}`,
      );
    }
  }

  async function cliToken(): Promise<string> {
    const output = await cli('token');
    const token = output.trim();
    // An access token is a JWT: three base64url parts, on one line.
    assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/, `token output: ${output}`);
    return token;
  }

  async function mainAccount(token: string): Promise<WireAccount> {
    const response = await fetch(`${baseUrl}/accounts`, {
      headers: { authorization: `Bearer ${token}`, clientid: demo.ibsClientId },
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const body = (await response.json()) as { statusCode: number; data: WireAccount[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.statusCode, 200);
    const account = body.data.find((item) => item.accountNumber === demo.mainAccountNumber);
    assert.ok(account !== undefined, `main account ${demo.mainAccountNumber} is listed`);
    return account;
  }

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'openibs-quick-start-'));
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
  });

  after(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    if (dataDir !== undefined) {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('first start creates the demo client, prints the banner and serves the API', async () => {
    const server = startServer();
    const banner = await server.banner();
    assert.match(banner, new RegExp(`running at ${baseUrl}\\n`));
    assert.match(banner, /Created the demo client/);

    demo = JSON.parse(await readFile(path.join(dataDir, 'sandbox-demo.json'), 'utf8')) as DemoFile;
    assert.equal(demo.baseUrl, baseUrl);
    assert.equal(bannerField(banner, 'OAuth client id:'), demo.oauthClientId);
    assert.equal(bannerField(banner, 'ibs_client_id:'), demo.ibsClientId);
    assert.equal(bannerField(banner, 'main account:'), demo.mainAccountNumber);
    // Embedded PGlite keeps its files under DATA_DIR; the demo key is private to the user.
    assert.ok((await stat(path.join(dataDir, 'pglite'))).isDirectory());
    assert.equal((await stat(demo.privateKeyFile)).mode & 0o077, 0);

    const health = await fetch(`${baseUrl}/health`, {
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    assert.equal(health.status, 200);
  });

  test("the banner's dashboard link signs in once; `openibs dashboard` prints another", async () => {
    const server = servers[servers.length - 1];
    assert.ok(server);
    const link = bannerField(await server.banner(), 'dashboard:');
    assert.match(link, new RegExp(`^${baseUrl}/dashboard/login/[\\w-]+$`));
    const signIn = (url: string) =>
      fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    const first = await signIn(link);
    assert.equal(first.status, 303);
    const cookie = first.headers
      .getSetCookie()
      .find((each) => each.startsWith('openibs_dashboard='));
    assert.ok(cookie, 'a session cookie');
    const overview = await fetch(`${baseUrl}/dashboard`, {
      headers: { cookie: cookie.split(';')[0] ?? '' },
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    assert.equal(overview.status, 200);
    assert.match(await overview.text(), /<h1>Overview<\/h1>/);
    assert.equal((await signIn(link)).status, 401);
    const another = (await cli('dashboard')).trim();
    assert.match(another, new RegExp(`^${baseUrl}/dashboard/login/[\\w-]+$`));
    assert.notEqual(another, link);
    assert.equal((await signIn(another)).status, 303);
  });

  test('`openibs token` prints an access token that lists the funded demo account', async () => {
    const token = await cliToken();
    const account = await mainAccount(token);
    assert.equal(account.accountBalance, DEMO_OPENING_BALANCE);
  });

  test('`openibs sandbox:credit` moves the balance', async () => {
    const output = await cli(
      'sandbox:credit',
      '--account',
      demo.mainAccountNumber,
      '--amount',
      '2500',
    );
    const transfer = JSON.parse(output) as { _id?: unknown; type?: unknown };
    assert.match(String(transfer._id), /^[0-9a-f]{24}$/);
    assert.equal(transfer.type, 'Inwards');
    // Below ₦10,000: no stamp duty.
    const account = await mainAccount(await cliToken());
    assert.equal(account.accountBalance, DEMO_OPENING_BALANCE + 2500);
  });

  test('`openibs sandbox:pay-virtual-account` pays a virtual account (docs/virtual-accounts.md)', async () => {
    const token = await cliToken();
    const headers = {
      authorization: `Bearer ${token}`,
      clientid: demo.ibsClientId,
      'content-type': 'application/json',
    };
    const created = await fetch(`${baseUrl}/virtual-accounts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        validFor: 1800,
        amountControl: 'Fixed',
        amount: 2500,
        callbackUrl: 'https://merchant.example.com/hooks/va',
        settlementAccount: { bankCode: '999240', accountNumber: demo.mainAccountNumber },
        externalReference: 'ORDER-1001',
      }),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const account = ((await created.json()) as { data: { _id: string; accountNumber: string } })
      .data;
    assert.equal(created.status, 200);
    const before = (await mainAccount(token)).accountBalance;
    const output = await cli(
      'sandbox:pay-virtual-account',
      '--account',
      account.accountNumber,
      '--amount',
      '2500',
    );
    const payment = JSON.parse(output) as { sessionId: string; fees: number; vat: number };
    const status = await fetch(`${baseUrl}/virtual-accounts/status`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ sessionId: payment.sessionId }),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const confirmed = ((await status.json()) as { data: Record<string, unknown> }).data;
    assert.deepEqual(
      [
        confirmed.status,
        confirmed.amount,
        confirmed.fees,
        confirmed.vat,
        confirmed.externalReference,
      ],
      ['Completed', 2500, 12.5, 0.94, 'ORDER-1001'],
    );
    assert.equal((await mainAccount(token)).accountBalance, before + 2500 - 12.5 - 0.94);
  });

  test('`openibs sandbox:ussd-dial` pays a USSD reference', async () => {
    const token = await cliToken();
    const headers = { authorization: `Bearer ${token}`, clientid: demo.ibsClientId };
    const api = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}${url}`, {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
      const json = (await response.json()) as { data: unknown };
      assert.equal(response.status, 200, `${method} ${url}: ${JSON.stringify(json)}`);
      return json.data;
    };
    // Its own settlement account, so the main account's balance stays the README's.
    const settlement = (await api('POST', '/accounts', { suffix: 'Shop' })) as WireAccount;
    const { reference } = (await api('POST', '/ussd-payment', {
      amount: '1500.00',
      merchantName: 'Demo Store',
      ussdBankCode: '737',
      callbackUrl: 'https://merchant.example.com/hooks/ussd',
      settlementAccount: { bankCode: '999240', accountNumber: settlement.accountNumber },
    })) as { reference: string };
    const output = await cli('sandbox:ussd-dial', '--reference', reference);
    const dialled = JSON.parse(output) as { outcome: string; reference: { status: string } };
    assert.equal(dialled.outcome, 'paid', output);
    assert.equal(dialled.reference.status, 'Paid', output);
    const paid = (await api('GET', `/ussd-payment/${reference}`)) as { status: string };
    assert.equal(paid.status, 'Paid');
    // ₦1,500 less the 0.5% fee (₦7.50) and its VAT (₦0.56).
    const after = (await api('GET', `/accounts/${settlement._id}`)) as WireAccount;
    assert.equal(after.accountBalance, 1491.94);
  });

  test('`openibs clients:revoke-tokens` stops a token at once, and `audit:list` shows who did it', async () => {
    const token = await cliToken();
    await mainAccount(token);
    const revoked = JSON.parse(
      await cli('clients:revoke-tokens', '--client', demo.ibsClientId, '--operator', 'ada'),
    ) as { status: string; tokensRevokedAt: string };
    assert.equal(revoked.status, 'Active');
    const refused = await fetch(`${baseUrl}/accounts`, {
      headers: { authorization: `Bearer ${token}`, clientid: demo.ibsClientId },
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    assert.equal(refused.status, 401);
    const events = JSON.parse(await cli('audit:list', '--action', 'admin', '--limit', '5')) as {
      actor: string;
      action: string;
      target: string;
    }[];
    assert.deepEqual(
      { actor: events[0]?.actor, action: events[0]?.action, target: events[0]?.target },
      {
        actor: 'break-glass:ada',
        action: 'admin.post /admin/clients/:id/revoke-tokens',
        target: demo.ibsClientId,
      },
    );
    // A token issued a moment later works: the revocation is a time, not a ban.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await mainAccount(await cliToken());
  });

  test('the request log has one line per request, with its status and time, and no credential', async () => {
    const server = servers.at(-1);
    assert.ok(server?.running, 'the server is still running');
    const token = await cliToken();
    const marker = `/accounts?page=0&limit=1&log_check=${Date.now()}&access_token=leaked`;
    const response = await fetch(`${baseUrl}${marker}`, {
      headers: { authorization: `Bearer ${token}`, clientid: demo.ibsClientId },
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    // The line is written once the answer has gone, in the background: wait for it.
    const lines = await waitFor(() => {
      const found = logLines(server.fullOutput).filter((line) =>
        String(line.req?.url ?? '').includes('log_check='),
      );
      return found.length > 0 ? found : undefined;
    });
    assert.equal(lines.length, 1, JSON.stringify(lines));
    const [line] = lines;
    assert.equal(line?.msg, 'request completed');
    assert.equal(line?.res?.statusCode, response.status);
    assert.equal(typeof line?.responseTime, 'number');
    assert.match(String(line?.req?.url), /access_token=%5Bredacted%5D/);
    const all = server.fullOutput;
    assert.ok(!all.includes(token), 'the access token is not in the output');
    assert.ok(!all.includes('leaked'), 'a query credential is not in the output');
    assert.equal(logLines(all).filter((entry) => entry.msg === 'incoming request').length, 0);
  });

  test('SIGTERM shuts the server down gracefully with exit code 0', async () => {
    const server = servers.at(-1);
    assert.ok(server?.running, 'the server is still running');
    const exit = await server.terminate();
    assert.ok(exit !== undefined, `no exit within ${SHUTDOWN_TIMEOUT_MS} ms\n${server.log()}`);
    assert.deepEqual(exit, { code: 0, signal: null }, server.log());
  });

  test('a restart on the same DATA_DIR and another PORT reuses the demo client and keeps the money', async () => {
    // A new port: the CLI must follow the server, which rewrites sandbox-demo.json.
    port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const server = startServer();
    const banner = await server.banner();
    assert.match(banner, /Using the demo client/);
    assert.doesNotMatch(banner, /Created the demo client/);
    assert.equal(bannerField(banner, 'OAuth client id:'), demo.oauthClientId);
    assert.equal(bannerField(banner, 'ibs_client_id:'), demo.ibsClientId);
    assert.equal(bannerField(banner, 'main account:'), demo.mainAccountNumber);

    const account = await mainAccount(await cliToken());
    // The sandbox credit, then the virtual account payment less its fee and VAT.
    assert.equal(account.accountBalance, DEMO_OPENING_BALANCE + 2500 + 2500 - 12.5 - 0.94);

    const exit = await server.terminate();
    assert.deepEqual(exit, { code: 0, signal: null }, server.log());
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// A guard against a server that never starts, not a measure of how fast one does (the bench's
// start row measures that): CI runs both suites side by side on two cores, where load averages
// of 12 are usual and a first start through tsx once took over a minute.
const STARTUP_TIMEOUT_MS = 180_000;
const SHUTDOWN_TIMEOUT_MS = 15_000;
const BANNER = /OpenIBS sandbox is running at [^\n]*\n[\s\S]*API reference:[^\n]*\/docs\n/;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A port nobody listens on right now: bind to port 0, read it, let it go. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The server as `npm start` runs it, as a child process whose output is kept for failures. */
export class ServerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
  private output = '';
  private exit: Exit | undefined;

  /**
   * `throughTsx` starts src/server.ts exactly as `npm start` does; otherwise a suite run
   * compiled (scripts/run-tests.js) starts the server bundled beside its tests: the same code,
   * without tsx's 2 s of CPU a start.
   */
  constructor(env: NodeJS.ProcessEnv, options: { throughTsx?: boolean } = {}) {
    const bundle = process.env.OPENIBS_TEST_SERVER_BUNDLE;
    const entry =
      bundle === undefined || options.throughTsx === true
        ? ['--import', 'tsx', 'src/server.ts']
        : ['--enable-source-maps', bundle];
    this.child = spawn(process.execPath, entry, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      stream?.setEncoding('utf8').on('data', (chunk: string) => {
        this.output += chunk;
      });
    }
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** The sandbox banner, once printed in full: listening, migrated, demo client in place. */
  async banner(timeoutMs = STARTUP_TIMEOUT_MS): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = BANNER.exec(this.output);
      if (match !== null) {
        return match[0];
      }
      if (!this.running) {
        throw new Error(
          `server exited (${JSON.stringify(this.exit)}) before its banner\n${this.log()}`,
        );
      }
      if (Date.now() > deadline) {
        throw new Error(`no sandbox banner within ${timeoutMs} ms\n${this.log()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** SIGTERM, then the exit, or undefined if it has not exited within the timeout. */
  async terminate(timeoutMs = SHUTDOWN_TIMEOUT_MS): Promise<Exit | undefined> {
    this.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGKILL: no shutdown hook runs, nothing in flight is finished. */
  async kill(): Promise<Exit> {
    if (this.running) {
      this.child.kill('SIGKILL');
    }
    return this.exited;
  }

  log(): string {
    return `--- server output ---\n${this.output.slice(-6000)}`;
  }

  /** Everything the server wrote so far, stdout and stderr. */
  get fullOutput(): string {
    return this.output;
  }
}

/**
 * `npm start` as a child on a free port, with exactly the given environment plus what Node needs
 * from ours (PATH, HOME, TMPDIR); resolves once the sandbox banner is out.
 */
export async function startServerProcess(
  env: Record<string, string | undefined>,
): Promise<{ server: ServerProcess; baseUrl: string }> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...env, PORT: String(port) };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT']) {
    const value = process.env[name];
    if (value !== undefined) {
      childEnv[name] = value;
    }
  }
  const server = new ServerProcess(childEnv);
  try {
    await server.banner();
  } catch (error) {
    await server.kill();
    throw error;
  }
  return { server, baseUrl: `http://127.0.0.1:${port}` };
}

import { type ChildProcess, fork } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type {
  CommandMessage,
  CommandName,
  Commands,
  ReadyMessage,
  ServerMessage,
} from './protocol.ts';

const SERVER_ENTRIES = {
  stripped: fileURLToPath(new URL('./bench-server.ts', import.meta.url)),
  deployed: fileURLToPath(new URL('./deployed-server.ts', import.meta.url)),
};
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

export interface ServerProcess {
  readonly ready: ReadyMessage;
  readonly baseUrl: string;
  command<Name extends CommandName>(
    name: Name,
    request: Commands[Name]['request'],
    timeoutMs: number,
  ): Promise<Commands[Name]['reply']>;
  stop(): Promise<void>;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export interface ServerStart {
  /** bench-server.ts (default: no logging, limits, metrics or workers) or src/server.ts. */
  readonly entry?: keyof typeof SERVER_ENTRIES;
  /** Where the server's standard output (its request log, as deployed) goes; default ours. */
  readonly stdoutPath?: string;
}

/** Starts a server under test in a child Node process (tsx loader) and waits until it listens. */
export async function startServer(
  env: NodeJS.ProcessEnv,
  start: ServerStart = {},
): Promise<ServerProcess> {
  const stdout = start.stdoutPath === undefined ? 'inherit' : openSync(start.stdoutPath, 'w');
  const child = fork(SERVER_ENTRIES[start.entry ?? 'stripped'], [], {
    cwd: REPO_ROOT,
    env,
    // What `npm start` runs: node --import tsx. With gc() exposed, which changes nothing until
    // called: the export part collects the heap before each measurement (statement-exports.ts).
    // BENCH_NODE_FLAGS (a --variant's setting) adds node or V8 flags NODE_OPTIONS refuses.
    execArgv: ['--import', 'tsx', '--expose-gc', ...nodeFlags(env)],
    // Structured clone, so bigint and Date survive the channel.
    serialization: 'advanced',
    stdio: ['ignore', stdout, 'inherit', 'ipc'],
  });
  if (typeof stdout === 'number') {
    closeSync(stdout);
  }
  const pending = new Map<number, Pending>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    for (const waiter of pending.values()) {
      waiter.reject(new Error(`bench-server exited (code ${code}, signal ${signal})`));
    }
    pending.clear();
  });
  child.on('message', (message: ServerMessage) => {
    if (message.kind !== 'reply') {
      return;
    }
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) {
      waiter?.resolve(message.value);
    } else {
      waiter?.reject(new Error(`bench-server: ${message.error}`));
    }
  });
  const ready = await waitForReady(child);
  let nextId = 1;
  return {
    ready,
    baseUrl: `http://127.0.0.1:${ready.port}`,
    command(name, request, timeoutMs) {
      const id = nextId++;
      const message: CommandMessage = { kind: 'command', id, name, request };
      const reply = new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send(message);
      });
      return withTimeout(reply, timeoutMs, `bench-server command ${name}`).finally(() =>
        pending.delete(id),
      ) as Promise<Commands[typeof name]['reply']>;
    },
    stop: () => stopChild(child, exited),
  };
}

function waitForReady(child: ChildProcess): Promise<ReadyMessage> {
  const ready = new Promise<ReadyMessage>((resolve, reject) => {
    child.on('message', (message: ServerMessage) => {
      if (message.kind === 'ready') {
        resolve(message);
      }
    });
    child.once('exit', (code) => reject(new Error(`bench-server failed to start (exit ${code})`)));
    child.once('error', reject);
  });
  return withTimeout(ready, READY_TIMEOUT_MS, 'bench-server start').catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
}

/** SIGTERM (the server closes its pool), then SIGKILL if it has not exited in time. */
async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Extra flags for one server's node, from its BENCH_NODE_FLAGS (space-separated). */
function nodeFlags(env: NodeJS.ProcessEnv): string[] {
  return (env.BENCH_NODE_FLAGS ?? '').split(' ').filter((flag) => flag.startsWith('--'));
}

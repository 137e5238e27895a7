import type { LedgerViolations } from '../src/ledger/ledger-audit.ts';
import type {
  DbCounters,
  LedgerRateReply,
  LedgerRateRequest,
  RunRowsReply,
} from './ledger-rate.ts';
import type { BalanceCheck, SeedOptions, SeedSummary } from './seed-ledger.ts';

/**
 * Messages between the bench (parent) and a server under test (child: bench-server.ts or
 * deployed-server.ts) over the IPC channel, with the
 * 'advanced' serialization so bigint and Date cross intact. The database belongs to the server
 * process (PGlite cannot be opened by two processes), so seeding runs there, on command.
 */
export interface Commands {
  seed: { request: SeedOptions; reply: SeedSummary };
  analyze: { request: Record<string, never>; reply: { elapsedMs: number } };
  checkBalance: { request: { accountId: string }; reply: BalanceCheck };
  verifyLedger: { request: Record<string, never>; reply: LedgerViolations };
  /** The raw posting rate: ledger.post from many lanes at once, no HTTP. */
  ledgerRate: { request: LedgerRateRequest; reply: LedgerRateReply };
  /** The server's CPU time so far and its database round trips so far. */
  processStats: {
    request: Record<string, never>;
    reply: { cpuUserUs: number; cpuSystemUs: number; db: DbCounters };
  };
  countRunRows: { request: { clientId: string }; reply: RunRowsReply };
  /** Starts sampling the server's resident memory (every 10 ms), or stops and answers it. */
  memoryWatch: { request: { action: 'start' | 'stop' }; reply: MemoryWatch };
  /** Starts a V8 CPU profile of the server, or stops it and writes it to `path` (.cpuprofile). */
  cpuProfile: {
    request: { action: 'start' | 'stop'; path?: string };
    reply: { path: string | undefined };
  };
}

/** The server's resident set size (bytes) when the watch started, and its peak since. */
export interface MemoryWatch {
  readonly baselineRss: number;
  readonly peakRss: number;
  /**
   * On stop: the peak growth (bytes) of each part over the watch, each at its own peak: V8's
   * heap (used, and reserved), and what lives outside it (external, of which arrayBuffers).
   */
  readonly growth?: {
    readonly heapUsed: number;
    readonly heapTotal: number;
    readonly external: number;
    readonly arrayBuffers: number;
  };
}

export type CommandName = keyof Commands;

export interface CommandMessage<Name extends CommandName = CommandName> {
  readonly kind: 'command';
  readonly id: number;
  readonly name: Name;
  readonly request: Commands[Name]['request'];
}

export interface ReadyMessage {
  readonly kind: 'ready';
  readonly port: number;
  readonly publicBaseUrl: string;
  readonly dbKind: 'postgres' | 'pglite';
  readonly dbVersion: string;
}

export type ReplyMessage =
  | { readonly kind: 'reply'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly kind: 'reply'; readonly id: number; readonly ok: false; readonly error: string };

export type ServerMessage = ReadyMessage | ReplyMessage;

export function isCommandMessage(value: unknown): value is CommandMessage {
  return (
    typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'command'
  );
}

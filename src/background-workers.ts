import type { Config } from './config/config.ts';
import type { Db } from './db/db.ts';
import { DESCRIPTORS } from './descriptors.ts';
import type { BackgroundWorker, ModuleWorker } from './http/module-descriptor.ts';
import type { Services } from './services.ts';
import { type Clock, SandboxClock } from './shared/clock.ts';

export interface BackgroundWorkerDeps {
  readonly config: Config;
  readonly db: Db;
  /** The bank's clock: in the sandbox the test clock, whose advances wake the started workers. */
  readonly clock: Clock;
  /** Real time, for what the test clock does not move (services.ts); by default `clock`. */
  readonly wallClock?: Clock;
  readonly services: Services;
  /** Told about a run of failed rounds (throttled) and when a worker works again. */
  readonly report: {
    readonly onError: (worker: string, error: unknown, failedRounds: number) => void;
    readonly onRecovered: (worker: string, failedRounds: number) => void;
  };
}

/** A worker's name: `statusQueries`, `webhookDeliveries`, ... (its module's descriptor names it). */
export type WorkerName = string;

/** Every background loop of every descriptor, in the descriptors' order. */
const MODULE_WORKERS: readonly ModuleWorker<Services>[] = DESCRIPTORS.flatMap(
  (descriptor) => descriptor.workers ?? [],
);

/** Every worker's name: what the worker process (`npm run worker`) starts. */
export const ALL_WORKERS: readonly WorkerName[] = MODULE_WORKERS.map((worker) => worker.name);

/**
 * Every background loop the descriptors declare (the status queries that settle Processing NIP
 * transfers, pending VAS purchases and USSD payments whose notice was lost, checkout
 * completions, webhook delivery, retention), tuned from the configuration. The server runs
 * those its configuration enables; the worker process (`npm run worker`) runs them all.
 * Several can run against one PostgreSQL: they claim disjoint work with FOR UPDATE SKIP LOCKED.
 */
export function createBackgroundWorkers(deps: BackgroundWorkerDeps) {
  const all = new Map<WorkerName, { worker: BackgroundWorker; wakesLast: boolean }>();
  for (const declared of MODULE_WORKERS) {
    const worker = declared.create({
      config: deps.config,
      db: deps.db,
      clock: deps.clock,
      wallClock: deps.wallClock,
      services: deps.services,
      reporting: {
        onError: (error, failedRounds) => deps.report.onError(declared.name, error, failedRounds),
        onRecovered: (failedRounds) => deps.report.onRecovered(declared.name, failedRounds),
      },
    });
    all.set(declared.name, { worker, wakesLast: declared.wakesLast === true });
  }
  const started = new Set<WorkerName>();
  /**
   * A round of every started worker now; those that wake last (webhook delivery) after the
   * others, so the events the others' rounds wrote go out in the same wake. Answers when those
   * rounds are done.
   */
  async function wake(): Promise<void> {
    const woken = [...started].map((name) => all.get(name)).filter((entry) => entry !== undefined);
    await Promise.all(woken.filter((entry) => !entry.wakesLast).map(({ worker }) => worker.wake()));
    await Promise.all(woken.filter((entry) => entry.wakesLast).map(({ worker }) => worker.wake()));
  }
  // In the sandbox, moving the test clock makes work due: the workers look at once.
  let unsubscribe: (() => void) | undefined;
  return {
    wake,
    /** Starts the named workers (by default, those the configuration runs in the server). */
    start(names: readonly WorkerName[] = enabledInServer(deps.config)) {
      for (const name of names) {
        const entry = all.get(name);
        if (entry === undefined) {
          throw new Error(`no background worker is named ${name}`);
        }
        entry.worker.start();
        started.add(name);
      }
      if (unsubscribe === undefined && deps.clock instanceof SandboxClock) {
        unsubscribe = deps.clock.onAdvance(wake);
      }
      return [...started];
    },
    /** Stops every worker (one never started stops at once) and lets go of what they hold. */
    async stop() {
      unsubscribe?.();
      unsubscribe = undefined;
      await Promise.all([...all.values()].map(({ worker }) => worker.stop()));
    },
  };
}

/** What the workers report, written to a pino logger (the server's, or the worker process's). */
export function reportTo(log: {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}): BackgroundWorkerDeps['report'] {
  return {
    onError: (worker, error, failedRounds) =>
      log.warn({ err: error, worker, failedRounds }, 'background round failed'),
    onRecovered: (worker, failedRounds) =>
      log.info({ worker, failedRounds }, 'background worker recovered'),
  };
}

function enabledInServer(config: Config): WorkerName[] {
  return MODULE_WORKERS.filter((worker) => worker.inServer(config)).map((worker) => worker.name);
}

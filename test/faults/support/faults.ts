// The seeded fault schedule and the code that carries it out. Two tracks run side by side, each
// one fault at a time: the infrastructure (database sessions killed, the database unreachable,
// an API server or a worker SIGKILLed and restarted) and the webhook receiver (down, answering
// 500, hanging). The plan is a pure function of the seed; only when each fault actually starts
// depends on how long the previous one took (a restart's duration varies).
import type { WebhookReceiver } from '../../webhook-receiver.ts';
import type { Prng } from './prng.ts';
import type { Slot, Topology } from './topology.ts';

export type FaultKind =
  | 'db-terminate'
  | 'db-outage'
  | 'api-kill'
  | 'worker-kill'
  | 'webhook-down'
  | 'webhook-500'
  | 'webhook-hang';

const INFRA_KINDS: readonly FaultKind[] = ['db-terminate', 'db-outage', 'api-kill', 'worker-kill'];
const RECEIVER_KINDS: readonly FaultKind[] = ['webhook-down', 'webhook-500', 'webhook-hang'];

export interface PlannedFault {
  readonly kind: FaultKind;
  /** Not before this many ms after the load started. */
  readonly atMs: number;
  /** How long it lasts: the outage, the process's time dead, the receiver's bad spell. */
  readonly durationMs: number;
  /** Slot names (`api-0`, `worker-1`) it hits; none for the receiver's faults. */
  readonly targets: readonly string[];
  /** db-terminate: how many rounds of pg_terminate_backend, ~300 ms apart. */
  readonly rounds: number;
}

export interface InjectedFault extends PlannedFault {
  readonly startedMs: number;
  endedMs?: number;
  /** What it did (sessions terminated, ...), or why it was skipped. */
  detail: string;
}

/** What a fault of this kind costs in time, to space the plan (restarts are slow on 2 cores). */
function estimatedMs(fault: PlannedFault): number {
  switch (fault.kind) {
    case 'api-kill':
      return fault.durationMs + 9_000;
    case 'worker-kill':
      return fault.durationMs + 7_000;
    case 'db-terminate':
      return fault.rounds * 400;
    default:
      return fault.durationMs;
  }
}

const slotNames = (kind: 'api' | 'worker', count: number) =>
  Array.from({ length: count }, (_, index) => `${kind}-${index}`);

function planOne(rng: Prng, kind: FaultKind, atMs: number, apis: number, workers: number) {
  const every = [...slotNames('api', apis), ...slotNames('worker', workers)];
  switch (kind) {
    case 'db-terminate':
      return {
        kind,
        atMs,
        durationMs: 0,
        targets: rng.chance(0.5) ? every : rng.subset(every),
        rounds: rng.int(1, 3),
      };
    case 'db-outage':
      return {
        kind,
        atMs,
        durationMs: rng.int(1_500, 4_500),
        targets: rng.chance(0.6) ? every : rng.subset(every),
        rounds: 0,
      };
    case 'api-kill':
      return {
        kind,
        atMs,
        durationMs: rng.int(300, 2_500),
        targets: [rng.pick(slotNames('api', apis))],
        rounds: 0,
      };
    case 'worker-kill':
      return {
        kind,
        atMs,
        durationMs: rng.int(300, 2_500),
        targets: rng.chance(0.2)
          ? slotNames('worker', workers)
          : [rng.pick(slotNames('worker', workers))],
        rounds: 0,
      };
    default:
      return { kind, atMs, durationMs: rng.int(1_500, 5_000), targets: [], rounds: 0 };
  }
}

/**
 * The schedule for a load of about loadMs: every infrastructure kind at least once (in a seeded
 * order), then more at random while they fit; on the receiver's track, each of its kinds once,
 * then more at random.
 */
export function planFaults(rng: Prng, loadMs: number, apis: number, workers: number) {
  const infra: PlannedFault[] = [];
  let at = rng.int(2_000, 4_000);
  const infraKinds = rng.shuffle(INFRA_KINDS);
  for (let index = 0; index < infraKinds.length || at < loadMs - 6_000; index += 1) {
    const kind = infraKinds[index] ?? rng.pick(INFRA_KINDS);
    const fault = planOne(rng, kind, at, apis, workers);
    infra.push(fault);
    at += estimatedMs(fault) + rng.int(1_500, 4_000);
  }
  const receiver: PlannedFault[] = [];
  at = rng.int(1_000, 4_000);
  const receiverKinds = rng.shuffle(RECEIVER_KINDS);
  for (let index = 0; index < receiverKinds.length || at < loadMs - 4_000; index += 1) {
    const kind = receiverKinds[index] ?? rng.pick(RECEIVER_KINDS);
    const fault = planOne(rng, kind, at, apis, workers);
    receiver.push(fault);
    at += fault.durationMs + rng.int(2_000, 6_000);
  }
  return { infra, receiver };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Carries out one track of the plan from `startedAt`, a fault at a time; stops taking new ones
 * once `stopAt()` passes (the one under way is finished and undone first). Every fault's
 * damage is undone before the next begins: the database reachable, every process serving.
 */
export async function runTrack(
  track: readonly PlannedFault[],
  deps: {
    readonly topology: Topology;
    readonly receiver: WebhookReceiver;
    readonly receiverPort: number;
    readonly startedAt: number;
    /** Until when new faults may start (epoch ms); read again before each fault. */
    readonly stopAt: () => number;
    readonly log: InjectedFault[];
    readonly say: (line: string) => void;
  },
): Promise<void> {
  const { topology, receiver } = deps;
  const slotOf = (name: string): Slot => {
    const found = topology.slots.find((slot) => `${slot.kind}-${slot.index}` === name);
    if (found === undefined) {
      throw new Error(`no process ${name}`);
    }
    return found;
  };
  for (const planned of track) {
    const wait = deps.startedAt + planned.atMs - Date.now();
    if (wait > 0) {
      await sleep(wait);
    }
    if (Date.now() > deps.stopAt()) {
      break;
    }
    const fault: InjectedFault = { ...planned, startedMs: Date.now() - deps.startedAt, detail: '' };
    deps.log.push(fault);
    const slots = planned.targets.map(slotOf);
    const names = planned.targets.join(',');
    deps.say(`t+${(fault.startedMs / 1000).toFixed(1)}s ${planned.kind} ${names}`.trimEnd());
    switch (planned.kind) {
      case 'db-terminate': {
        const counts: number[] = [];
        for (let round = 0; round < planned.rounds; round += 1) {
          counts.push(await topology.terminateBackends(slots));
          await sleep(300);
        }
        fault.detail = `terminated ${counts.join('+')} sessions of ${names}`;
        break;
      }
      case 'db-outage':
        await Promise.all(slots.map((slot) => slot.proxy.cut()));
        try {
          await sleep(planned.durationMs);
        } finally {
          await Promise.all(slots.map((slot) => slot.proxy.open()));
        }
        fault.detail = `${names} cut off for ${planned.durationMs} ms`;
        break;
      case 'api-kill':
      case 'worker-kill':
        await Promise.all(slots.map((slot) => topology.killAndRestart(slot, planned.durationMs)));
        fault.detail = `${names} SIGKILLed, dead ${planned.durationMs} ms, restarted`;
        break;
      case 'webhook-down':
        await receiver.stop();
        try {
          await sleep(planned.durationMs);
        } finally {
          await receiver.start(deps.receiverPort);
        }
        fault.detail = `receiver down for ${planned.durationMs} ms`;
        break;
      case 'webhook-500':
      case 'webhook-hang':
        receiver.mode = planned.kind === 'webhook-500' ? 'error' : 'hang';
        try {
          await sleep(planned.durationMs);
        } finally {
          receiver.mode = 'ok';
        }
        fault.detail = `receiver answering ${planned.kind.slice('webhook-'.length)} for ${planned.durationMs} ms`;
        break;
    }
    fault.endedMs = Date.now() - deps.startedAt;
  }
}

/** How many of each kind were injected. */
export function faultCounts(log: readonly InjectedFault[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const fault of log) {
    counts[fault.kind] = (counts[fault.kind] ?? 0) + 1;
  }
  return counts;
}

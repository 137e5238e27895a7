/** Time comes from an injected clock so tests can move it; domain code never calls new Date(). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** What a sandbox clock reads now, and how far it is from real time. */
export interface ClockState {
  readonly now: Date;
  /** The clock's time minus real time, in milliseconds (it changes while frozen). */
  readonly offsetMs: number;
  /** Frozen: the time moves only when advanced; running: real time plus an offset. */
  readonly frozen: boolean;
}

export interface ClockSettings {
  /** Where the clock starts; by default real time. */
  readonly startAt?: Date;
  /** Default false: the clock runs from startAt at real speed. */
  readonly frozen?: boolean;
}

/** Told after every advance, with the new state; the advance waits for it (boundedly). */
export type AdvanceListener = (state: ClockState) => unknown;

/** The longest one advance may be: anything longer is a typo, not a test. */
export const MAX_ADVANCE_MS = 400 * 86_400_000;

/** How long an advance waits for its listeners (the workers' rounds it woke) before answering. */
const LISTENER_WAIT_MS = 5_000;

/**
 * The sandbox's test clock: real time plus an offset (running), or a fixed time (frozen). An
 * advance only ever moves it forward and tells the listeners (the background workers, which run
 * a round at once); a reset may put it anywhere (the reset of the whole bank). Production keeps
 * `systemClock`.
 */
export class SandboxClock implements Clock {
  private frozenAtMs = 0;
  private offsetMs = 0;
  private frozen = false;
  private readonly listeners = new Set<AdvanceListener>();
  private readonly realNow: () => number;

  constructor(settings: ClockSettings = {}, realNow: () => number = Date.now) {
    this.realNow = realNow;
    this.reset(settings);
  }

  now(): Date {
    return new Date(this.frozen ? this.frozenAtMs : this.realNow() + this.offsetMs);
  }

  state(): ClockState {
    const now = this.now();
    return { now, offsetMs: now.getTime() - this.realNow(), frozen: this.frozen };
  }

  /**
   * Moves the clock forward by `ms` (> 0, at most MAX_ADVANCE_MS) and tells the listeners,
   * waiting for them up to a few seconds; answers the state after.
   */
  async advance(ms: number): Promise<ClockState> {
    if (!Number.isFinite(ms) || ms <= 0 || ms > MAX_ADVANCE_MS) {
      throw new RangeError(`a clock advance must be more than 0 and at most ${MAX_ADVANCE_MS} ms`);
    }
    this.shift(ms);
    const state = this.state();
    const told = [...this.listeners].map((listener) =>
      Promise.resolve()
        .then(() => listener(state))
        .catch(() => undefined),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(told),
      new Promise((resolve) => {
        timer = setTimeout(resolve, LISTENER_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    return this.state();
  }

  /** Back to real time, or to the settings' start (frozen there or running from it). */
  reset(settings: ClockSettings = {}): ClockState {
    const target = settings.startAt?.getTime() ?? this.realNow();
    this.frozen = settings.frozen === true;
    this.frozenAtMs = target;
    this.offsetMs = target - this.realNow();
    return this.state();
  }

  /** Freezes the clock where it is, or lets a frozen one run on from where it stopped. */
  freeze(frozen: boolean): ClockState {
    if (frozen !== this.frozen) {
      this.reset({ startAt: this.now(), frozen });
    }
    return this.state();
  }

  /** Calls `listener` after every advance; answers a function that stops it. */
  onAdvance(listener: AdvanceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Moves the time by `ms`, either way, telling nobody. */
  protected shift(ms: number): void {
    if (this.frozen) {
      this.frozenAtMs += ms;
    } else {
      this.offsetMs += ms;
    }
  }
}

/**
 * A clock tests set and advance: a sandbox clock frozen at its start, which a test may also move
 * backwards (the admin API never can).
 */
export class ManualClock extends SandboxClock {
  constructor(start: Date = new Date()) {
    super({ startAt: start, frozen: true });
  }

  advanceSeconds(seconds: number): void {
    this.shift(seconds * 1000);
  }

  set(date: Date): void {
    this.reset({ startAt: date, frozen: true });
  }
}

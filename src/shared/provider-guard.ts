import CircuitBreaker from 'opossum';

/** How long a vendor may take, and when to stop asking a vendor that keeps failing. */
export interface ProviderGuardOptions {
  /** Names the breaker in logs and metrics: `rail`, `biller`, ... */
  readonly name: string;
  /** A call not answered within this is given up: its degraded outcome is answered. */
  readonly timeoutMs: number;
  /** Off: only the deadline applies (tests of vendor outcomes that must never trip it). */
  readonly breakerEnabled: boolean;
  /** The breaker opens when at least this share of calls failed in the rolling window ... */
  readonly errorThresholdPercent: number;
  /** ... and the window holds at least this many calls. */
  readonly minimumCalls: number;
  /** How long it stays open before one call is let through to try the vendor again. */
  readonly resetTimeoutMs: number;
}

/**
 * What a guarded method answers instead of the vendor's answer. The reason given is short
 * ("no answer within 10000 ms", the error's message, "not called while its circuit breaker is
 * open"): the policy says whose.
 */
export interface MethodPolicy<Outcome> {
  /**
   * The call was made and not answered in time (or threw): the vendor may have acted, so this
   * must be an outcome the caller settles later (a status query), never a definitive failure.
   */
  readonly unanswered: (reason: string) => Outcome;
  /**
   * The breaker is open, so the vendor was not called at all: a definitive "not done" is safe
   * here (nothing was sent). Defaults to `unanswered`.
   */
  readonly notCalled?: (reason: string) => Outcome;
  /** An answer that says the vendor is unhealthy counts against the breaker too. */
  readonly isFailure?: (outcome: Outcome) => boolean;
}

type AnyMethod = (...args: never[]) => Promise<unknown>;
type Policies<P> = {
  readonly [K in keyof P]?: P[K] extends AnyMethod
    ? MethodPolicy<Awaited<ReturnType<P[K]>>>
    : never;
};

class DegradedAnswer extends Error {
  constructor(readonly outcome: unknown) {
    super('the vendor answered that it is unavailable');
  }
}

/**
 * Wraps a vendor (rail, biller, identity bureau, USSD gateway) so that no call waits past its
 * deadline and a vendor that keeps failing is not called for a while (opossum's circuit
 * breaker), each listed method answering its degraded outcome instead. The vendor's own promise
 * is left to settle in the background; requests and database connections are not held by it.
 * Methods not listed (handler registration, simulator controls) pass straight through.
 */
export function guardProvider<P extends object>(
  provider: P,
  policies: Policies<P>,
  options: ProviderGuardOptions,
): P {
  const guarded = new Map<PropertyKey, AnyMethod>();
  for (const [method, policy] of Object.entries(policies) as [string, MethodPolicy<unknown>][]) {
    const original = (provider as Record<string, AnyMethod>)[method];
    if (typeof original !== 'function') {
      continue;
    }
    // One breaker per method: a vendor whose sends hang while its lookups answer is still
    // failing its sends, and cheap successes of one method must not hide that.
    const breaker = new CircuitBreaker((call: () => Promise<unknown>) => call(), {
      name: `${options.name}.${method}`,
      timeout: options.timeoutMs,
      errorThresholdPercentage: options.errorThresholdPercent,
      // Off means "never opens": opossum's own `enabled: false` would skip the deadline too.
      volumeThreshold: options.breakerEnabled ? options.minimumCalls : Number.MAX_SAFE_INTEGER,
      resetTimeout: options.resetTimeoutMs,
    });
    guarded.set(method, async (...args: never[]) => {
      try {
        return await breaker.fire(async () => {
          const outcome = await original.apply(provider, args);
          if (policy.isFailure?.(outcome) === true) {
            throw new DegradedAnswer(outcome);
          }
          return outcome;
        });
      } catch (error) {
        if (error instanceof DegradedAnswer) {
          return error.outcome;
        }
        if (isOpen(error)) {
          return (policy.notCalled ?? policy.unanswered)(
            'not called while its circuit breaker is open',
          );
        }
        return policy.unanswered(
          isTimeout(error)
            ? `no answer within ${options.timeoutMs} ms`
            : error instanceof Error
              ? error.message
              : String(error),
        );
      }
    });
  }
  return new Proxy(provider, {
    get(target, property, receiver) {
      return guarded.get(property) ?? Reflect.get(target, property, receiver);
    },
  });
}

function isOpen(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'EOPENBREAKER';
}

function isTimeout(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'ETIMEDOUT';
}

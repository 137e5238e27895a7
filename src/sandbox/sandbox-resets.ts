/**
 * What a sandbox reset clears outside the database: state that parts of the process hold in
 * memory (simulators' queues, rate-limit counters, faults, the clock, webhook deliveries on the
 * wire). Each part registers its own clearing under a name; a reset runs them all, in the order
 * they were registered, before the database is put back to the fixtures.
 */
export interface SandboxResets {
  /**
   * Registers (or, under a name already taken, replaces) a clearing. Answers a function that
   * unregisters it, for a part that goes away before the process does (an app closed in a test).
   */
  register(name: string, clear: () => void | Promise<void>): () => void;
  /**
   * A reset begins: the generation moves on, then every clearing runs, one after the other; the
   * first failure fails the reset.
   */
  runAll(): Promise<void>;
  /** The reset's database work is over: the generation moves on again. */
  settled(): void;
  /**
   * Moves at each start and end of a reset: a request that saw it change between its arrival
   * and its answer crossed a reset (the error handler answers SANDBOX_RESET for its failures).
   */
  generation(): number;
  /** Whether a reset is under way (begun, its database work not yet over). */
  resetting(): boolean;
  /** The names registered, in order (the reset's answer and its tests show them). */
  names(): string[];
}

export function createSandboxResets(): SandboxResets {
  const clearings = new Map<string, () => void | Promise<void>>();
  let generation = 0;
  return {
    register(name, clear) {
      clearings.set(name, clear);
      return () => {
        if (clearings.get(name) === clear) {
          clearings.delete(name);
        }
      };
    },
    async runAll() {
      generation += 1;
      for (const clear of [...clearings.values()]) {
        await clear();
      }
    },
    settled() {
      generation += 1;
    },
    generation: () => generation,
    resetting: () => generation % 2 === 1,
    names: () => [...clearings.keys()],
  };
}

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
  /** Runs every clearing, one after the other; the first failure fails the reset. */
  runAll(): Promise<void>;
  /** The names registered, in order (the reset's answer and its tests show them). */
  names(): string[];
}

export function createSandboxResets(): SandboxResets {
  const clearings = new Map<string, () => void | Promise<void>>();
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
      for (const clear of [...clearings.values()]) {
        await clear();
      }
    },
    names: () => [...clearings.keys()],
  };
}

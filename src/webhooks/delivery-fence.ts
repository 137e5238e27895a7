/**
 * Keeps a sandbox reset from being followed by webhooks of the world it wiped. The delivery
 * worker reads the fence's generation before it claims events and sends each one only through
 * `send`, which refuses once a reset has moved the generation on; a reset moves it, then waits
 * for the sends already on the wire (each bounded by the webhook timeout), so when the reset
 * answers, nothing claimed before it can still reach a receiver.
 */
export interface DeliveryFence {
  /** The generation to claim events under. */
  generation(): number;
  /**
   * Runs `work` (the send and its record) unless the generation moved since `claimedUnder`;
   * answers undefined when it did not run.
   */
  send<T>(claimedUnder: number, work: () => Promise<T>): Promise<T | undefined>;
  /** Moves the generation on and waits for the sends that started before. */
  advance(): Promise<void>;
}

export function createDeliveryFence(): DeliveryFence {
  let current = 0;
  const inFlight = new Set<Promise<unknown>>();
  return {
    generation: () => current,
    async send(claimedUnder, work) {
      if (claimedUnder !== current) {
        return undefined;
      }
      const running = work();
      inFlight.add(running);
      try {
        return await running;
      } finally {
        inFlight.delete(running);
      }
    },
    async advance() {
      current += 1;
      // A send that fails is the worker's to report; the reset only waits for it to end.
      await Promise.allSettled([...inFlight]);
    },
  };
}

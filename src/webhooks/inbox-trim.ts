/**
 * How many of a client's entries a worker records before it trims that client's inbox again.
 * A trim finds the client's 1,000th newest entry (a walk of 1,000 index entries) and deletes
 * what is older: ~1.3 ms of PostgreSQL a trim, which done every round cost as much per event as
 * recording the attempt (docs/benchmarks.md, "As deployed", 2026-11-29, evening).
 */
export const INBOX_TRIM_EVERY = 100;

/** The most clients a worker counts entries for; past it, every counted client is trimmed. */
const MAX_COUNTED_CLIENTS = 10_000;

/**
 * Which clients' inboxes a round trims: a client once INBOX_TRIM_EVERY of its entries have been
 * recorded by this worker since it last trimmed it. So a client's inbox holds its newest
 * INBOX_KEEP_PER_CLIENT entries and, between trims, fewer than INBOX_TRIM_EVERY more per worker
 * that records its attempts.
 */
export function createInboxTrimSchedule(
  every = INBOX_TRIM_EVERY,
  maxClients = MAX_COUNTED_CLIENTS,
) {
  const untrimmed = new Map<string, number>();
  return {
    /** Counts a round's entries; answers the clients to trim now (and forgets their count). */
    due(entries: readonly { readonly clientId: string }[]): string[] {
      for (const { clientId } of entries) {
        untrimmed.set(clientId, (untrimmed.get(clientId) ?? 0) + 1);
      }
      if (untrimmed.size > maxClients) {
        const all = [...untrimmed.keys()];
        untrimmed.clear();
        return all;
      }
      const due = [...untrimmed].filter(([, count]) => count >= every).map(([id]) => id);
      for (const clientId of due) {
        untrimmed.delete(clientId);
      }
      return due;
    },
  };
}

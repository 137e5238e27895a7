import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/db.ts';
import { type InboxEntry, type InboxFilter, listInboxEntries } from './inbox-repository.ts';

/** How often a waiting read looks again (the delivery worker may run in another process). */
const WAIT_POLL_MS = 100;

/** The longest a read may wait for an entry. */
export const INBOX_MAX_WAIT_SECONDS = 30;

/**
 * The sandbox's webhook inbox (docs/sandbox-testing-controls.md): the delivery attempts the
 * delivery worker recorded, newest first, and a read that waits until one matches.
 */
export function createWebhookInbox(deps: { readonly db: Db }) {
  return {
    /**
     * Entries that match the filter; with `waitMs`, waits (real time, whatever the bank's
     * clock says) until at least one matches, the time is up, or `signal` aborts.
     */
    async list(
      filter: InboxFilter,
      options: { readonly waitMs?: number; readonly signal?: AbortSignal } = {},
    ): Promise<{ entries: InboxEntry[]; total: number }> {
      const deadline =
        performance.now() + Math.min(options.waitMs ?? 0, INBOX_MAX_WAIT_SECONDS * 1000);
      for (;;) {
        const found = await listInboxEntries(deps.db, filter);
        const left = deadline - performance.now();
        // The page and the count are two reads (on PostgreSQL, two connections): an entry
        // recorded between them is counted but not on the page, so look again for it.
        const matched = found.entries.length > 0 || (found.total > 0 && filter.offset > 0);
        if (matched || left <= 0 || options.signal?.aborted === true) {
          return found;
        }
        try {
          await sleep(Math.min(WAIT_POLL_MS, left), undefined, { signal: options.signal });
        } catch {
          // Aborted (the caller went away, or the server is closing): answer what there is.
        }
      }
    },
  };
}

export type WebhookInbox = ReturnType<typeof createWebhookInbox>;

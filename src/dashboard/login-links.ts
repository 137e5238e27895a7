import { randomBytes } from 'node:crypto';
import { constantTimeEqual } from '../shared/hashing.ts';

/**
 * One-time sign-in links for the person at the terminal: the sandbox banner prints one at start,
 * and `npx openibs dashboard` asks the admin API for another. A link works once, within its
 * lifetime, in the process that made it; it carries a random ticket, never the admin token.
 */
export interface LoginLinks {
  /** A new ticket; the link is `/dashboard/login/<ticket>`. */
  issue(): { ticket: string; expiresAt: Date };
  /** True once for a live ticket; every later use, and any unknown ticket, is false. */
  redeem(ticket: string): boolean;
}

const MAX_LIVE_TICKETS = 32;

export function createLoginLinks(options: { ttlSeconds: number; now: () => Date }): LoginLinks {
  const live = new Map<string, number>();
  const dropExpired = () => {
    const now = options.now().getTime();
    for (const [ticket, expiresAt] of live) {
      if (expiresAt <= now) {
        live.delete(ticket);
      }
    }
  };
  return {
    issue() {
      dropExpired();
      // Bounded: the oldest ticket goes first.
      if (live.size >= MAX_LIVE_TICKETS) {
        const oldest = live.keys().next().value;
        if (oldest !== undefined) {
          live.delete(oldest);
        }
      }
      const ticket = randomBytes(24).toString('base64url');
      const expiresAt = options.now().getTime() + options.ttlSeconds * 1000;
      live.set(ticket, expiresAt);
      return { ticket, expiresAt: new Date(expiresAt) };
    },
    redeem(ticket) {
      dropExpired();
      for (const candidate of live.keys()) {
        if (constantTimeEqual(candidate, ticket)) {
          live.delete(candidate);
          return true;
        }
      }
      return false;
    },
  };
}

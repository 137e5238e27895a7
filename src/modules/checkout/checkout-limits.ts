import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';

/** The abuse limits of the public checkout routes (routes/index.ts builds them). */
export interface CheckoutLimits {
  /** Opening sessions: per IP address, before anything else is read. */
  readonly sessions: preHandlerAsyncHookHandler[];
  /**
   * A new session for this client, counted once its config passed every check and its client
   * id named an active app: a stranger's invalid configs never spend a merchant's budget.
   */
  readonly newSessionOf: (request: FastifyRequest, clientId: string) => Promise<void>;
  /** What the hosted page calls: per IP address. */
  readonly page: preHandlerAsyncHookHandler[];
}

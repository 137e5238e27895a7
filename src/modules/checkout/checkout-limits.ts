import type { preHandlerAsyncHookHandler } from 'fastify';

/** The abuse limits of the public checkout routes (routes/index.ts builds them). */
export interface CheckoutLimits {
  /** Opening sessions: per IP address, then per client. */
  readonly sessions: preHandlerAsyncHookHandler[];
  /** What the hosted page calls: per IP address. */
  readonly page: preHandlerAsyncHookHandler[];
}

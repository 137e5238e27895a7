import type { Clock } from '../../shared/clock.ts';
import { newNipSessionId } from '../../shared/ids.ts';
import { invariant } from '../../shared/invariant.ts';
import type { InboundRecallHandler } from '../rail.ts';

/** Why a credit is recalled when the sandbox control gives no reason. */
export const DEFAULT_RECALL_REASON = 'Credit sent in error';

const SESSION_ID = /^\d{30}$/;

/**
 * The simulated network's recalls: a sending bank takes back a credit it sent to one of our
 * accounts, and the network hands the notice to OpenIBS's recall handler through the inbound
 * path, as it hands it credits. The recall's own session id starts with the sending bank's code
 * (the credit's first six digits). The simulator keeps no book of credits it sent: OpenIBS's
 * handler decides whether the session is a credit it can take back, and its refusal rejects.
 */
export function createSimulatorRecalls(clock: Clock) {
  let handler: InboundRecallHandler | undefined;
  return {
    onInboundRecalled(registered: InboundRecallHandler): void {
      handler = registered;
    },
    /** Sandbox only: the sending bank recalls the credit it sent under this session id. */
    async recallCredit(
      sessionId: string,
      reason: string = DEFAULT_RECALL_REASON,
    ): Promise<{ recallSessionId: string }> {
      invariant(handler !== undefined, 'no inbound recall handler is registered');
      invariant(SESSION_ID.test(sessionId), 'a credit session id has 30 digits');
      const recallSessionId = newNipSessionId(sessionId.slice(0, 6), clock);
      await handler({ sessionId, recallSessionId, reason });
      return { recallSessionId };
    },
  };
}

import type { Clock } from '../../shared/clock.ts';
import { newNipSessionId } from '../../shared/ids.ts';
import { invariant } from '../../shared/invariant.ts';
import type { TransferOutcome, TransferReturnHandler, TransferReturnNotice } from '../rail.ts';
import type {
  NipSimulatorSession,
  SimulatedReturn,
  SimulatorSessionStore,
} from './simulator-sessions.ts';

/** Bounded so a misconfigured sandbox cannot keep a return waiting for hours. */
export const MAX_RETURN_AFTER_MS = 3_600_000;

/**
 * The most scripted returns waiting on a timer at once. Past it no timer is set: the return is
 * still due in the simulator's books, and OpenIBS's return check finds it by status query.
 */
const MAX_PENDING_RETURN_TIMERS = 10_000;

/** Why a kobo .81 transfer comes back. */
export const SCRIPTED_RETURN_REASON = 'Beneficiary account closed';

/** Why a transfer comes back when the sandbox control gives no reason. */
export const DEFAULT_RETURN_REASON = 'Returned by the beneficiary bank';

/** The bank a return comes from when the session predates the simulator recording it. */
const UNRECORDED_BANK = '000000';

/** What asking the simulated beneficiary bank to send a transfer back answers. */
export type ReturnAnswer =
  | { readonly kind: 'returned'; readonly returnSessionId: string }
  | { readonly kind: 'refused'; readonly message: string };

export interface SimulatorReturnOptions {
  readonly sessions: SimulatorSessionStore;
  readonly clock: Clock;
  /** How long after a kobo .81 transfer succeeds it comes back (0 to MAX_RETURN_AFTER_MS). */
  readonly returnAfterMs: number;
}

/**
 * The simulated network's returns: a beneficiary bank sends back a transfer it received, and the
 * network hands the notice to OpenIBS's return handler, as it hands inbound credits to theirs.
 * The return is recorded first, so a notice that is lost (no handler, a handler that failed, a
 * restart before a kobo .81 timer fired) is still what a status query of the session answers.
 */
export function createSimulatorReturns(options: SimulatorReturnOptions) {
  const { sessions, clock, returnAfterMs } = options;
  if (
    !Number.isInteger(returnAfterMs) ||
    returnAfterMs < 0 ||
    returnAfterMs > MAX_RETURN_AFTER_MS
  ) {
    throw new RangeError(`returnAfterMs must be an integer from 0 to ${MAX_RETURN_AFTER_MS}`);
  }
  let handler: TransferReturnHandler | undefined;
  const timers = new Set<ReturnType<typeof setTimeout>>();

  /**
   * The beneficiary bank sends the transfer back: recorded once, then its notice delivered. A
   * second call delivers the same notice again (networks resend); the handler's refusal rejects.
   */
  async function returnTransfer(
    sessionId: string,
    reason: string = DEFAULT_RETURN_REASON,
  ): Promise<ReturnAnswer> {
    const session = await sessions.find(sessionId);
    if (session === undefined) {
      return { kind: 'refused', message: 'The network has no transfer under this session id.' };
    }
    if (!delivered(session)) {
      return {
        kind: 'refused',
        message: 'The network did not deliver this transfer, so there is nothing to return.',
      };
    }
    const returned = await record(sessionId, session, reason);
    await handler?.(noticeOf(sessionId, session, returned));
    return { kind: 'returned', returnSessionId: returned.returnSessionId };
  }

  async function record(
    sessionId: string,
    session: NipSimulatorSession,
    reason: string,
  ): Promise<SimulatedReturn> {
    const standing =
      session.returned ??
      (await sessions.markReturned(sessionId, {
        returnSessionId: newNipSessionId(session.beneficiaryBankCode ?? UNRECORDED_BANK, clock),
        reason,
        returnedAt: clock.now(),
      }));
    invariant(standing !== undefined, `simulator session ${sessionId} vanished`);
    return standing;
  }

  /**
   * A kobo .81 transfer has succeeded: it comes back by itself after the delay, on a timer of
   * this process that does not keep it alive (at most MAX_PENDING_RETURN_TIMERS at once). A
   * notice that fails, or gets no timer, is lost as on a network: the status query after
   * OpenIBS's return window finds it.
   */
  function schedule(sessionId: string): void {
    if (timers.size >= MAX_PENDING_RETURN_TIMERS) {
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      returnTransfer(sessionId, SCRIPTED_RETURN_REASON).catch(() => undefined);
    }, returnAfterMs);
    timer.unref();
    timers.add(timer);
  }

  /**
   * What a status query answers for a session sent back, or due to be (its timer lost to a
   * restart: the return is recorded now); undefined when it was not returned.
   */
  async function returnedAnswer(
    sessionId: string,
    session: NipSimulatorSession,
  ): Promise<TransferOutcome | undefined> {
    const due =
      session.returned === null &&
      session.returnDueAt !== null &&
      session.returnDueAt.getTime() <= clock.now().getTime();
    const returned =
      session.returned ??
      (due ? await record(sessionId, session, SCRIPTED_RETURN_REASON) : undefined);
    return returned === undefined ? undefined : returnedOutcome(returned);
  }

  return {
    onTransferReturned(registered: TransferReturnHandler): void {
      handler = registered;
    },
    returnTransfer,
    schedule,
    returnedAnswer,
    /** When a kobo .81 transfer received now comes back. */
    returnDueAt: (receivedAt: Date) => new Date(receivedAt.getTime() + returnAfterMs),
    /** Sandbox reset: the returns still waiting on a timer never come. */
    cancelScheduled(): void {
      for (const timer of timers) {
        clearTimeout(timer);
      }
      timers.clear();
    },
  };
}

/** The network delivered the money: its status queries end in `00`. */
function delivered(session: NipSimulatorSession): boolean {
  return session.script.statusQueries.at(-1) === '00';
}

function noticeOf(
  sessionId: string,
  session: NipSimulatorSession,
  returned: SimulatedReturn,
): TransferReturnNotice {
  return {
    sessionId,
    returnSessionId: returned.returnSessionId,
    amountKobo: session.amountKobo,
    reason: returned.reason,
  };
}

/** A returned session's status query: the transfer succeeded (00), then came back. */
function returnedOutcome(returned: SimulatedReturn): TransferOutcome {
  return {
    kind: 'returned',
    responseCode: '00',
    responseMessage: `Returned by the beneficiary bank: ${returned.reason}`,
    returnSessionId: returned.returnSessionId,
    reason: returned.reason,
  };
}

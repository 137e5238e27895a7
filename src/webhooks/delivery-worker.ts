import type { Db } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import { createPollLoop, type PollLoopOptions } from '../shared/poll-loop.ts';
import { createDeliveryFence, type DeliveryFence } from './delivery-fence.ts';
import { nextAttemptAt, verdictFor } from './delivery-policy.ts';
import {
  disableEndpoint,
  ensureEndpoint,
  findEndpoints,
  signingSecrets,
  type WebhookEndpoint,
} from './endpoint-repository.ts';
import {
  type AttemptOutcome,
  type ClaimedEvent,
  claimDueEvents,
  recordAttempts,
} from './event-repository.ts';
import type { WebhookEventStatus } from './event-types.ts';
import type { SendResult, WebhookSender } from './http-sender.ts';
import { type InboxEntry, recordInboxEntries } from './inbox-repository.ts';
import { createInboxTrimSchedule } from './inbox-trim.ts';
import { newWebhookSecret, signatureHeader } from './signer.ts';

export interface DeliveryWorkerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly sender: WebhookSender;
  readonly retryScheduleSeconds: readonly number[];
  readonly timeoutMs: number;
  readonly batchSize: number;
  readonly pollIntervalMs: number;
  /**
   * How many rounds run at once once started (default 1): while one round waits for its slowest
   * receiver or records its attempts, the next claims and sends. Rounds claim disjoint events
   * (FOR UPDATE SKIP LOCKED), as workers in several processes do.
   */
  readonly roundsInFlight?: number;
  /**
   * The sandbox's inbox: every attempt is also recorded with the exact body and headers (signed
   * even when there is no URL to send them to) and the answer. Off in production.
   */
  readonly inbox?: boolean;
  /** Stops deliveries claimed before a sandbox reset (delivery-fence.ts); none by default. */
  readonly fence?: DeliveryFence;
  /** Failed rounds are reported (throttled) and recoveries told, as the poll loop does. */
  readonly onError?: PollLoopOptions['onError'];
  readonly onRecovered?: PollLoopOptions['onRecovered'];
}

// A claim outlives the slowest possible attempt by this much, so no second worker can start
// an attempt of the same event while the first may still be running.
const LOCK_MARGIN_MS = 30_000;

/**
 * Claims due outbox events and delivers each as a signed POST of `{ type, data }`, a round at a
 * time: the round's sends run at once, then every attempt is recorded (and, in the sandbox, kept
 * in the inbox) in one transaction, so a round costs the database one claim, one endpoint read
 * and one commit however many events it holds. Failures are retried on the schedule, then marked
 * failed for a replay. A round that dies between its sends and their record (a crash, a lost
 * database) sends them again once their claim runs out: each keeps its webhook-id.
 */
export function createDeliveryWorker(deps: DeliveryWorkerDeps) {
  const fence = deps.fence ?? createDeliveryFence();
  const claimSeconds = (deps.timeoutMs + LOCK_MARGIN_MS) / 1000;
  const inboxTrims = createInboxTrimSchedule();

  async function runOnce(): Promise<number> {
    // Read before the claim: a reset that starts after this stops every send of the round.
    const generation = fence.generation();
    const now = deps.clock.now();
    const events = await claimDueEvents(deps.db, { now, limit: deps.batchSize, claimSeconds });
    if (events.length > 0) {
      await fence.send(generation, () => deliverRound(events, now));
    }
    return events.length;
  }

  /** Sends the round's events at once, records what each attempt did, then reports a failure. */
  async function deliverRound(events: readonly ClaimedEvent[], now: Date): Promise<void> {
    const endpoints = await endpointsOf(deps.db, events, now);
    const settled = await Promise.allSettled(
      events.map((event) => attempt(event, endpoints.get(event.clientId) as WebhookEndpoint)),
    );
    const made = settled.flatMap((outcome) =>
      outcome.status === 'fulfilled' ? [outcome.value] : [],
    );
    await recordRound(made);
    const failed = settled.find(
      (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
    );
    if (failed !== undefined) {
      throw failed.reason;
    }
  }

  /** One attempt: what was sent, what came back, and what the event's status becomes. */
  async function attempt(event: ClaimedEvent, endpoint: WebhookEndpoint): Promise<MadeAttempt> {
    const attemptedAt = deps.clock.now();
    const url = event.callbackUrl ?? endpoint.url;
    const refusal = destinationRefusal(event, endpoint);
    const body = event.body;
    const headers = signedHeaders(event, endpoint, attemptedAt, body);
    const result: SendResult =
      refusal !== undefined || url === null
        ? { statusCode: undefined, latencyMs: 0, error: refusal, responseExcerpt: undefined }
        : await deps.sender.send(url, headers, body);
    const next = await decide(deps, { event, endpoint, result, refused: refusal !== undefined });
    const outcome: AttemptOutcome = {
      eventId: event.id,
      attempt: event.attempts,
      status: next.status,
      nextAttemptAt: next.at,
      record: {
        attemptedAt,
        url,
        statusCode: result.statusCode ?? null,
        latencyMs: result.latencyMs,
        error: result.error ?? null,
        responseExcerpt: result.responseExcerpt ?? null,
      },
    };
    return {
      outcome,
      inbox: { ...inboxEntryOf(event, { url, headers, body, result }), attemptedAt },
    };
  }

  /** The round's attempts, and their inbox entries, in one commit. */
  async function recordRound(made: readonly MadeAttempt[]): Promise<void> {
    const outcomes = made.map(({ outcome }) => outcome);
    if (deps.inbox !== true) {
      await recordAttempts(deps.db, outcomes);
      return;
    }
    // Counted once, outside the transaction: a retried transaction would count the round twice
    // and could take a due trim from the count without making it.
    const trims = inboxTrims.due(made.map(({ inbox }) => inbox));
    await deps.db.transaction(async (tx) => {
      const recorded = await recordAttempts(tx, outcomes);
      const kept = made.filter(({ outcome }) => recorded.has(outcome.eventId)).map((m) => m.inbox);
      await recordInboxEntries(tx, kept, trims);
    });
  }

  const loops = Array.from({ length: Math.max(1, deps.roundsInFlight ?? 1) }, () =>
    createPollLoop(runOnce, deps),
  );
  return {
    runOnce,
    start(): void {
      for (const loop of loops) {
        loop.start();
      }
    },
    /** Lets the rounds in progress finish, then stops. */
    async stop(): Promise<void> {
      await Promise.all(loops.map((loop) => loop.stop()));
    },
    /** A round of every loop now; answers once those rounds have finished. */
    async wake(): Promise<void> {
      await Promise.all(loops.map((loop) => loop.wake()));
    },
  };
}

interface MadeAttempt {
  readonly outcome: AttemptOutcome;
  readonly inbox: Omit<InboxEntry, 'id'>;
}

/**
 * The round's clients' endpoints: one read for all of them; a client's first event creates its
 * endpoint (a fresh secret, no URL).
 */
async function endpointsOf(db: Db, events: readonly ClaimedEvent[], now: Date) {
  const clientIds = [...new Set(events.map((event) => event.clientId))];
  const endpoints = await findEndpoints(db, clientIds);
  for (const clientId of clientIds) {
    if (!endpoints.has(clientId)) {
      endpoints.set(clientId, await ensureEndpoint(db, clientId, newWebhookSecret(), now));
    }
  }
  return endpoints;
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;

/** The event's status after this attempt; a 410 from the client's own URL disables it. */
async function decide(
  deps: Pick<DeliveryWorkerDeps, 'db' | 'clock' | 'retryScheduleSeconds'>,
  attempt: {
    event: ClaimedEvent;
    endpoint: WebhookEndpoint;
    result: SendResult;
    refused: boolean;
  },
): Promise<{ status: WebhookEventStatus; at?: Date }> {
  const { event, endpoint, result, refused } = attempt;
  const verdict = refused ? 'refused' : verdictFor(result.statusCode);
  if (verdict === 'delivered') {
    return { status: 'delivered' };
  }
  if (verdict === 'gone' && event.callbackUrl === null) {
    await disableEndpoint(deps.db, endpoint.clientId, '410 Gone', deps.clock.now());
  }
  if (verdict !== 'retry') {
    return { status: 'failed' };
  }
  const attemptInRound = event.attempts - event.replayBase;
  const at = nextAttemptAt(attemptInRound, deps.clock.now(), deps.retryScheduleSeconds);
  return at === undefined ? { status: 'failed' } : { status: 'pending', at };
}

/** The Standard Webhooks headers of one attempt, signed with every live secret. */
function signedHeaders(event: ClaimedEvent, endpoint: WebhookEndpoint, at: Date, body: string) {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'OpenIBS-Webhooks/1.0',
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(event.id, timestamp, body, signingSecrets(endpoint, at)),
  };
}

/** What the sandbox's inbox keeps of an attempt: what was sent, where, and what came back. */
function inboxEntryOf(
  event: ClaimedEvent,
  sent: { url: string | null; headers: Record<string, string>; body: string; result: SendResult },
) {
  return {
    eventId: event.id,
    attempt: event.attempts,
    clientId: event.clientId,
    type: event.type,
    url: sent.url,
    requestHeaders: sent.headers,
    requestBody: sent.body,
    responseStatus: sent.result.statusCode ?? null,
    responseBody: sent.result.responseExcerpt ?? null,
    error: sent.result.error ?? null,
  };
}

function destinationRefusal(event: ClaimedEvent, endpoint: WebhookEndpoint): string | undefined {
  if (event.callbackUrl === null && endpoint.url === null) {
    return 'no webhook URL is configured';
  }
  if (event.callbackUrl === null && endpoint.disabledAt !== null) {
    return `the webhook endpoint is disabled (${endpoint.disabledReason ?? 'by the operator'})`;
  }
  return undefined;
}

import type { Db } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import { createPendingWorker, type DueClaim, type PollLoopOptions } from '../shared/poll-loop.ts';
import { createDeliveryFence, type DeliveryFence } from './delivery-fence.ts';
import { nextAttemptAt, verdictFor } from './delivery-policy.ts';
import {
  disableEndpoint,
  ensureEndpoint,
  signingSecrets,
  type WebhookEndpoint,
} from './endpoint-repository.ts';
import { claimDueEvents, recordAttempt, type WebhookEvent } from './event-repository.ts';
import type { WebhookEventStatus } from './event-types.ts';
import type { SendResult, WebhookSender } from './http-sender.ts';
import { recordInboxEntry } from './inbox-repository.ts';
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
 * Claims due outbox events and delivers each as a signed POST of `{ type, data }`. Each attempt
 * is recorded; failures are retried on the schedule, then marked failed for a replay.
 */
export function createDeliveryWorker(deps: DeliveryWorkerDeps) {
  const fence = deps.fence ?? createDeliveryFence();
  /** One batch's events, with what they share: the fence generation and the endpoint lookups. */
  async function claim(due: DueClaim) {
    // Read before the claim: a reset that starts after this stops every send of the batch.
    const generation = fence.generation();
    const events = await claimDueEvents(deps.db, due);
    // One endpoint lookup per client per batch, however many of its events the batch holds.
    const endpoints = new Map<string, Promise<WebhookEndpoint>>();
    const endpointOf = (clientId: string) => {
      let endpoint = endpoints.get(clientId);
      if (endpoint === undefined) {
        endpoint = ensureEndpoint(deps.db, clientId, newWebhookSecret(), due.now);
        endpoints.set(clientId, endpoint);
      }
      return endpoint;
    };
    return events.map((event) => ({ event, generation, endpointOf }));
  }

  async function deliver(event: WebhookEvent, endpoint: WebhookEndpoint): Promise<void> {
    const attemptedAt = deps.clock.now();
    const url = event.callbackUrl ?? endpoint.url;
    const refusal = destinationRefusal(event, endpoint);
    const body = JSON.stringify(event.payload);
    const headers = signedHeaders(event, endpoint, attemptedAt, body);
    const result: SendResult =
      refusal !== undefined || url === null
        ? { statusCode: undefined, latencyMs: 0, error: refusal, responseExcerpt: undefined }
        : await deps.sender.send(url, headers, body);
    const next = await decide(deps, { event, endpoint, result, refused: refusal !== undefined });
    const recorded = await recordAttempt(deps.db, {
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
    });
    if (recorded && deps.inbox === true) {
      await recordInboxEntry(deps.db, {
        ...inboxEntryOf(event, { url, headers, body, result }),
        attemptedAt,
      });
    }
  }

  return createPendingWorker({
    ...deps,
    claimSeconds: (deps.timeoutMs + LOCK_MARGIN_MS) / 1000,
    claim,
    handle: ({ event, generation, endpointOf }) =>
      fence.send(generation, async () => deliver(event, await endpointOf(event.clientId))),
  });
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;

/** The event's status after this attempt; a 410 from the client's own URL disables it. */
async function decide(
  deps: Pick<DeliveryWorkerDeps, 'db' | 'clock' | 'retryScheduleSeconds'>,
  attempt: {
    event: WebhookEvent;
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
function signedHeaders(event: WebhookEvent, endpoint: WebhookEndpoint, at: Date, body: string) {
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
  event: WebhookEvent,
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

function destinationRefusal(event: WebhookEvent, endpoint: WebhookEndpoint): string | undefined {
  if (event.callbackUrl === null && endpoint.url === null) {
    return 'no webhook URL is configured';
  }
  if (event.callbackUrl === null && endpoint.disabledAt !== null) {
    return `the webhook endpoint is disabled (${endpoint.disabledReason ?? 'by the operator'})`;
  }
  return undefined;
}

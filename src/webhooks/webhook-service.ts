import type { Db, Queryable } from '../db/db.ts';
import { AppError, recordNotFound } from '../errors/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import {
  BlockedDestinationError,
  checkUrlForm,
  type DestinationPolicy,
  resolveAndCheck,
} from './destination-guard.ts';
import * as endpoints from './endpoint-repository.ts';
import * as events from './event-repository.ts';
import type { WebhookEventStatus } from './event-types.ts';
import { newWebhookSecret } from './signer.ts';

export interface WebhookServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly policy: DestinationPolicy;
  readonly secretRotationGraceSeconds: number;
}

const EVENT_ID = /^msg_[A-Za-z0-9_-]{24}$/;

/** Webhook settings, delivery history and replays, for a client (or an operator acting for one). */
export function createWebhookService(deps: WebhookServiceDeps) {
  function getSettings(clientId: string) {
    return endpoints.ensureEndpoint(deps.db, clientId, newWebhookSecret(), deps.clock.now());
  }

  async function updateSettings(
    clientId: string,
    changes: { url?: string | null; rotateSecret?: boolean },
  ) {
    if (changes.url !== undefined && changes.url !== null) {
      await checkDestination(changes.url, deps.policy);
    }
    const now = deps.clock.now();
    await getSettings(clientId);
    await deps.db.transaction(async (tx) => {
      if (changes.url !== undefined) {
        await endpoints.setEndpointUrl(tx, clientId, changes.url, now);
      }
      if (changes.rotateSecret === true) {
        await endpoints.rotateSecret(tx, {
          clientId,
          newSecret: newWebhookSecret(),
          previousExpiresAt: new Date(now.getTime() + deps.secretRotationGraceSeconds * 1000),
          now,
        });
      }
    });
    return getSettings(clientId);
  }

  async function listDeliveries(
    clientId: string,
    filter: { status?: WebhookEventStatus; type?: string; page: number; limit: number },
  ) {
    const { events: found, total } = await events.listEvents(deps.db, {
      clientId,
      ...(filter.status === undefined ? {} : { status: filter.status }),
      ...(filter.type === undefined ? {} : { type: filter.type }),
      offset: filter.page * filter.limit,
      limit: filter.limit,
    });
    const attempts = await events.listAttempts(
      deps.db,
      found.map((event) => event.id),
    );
    return {
      deliveries: found.map((event) => ({ event, attempts: attempts.get(event.id) ?? [] })),
      total,
    };
  }

  async function getDelivery(clientId: string, eventId: string) {
    const event = EVENT_ID.test(eventId)
      ? await events.findClientEvent(deps.db, clientId, eventId)
      : undefined;
    if (event === undefined) {
      throw recordNotFound();
    }
    const attempts = await events.listAttempts(deps.db, [event.id]);
    return { event, attempts: attempts.get(event.id) ?? [] };
  }

  /**
   * The client's events about one resource (a transfer's `_id`...), written between `from` and
   * `to` (a transfer's: its createdAt and updatedAt), oldest first.
   */
  function eventsAbout(clientId: string, about: { resourceId: string; from: Date; to: Date }) {
    return events.listClientEventsAbout(deps.db, { clientId, ...about });
  }

  /**
   * Sends one event again now (same webhook-id), whatever its status: a failed or delivered one,
   * or a pending one waiting for its next retry, unless a worker is sending it at this moment.
   */
  async function replay(clientId: string, eventId: string) {
    await getDelivery(clientId, eventId);
    await events.requeueEvents(deps.db, { clientId, eventId, now: deps.clock.now() });
    return getDelivery(clientId, eventId);
  }

  /** Queues every failed event created since a time; answers how many. */
  function replayFailedSince(clientId: string, since: Date) {
    return events.requeueEvents(deps.db, { clientId, failedSince: since, now: deps.clock.now() });
  }

  /**
   * Sandbox fixtures: the client's webhook URL (checked by the caller) and signing secret (a
   * fresh one unless given), in the caller's transaction.
   */
  async function setFixtureEndpoint(
    tx: Queryable,
    clientId: string,
    fixture: { url: string | null; secret?: string | undefined },
  ) {
    const now = deps.clock.now();
    await endpoints.ensureEndpoint(tx, clientId, fixture.secret ?? newWebhookSecret(), now);
    await endpoints.setEndpointUrl(tx, clientId, fixture.url, now);
  }

  return {
    getSettings,
    updateSettings,
    setFixtureEndpoint,
    listDeliveries,
    getDelivery,
    eventsAbout,
    replay,
    replayFailedSince,
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;

/**
 * Refuses (400, naming `field`) a URL the destination policy does not allow: every URL that
 * OpenIBS will call back is checked so when it is given, whichever field carries it.
 */
export async function checkDestination(
  url: string,
  policy: DestinationPolicy,
  field = 'url',
): Promise<void> {
  try {
    await resolveAndCheck(checkUrlForm(url, policy), policy);
  } catch (error) {
    const message =
      error instanceof BlockedDestinationError
        ? `is not an allowed webhook destination: ${error.message}`
        : 'could not be resolved';
    throw new AppError('VALIDATION_ERROR', `${field} ${message}`, {
      details: [{ field, message }],
    });
  }
}

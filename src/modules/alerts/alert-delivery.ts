import type { Db } from '../../db/db.ts';
import type { Clock } from '../../shared/clock.ts';
import type { AlertMessage } from './alert-message.ts';
import {
  type AttemptResult,
  claimDueMessages,
  countSentSince,
  deferMessage,
  recordAttempt,
  suppressDestination,
} from './alert-repository.ts';
import type { DeliveryOutcome } from './providers/delivery.ts';
import type { EmailSender } from './providers/email-sender.ts';
import type { SmsProvider } from './providers/sms-provider.ts';

export interface AlertDeliveryDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly email: EmailSender;
  readonly sms: SmsProvider;
  readonly emailFrom: string;
  readonly retryScheduleSeconds: readonly number[];
  readonly perAccountPerMinute: number;
  readonly sendTimeoutMs: number;
  readonly batchSize: number;
}

const MINUTE_MS = 60_000;
// A claim outlives the slowest attempt by this much, so no other worker starts the same one.
const CLAIM_MARGIN_MS = 30_000;

/**
 * Sends due messages: claimed (FOR UPDATE SKIP LOCKED, the attempt counted), held back when the
 * account had its minute's share, handed to the provider under the message's stable id, and
 * marked sent only once the provider accepted it. A crash between the provider's acceptance and
 * that mark sends it again under the same id, which the provider de-duplicates (at least once
 * here, once at the customer's end: docs/alerts.md).
 */
export function createAlertDelivery(deps: AlertDeliveryDeps) {
  async function sendBatch(): Promise<number> {
    const now = deps.clock.now();
    const claimed = await claimDueMessages(deps.db, {
      now,
      limit: deps.batchSize,
      claimSeconds: (deps.sendTimeoutMs + CLAIM_MARGIN_MS) / 1000,
    });
    if (claimed.length === 0) {
      return 0;
    }
    const allowed = await withinRateBound(claimed, now);
    const outcomes = await Promise.allSettled(allowed.map((message) => deliver(message)));
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed !== undefined) {
      throw failed.reason;
    }
    return claimed.length;
  }

  /**
   * The messages each account may still be sent this minute; the rest wait (not counted as an
   * attempt) until the oldest send of the minute is a minute old.
   */
  async function withinRateBound(claimed: readonly AlertMessage[], now: Date) {
    const recent = await countSentSince(
      deps.db,
      [...new Set(claimed.map((m) => m.accountId))],
      new Date(now.getTime() - MINUTE_MS),
    );
    const taken = new Map<string, number>();
    const allowed: AlertMessage[] = [];
    const ordered = [...claimed].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    for (const message of ordered) {
      const sent = recent.get(message.accountId);
      const used = (sent?.count ?? 0) + (taken.get(message.accountId) ?? 0);
      if (used < deps.perAccountPerMinute) {
        taken.set(message.accountId, (taken.get(message.accountId) ?? 0) + 1);
        allowed.push(message);
      } else {
        const from = sent?.oldest ?? now;
        await deferMessage(
          deps.db,
          message,
          new Date(Math.max(from.getTime(), now.getTime()) + MINUTE_MS),
        );
      }
    }
    return allowed;
  }

  async function deliver(message: AlertMessage): Promise<void> {
    const outcome = await send(message);
    const result = resultOf(message, outcome);
    await recordAttempt(deps.db, message, result);
    if (outcome.kind === 'permanent') {
      await suppressDestination(deps.db, {
        channel: message.channel,
        destination: message.destination,
        reason: outcome.error,
        at: deps.clock.now(),
      });
    }
  }

  function send(message: AlertMessage): Promise<DeliveryOutcome> {
    if (message.channel === 'sms') {
      return deps.sms.send({
        dedupKey: message.id,
        to: message.destination,
        text: message.textBody,
      });
    }
    return deps.email.send({
      messageId: message.id,
      from: deps.emailFrom,
      to: message.destination,
      subject: message.subject ?? '',
      text: message.textBody,
      html: message.htmlBody ?? undefined,
    });
  }

  function resultOf(message: AlertMessage, outcome: DeliveryOutcome): AttemptResult {
    const now = deps.clock.now();
    if (outcome.kind === 'accepted') {
      return { status: 'sent', at: now };
    }
    if (outcome.kind === 'permanent') {
      return { status: 'failed', error: outcome.error };
    }
    const delay = deps.retryScheduleSeconds[message.attempts - 1];
    if (delay === undefined) {
      return { status: 'failed', error: outcome.error };
    }
    return {
      status: 'pending',
      nextAttemptAt: new Date(now.getTime() + delay * 1000),
      error: outcome.error,
    };
  }

  return { sendBatch };
}

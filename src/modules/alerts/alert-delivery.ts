import type { Readable } from 'node:stream';
import type { Db } from '../../db/db.ts';
import type { Clock } from '../../shared/clock.ts';
import type { AlertMessage } from './alert-message.ts';
import {
  type AttemptResult,
  claimDueMessages,
  countSentSince,
  deferMessage,
  recordAttempts,
  suppressDestination,
} from './alert-repository.ts';
import type { DeliveryOutcome } from './providers/delivery.ts';
import type { EmailSender, OutgoingEmail } from './providers/email-sender.ts';
import type { SmsProvider } from './providers/sms-provider.ts';
import { monthRange } from './statement-months.ts';

/**
 * The PDF statements monthly statement emails carry, made by the accounts module (services.ts
 * plugs it in): the same document `GET /accounts/:id/statement?format=pdf` answers, streamed.
 */
export interface StatementFiles {
  pdf(request: {
    readonly clientId: string;
    readonly accountId: string;
    readonly from: Date;
    readonly to: Date;
    readonly generatedAt: Date;
  }): Promise<{ readonly filename: string; readonly content: Readable }>;
}

/** How monthly statements' emails are sent: apart from alerts, fewer at once, for longer. */
export interface StatementDelivery {
  readonly files: StatementFiles;
  /** The same mail server as alerts, guarded with the statements' longer deadline. */
  readonly email: EmailSender;
  readonly batchSize: number;
  readonly sendTimeoutMs: number;
}

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
  readonly statements: StatementDelivery;
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
  /** Alerts, and monthly statements' SMS: the alerts worker's round. */
  function sendBatch(): Promise<number> {
    return sendDue({ statements: false, limit: deps.batchSize, timeoutMs: deps.sendTimeoutMs });
  }

  /** Monthly statements' emails, each with its PDF: the monthly statements worker's round. */
  function sendStatementBatch(): Promise<number> {
    const { batchSize, sendTimeoutMs } = deps.statements;
    return sendDue({ statements: true, limit: batchSize, timeoutMs: sendTimeoutMs });
  }

  async function sendDue(kind: { statements: boolean; limit: number; timeoutMs: number }) {
    const now = deps.clock.now();
    const claimed = await claimDueMessages(deps.db, {
      now,
      limit: kind.limit,
      claimSeconds: (kind.timeoutMs + CLAIM_MARGIN_MS) / 1000,
      statements: kind.statements,
    });
    if (claimed.length === 0) {
      return 0;
    }
    const allowed = await withinRateBound(claimed, now);
    const outcomes = await Promise.allSettled(
      allowed.map(async (message) => {
        const outcome = await send(message);
        // The result's times are the send's, not the round's end.
        return { message, outcome, result: resultOf(message, outcome) };
      }),
    );
    const sent = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    await recordRound(sent);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed !== undefined) {
      throw failed.reason;
    }
    return claimed.length;
  }

  /**
   * The round's attempts, recorded together once every send of the round has answered; then
   * each destination refused for good is suppressed (rare: one statement each).
   */
  async function recordRound(
    sent: readonly { message: AlertMessage; outcome: DeliveryOutcome; result: AttemptResult }[],
  ): Promise<void> {
    await recordAttempts(deps.db, sent);
    for (const { message, outcome } of sent) {
      if (outcome.kind === 'permanent') {
        await suppressDestination(deps.db, {
          channel: message.channel,
          destination: message.destination,
          reason: outcome.error,
          at: deps.clock.now(),
        });
      }
    }
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

  function send(message: AlertMessage): Promise<DeliveryOutcome> {
    if (message.channel === 'sms') {
      return deps.sms.send({
        dedupKey: message.id,
        to: message.destination,
        text: message.textBody,
      });
    }
    const email: OutgoingEmail = {
      messageId: message.id,
      from: deps.emailFrom,
      to: message.destination,
      subject: message.subject ?? '',
      text: message.textBody,
      html: message.htmlBody ?? undefined,
    };
    if (message.statementMonth === null) {
      return deps.email.send(email);
    }
    return sendStatement(email, { ...message, statementMonth: message.statementMonth });
  }

  /**
   * A monthly statement's email with its PDF, made now from the account's month and the time
   * the month's run began (the message's createdAt): the same bytes on every attempt. The PDF
   * streams into the message as the mail server takes it; whatever happens, the stream (and the
   * ledger reads behind it) is let go.
   */
  async function sendStatement(
    email: OutgoingEmail,
    message: AlertMessage & { statementMonth: string },
  ): Promise<DeliveryOutcome> {
    let file: Awaited<ReturnType<StatementFiles['pdf']>>;
    try {
      file = await deps.statements.files.pdf({
        clientId: message.clientId,
        accountId: message.accountId,
        ...monthRange(message.statementMonth),
        generatedAt: message.createdAt,
      });
    } catch (error) {
      return { kind: 'temporary', error: `statement: ${errorText(error)}`.slice(0, 500) };
    }
    try {
      return await deps.statements.email.send({
        ...email,
        attachments: [
          { filename: file.filename, contentType: 'application/pdf', content: file.content },
        ],
      });
    } finally {
      file.content.destroy();
    }
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

  return { sendBatch, sendStatementBatch };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

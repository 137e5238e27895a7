import type { Db, Queryable } from '../../db/db.ts';
import * as ledger from '../../ledger/ledger-service.ts';
import type { Clock } from '../../shared/clock.ts';
import { lagosDay } from '../../shared/lagos-time.ts';
import type { Kobo } from '../../shared/money.ts';
import { type Account, findMonthlyStatementAccounts } from '../accounts/index.ts';
import {
  findHolderContacts,
  holderMessages,
  queueMessages,
  renderContent,
} from './alert-composer.ts';
import { type AlertBrand, maskAccountNumber, naira } from './alert-content.ts';
import type { NewAlertMessage } from './alert-message.ts';
import type { AlertTemplates, StatementTemplateValues } from './alert-templates.ts';
import {
  addMonths,
  dueMonths,
  lagosMonthOf,
  monthName,
  monthRange,
  type StatementMonth,
} from './statement-months.ts';
import {
  advanceRun,
  latestRunMonth,
  lockOpenRun,
  recordStatements,
  type StatementRun,
  startRuns,
} from './statement-run-repository.ts';

export interface MonthlyStatementsDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly brand: AlertBrand;
  readonly templates: AlertTemplates;
  /** Accounts per round (one transaction). */
  readonly batchSize: number;
  /** After downtime, at most this many ended months are sent (the latest ones). */
  readonly catchUpMonths: number;
}

/**
 * Monthly statements (docs/statements.md, "Monthly statements"): once a Lagos month has ended,
 * every account whose settings ask for it is queued its statement, an email (the PDF is made
 * when it is sent) and an SMS with the closing balance, through the alerts' outbox. A round
 * takes one batch of one month's accounts, in one transaction: the month's row locked (so one
 * worker at a time walks a month), the accounts recorded in alert_statements (their key decides
 * "once per account per month"), their messages queued and the month's cursor moved on. A crash
 * before the commit leaves the batch to the next round; after it, the messages.
 */
export function createMonthlyStatements(deps: MonthlyStatementsDeps) {
  /** Starts the runs of the months that ended since the last one (a few queries a round). */
  async function startDueRuns(now: Date): Promise<StatementMonth> {
    const latest = await latestRunMonth(deps.db);
    await startRuns(deps.db, dueMonths(now, latest, deps.catchUpMonths), now);
    return addMonths(lagosMonthOf(now), -1);
  }

  /**
   * One batch of the oldest open month; answers how many accounts it looked at, and whether
   * more may wait (a full batch, or a month just completed: another month may be open).
   */
  async function composeBatch(): Promise<{ accounts: number; more: boolean }> {
    const upTo = await startDueRuns(deps.clock.now());
    return deps.db.transaction(async (tx) => {
      const run = await lockOpenRun(tx, upTo);
      if (run === undefined) {
        return { accounts: 0, more: false };
      }
      const { from, to } = monthRange(run.month);
      const accounts = await findMonthlyStatementAccounts(tx, {
        afterId: run.afterAccountId,
        openedBefore: new Date(to.getTime() + 1),
        limit: deps.batchSize,
      });
      const recorded = await recordStatements(
        tx,
        run.month,
        accounts.map((account) => account.id),
        run.generatedAt,
      );
      const chosen = accounts.filter((account) => recorded.has(account.id));
      await queueMessages(tx, await messagesOf(tx, run, chosen, { from, to }));
      const last = accounts[accounts.length - 1];
      await advanceRun(tx, {
        month: run.month,
        afterAccountId: last?.id ?? run.afterAccountId,
        sent: chosen.length,
        completedAt: accounts.length < deps.batchSize ? deps.clock.now() : null,
      });
      return { accounts: accounts.length, more: true };
    });
  }

  async function messagesOf(
    tx: Queryable,
    run: StatementRun,
    accounts: readonly Account[],
    range: { from: Date; to: Date },
  ): Promise<NewAlertMessage[]> {
    const contacts = await findHolderContacts(tx, accounts);
    const messages: NewAlertMessage[] = [];
    // One after another: a transaction is one session.
    for (const account of accounts) {
      const holder = contacts.get(account.id);
      if (holder === undefined) {
        continue;
      }
      const span = await ledger.readStatementSpan(tx, { accountId: account.id, ...range });
      const values = statementValues(account, run.month, range, span, deps.brand);
      const made = holderMessages({
        key: `statement:${account.id}:${run.month}`,
        account,
        contacts: holder,
        content: renderContent(deps.templates, values, {
          email: account.notificationSettings.emailMonthlyStatement,
          sms: account.notificationSettings.smsMonthlyStatement,
        }),
        at: run.generatedAt,
      });
      messages.push(...made.map((message) => ({ ...message, statementMonth: run.month })));
    }
    return messages;
  }

  return { composeBatch };
}

/** What a statement's email and SMS say. */
function statementValues(
  account: Account,
  month: StatementMonth,
  range: { from: Date; to: Date },
  span: { openingKobo: Kobo; closingKobo: Kobo },
  brand: AlertBrand,
): StatementTemplateValues {
  return {
    bankName: brand.bankName,
    logoUrl: brand.logoUrl ?? '',
    accountNumber: maskAccountNumber(account.accountNumber),
    accountName: account.accountName,
    period: monthName(month),
    fromDate: lagosDay(range.from),
    toDate: lagosDay(range.to),
    openingBalance: signed(span.openingKobo),
    closingBalance: signed(span.closingKobo),
  };
}

function signed(kobo: Kobo): string {
  return `${kobo < 0n ? '-' : ''}${naira(kobo)}`;
}

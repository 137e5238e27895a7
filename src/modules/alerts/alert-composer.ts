import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../../db/db.ts';
import * as ledger from '../../ledger/ledger-service.ts';
import type { Clock } from '../../shared/clock.ts';
import { type Account, findAccountsByIds } from '../accounts/index.ts';
import { findClientEmails } from '../clients/index.ts';
import { type AlertBrand, alertValues } from './alert-content.ts';
import type { AlertChannel, NewAlertMessage } from './alert-message.ts';
import { findSuppressed, insertMessages } from './alert-repository.ts';
import {
  type AlertTemplates,
  fillTemplate,
  type StatementTemplateValues,
  type TemplateValues,
} from './alert-templates.ts';
import { SMS_MAX_LENGTH } from './providers/sms-provider.ts';

/** Where a holder is told: the sub-account's own contacts, the client's email for its others. */
export interface HolderContacts {
  readonly email: string | null;
  readonly phone: string | null;
}

/** A message's id, from what it is about: the same inputs always make the same id. */
export function alertMessageId(key: string, channel: AlertChannel): string {
  return `al${createHash('sha256').update(`${key}|${channel}`).digest('hex').slice(0, 38)}`;
}

/** The contacts of some accounts' holders, by account id. */
export async function findHolderContacts(
  db: Queryable,
  accounts: readonly Account[],
): Promise<Map<string, HolderContacts>> {
  const clientIds = [...new Set(accounts.filter((a) => a.holder === null).map((a) => a.clientId))];
  const emails = clientIds.length === 0 ? new Map() : await findClientEmails(db, clientIds);
  return new Map(
    accounts.map((account) => [
      account.id,
      account.holder === null
        ? { email: emails.get(account.clientId) ?? null, phone: null }
        : { email: account.holder.emailAddress || null, phone: account.holder.phoneNumber || null },
    ]),
  );
}

/** What a message says, per channel. */
export interface MessageContent {
  readonly email?: { readonly subject: string; readonly text: string; readonly html?: string };
  readonly sms?: { readonly text: string };
}

/**
 * A message's content from a set of templates, on the channels asked for: the HTML escaped,
 * the rest as text (alerts and monthly statements alike).
 */
export function renderContent(
  templates: AlertTemplates,
  values: TemplateValues | StatementTemplateValues,
  channels: ledger.AlertChannels,
): MessageContent {
  return {
    ...(channels.email
      ? {
          email: {
            subject: fillTemplate(templates.subject, values, { escape: false }),
            text: fillTemplate(templates.text, values, { escape: false }),
            html: fillTemplate(templates.html, values, { escape: true }),
          },
        }
      : {}),
    ...(channels.sms
      ? { sms: { text: fillTemplate(templates.sms, values, { escape: false }) } }
      : {}),
  };
}

/**
 * The messages that tell one holder something, one per channel it has a destination for, each
 * pending, or suppressed at once when its destination is.
 */
export function holderMessages(input: {
  readonly key: string;
  readonly account: Account;
  readonly contacts: HolderContacts;
  readonly content: MessageContent;
  readonly at: Date;
}): NewAlertMessage[] {
  const { account, contacts, content, at } = input;
  const base = {
    accountId: account.id,
    accountNumber: account.accountNumber,
    clientId: account.clientId,
    status: 'pending' as const,
    createdAt: at,
  };
  const messages: NewAlertMessage[] = [];
  if (content.email !== undefined && contacts.email !== null) {
    messages.push({
      ...base,
      id: alertMessageId(input.key, 'email'),
      channel: 'email',
      destination: contacts.email,
      subject: content.email.subject,
      textBody: content.email.text,
      htmlBody: content.email.html ?? null,
    });
  }
  if (content.sms !== undefined && contacts.phone !== null) {
    messages.push({
      ...base,
      id: alertMessageId(input.key, 'sms'),
      channel: 'sms',
      destination: contacts.phone,
      subject: null,
      textBody: content.sms.text.slice(0, SMS_MAX_LENGTH),
      htmlBody: null,
    });
  }
  return messages;
}

/**
 * Queues messages in the caller's transaction; those whose destination is suppressed are
 * recorded as suppressed and never sent. The one way anything is sent to a holder (alerts now,
 * monthly statements later).
 */
export async function queueMessages(
  tx: Queryable,
  messages: readonly NewAlertMessage[],
): Promise<void> {
  const suppressed = await findSuppressed(tx, messages);
  await insertMessages(
    tx,
    messages.map((message) =>
      suppressed.has(`${message.channel}:${message.destination}`)
        ? { ...message, status: 'suppressed', lastError: 'destination suppressed' }
        : message,
    ),
  );
}

export interface AlertComposerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly brand: AlertBrand;
  readonly templates: AlertTemplates;
  readonly batchSize: number;
}

/**
 * Turns the ledger's notices into messages: in one transaction, the oldest notices no other
 * worker holds are read with what they name (entries, hold references, accounts, holders), their
 * messages inserted and the notices deleted. A crash before the commit leaves the notices; after
 * it, the messages; never both or neither.
 */
export function createAlertComposer(deps: AlertComposerDeps) {
  async function composeBatch(): Promise<number> {
    return deps.db.transaction(async (tx) => {
      const notices = await ledger.lockNotices(tx, deps.batchSize);
      if (notices.length === 0) {
        return 0;
      }
      // One after another: a transaction is one session. The holders first: only the notices
      // of a holder who can be reached on one of its channels need their entries read (most
      // in the sandbox, and a business's other accounts, have no contact at all).
      const accounts = await findAccountsByIds(tx, [...new Set(notices.map((n) => n.accountId))]);
      const contacts = await findHolderContacts(tx, [...accounts.values()]);
      const reachable = reachableNotices(notices, accounts, contacts);
      const told = reachable.map(({ notice }) => notice);
      const entries = await ledger.findNoticeEntries(tx, told);
      const holdReferences = await ledger.findHoldReferences(
        tx,
        told.filter((n) => n.kind !== 'entry').map((n) => n.sourceId),
      );
      const entriesByAccount = byAccount(entries);
      const messages = reachable.flatMap(({ notice, account, holder, channels }) => {
        const values = alertValues({
          notice,
          entries: (entriesByAccount.get(notice.accountId) ?? []).filter(
            (e) => e.seq >= (notice.firstSeq ?? 0n) && e.seq <= (notice.lastSeq ?? -1n),
          ),
          holdReference: holdReferences.get(notice.sourceId),
          account,
          brand: deps.brand,
        });
        return holderMessages({
          key: `${notice.kind}:${notice.sourceId}:${notice.accountId}`,
          account,
          contacts: holder,
          content: renderContent(deps.templates, values, channels),
          at: notice.createdAt,
        });
      });
      await queueMessages(tx, messages);
      await ledger.deleteNotices(
        tx,
        notices.map((n) => n.id),
      );
      return notices.length;
    });
  }

  return { composeBatch };
}

/**
 * The notices whose holder can be reached, each with the channels it is written on: only those
 * the notice asks for and the holder has an address on.
 */
function reachableNotices(
  notices: readonly ledger.LedgerNotice[],
  accounts: ReadonlyMap<string, Account>,
  contacts: ReadonlyMap<string, HolderContacts>,
) {
  return notices.flatMap((notice) => {
    const account = accounts.get(notice.accountId);
    const holder = contacts.get(notice.accountId);
    if (account === undefined || holder === undefined) {
      return [];
    }
    const channels = {
      email: notice.channels.email && holder.email !== null,
      sms: notice.channels.sms && holder.phone !== null,
    };
    return channels.email || channels.sms ? [{ notice, account, holder, channels }] : [];
  });
}

/** The notices' entries by account, read once (each notice takes its account's). */
function byAccount<Entry extends { readonly accountId: string }>(entries: readonly Entry[]) {
  const grouped = new Map<string, Entry[]>();
  for (const entry of entries) {
    const list = grouped.get(entry.accountId);
    if (list === undefined) {
      grouped.set(entry.accountId, [entry]);
    } else {
      list.push(entry);
    }
  }
  return grouped;
}

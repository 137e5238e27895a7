import type { LedgerNotice, NoticeEntry } from '../../ledger/ledger-service.ts';
import { lagosMinute } from '../../shared/lagos-time.ts';
import { type Kobo, koboToNairaText } from '../../shared/money.ts';
import type { TemplateValues } from './alert-templates.ts';

/** What the bank says about itself in every alert (configuration). */
export interface AlertBrand {
  readonly bankName: string;
  readonly logoUrl: string | undefined;
}

/** The account a notice is about, as the alert names it. */
export interface AlertAccount {
  readonly accountNumber: string;
  readonly accountName: string;
}

/** Journal kinds a customer must be told are not an ordinary movement. */
const KIND_LABELS: Readonly<Record<string, string>> = {
  transfer_reversal: 'Reversal',
  transfer_return: 'Returned transfer',
  inbound_recall: 'Recall',
  lien_fill: 'Lien recovery',
};

/** ₦1,234.56: naira, two decimals, grouped (no sign). */
export function naira(kobo: Kobo): string {
  return `₦${koboToNairaText(kobo < 0n ? -kobo : kobo, { grouped: true })}`;
}

/** An account number as banks print it in alerts: the first three and last three digits. */
export function maskAccountNumber(accountNumber: string): string {
  if (accountNumber.length < 7) {
    return accountNumber;
  }
  return `${accountNumber.slice(0, 3)}****${accountNumber.slice(-3)}`;
}

/** `2026-03-02 10:00 WAT`: when it happened, as a customer in Lagos reads the clock. */
function lagosTime(date: Date): string {
  return `${lagosMinute(date)} WAT`;
}

/**
 * The template values of one notice: a journal's entries on the account (net Credit or Debit,
 * each line listed when there are several: an amount and its fee), a hold ("held"), or a hold
 * released unused. Reversals, returns, recalls and lien recoveries say so (the journal's kind).
 */
export function alertValues(input: {
  readonly notice: LedgerNotice;
  readonly entries: readonly NoticeEntry[];
  readonly holdReference: string | undefined;
  readonly account: AlertAccount;
  readonly brand: AlertBrand;
}): TemplateValues {
  const { notice, account, brand } = input;
  const common = {
    bankName: brand.bankName,
    logoUrl: brand.logoUrl ?? '',
    accountNumber: maskAccountNumber(account.accountNumber),
    accountName: account.accountName,
    date: lagosTime(notice.createdAt),
  };
  if (notice.kind !== 'entry') {
    return { ...common, ...holdValues(notice, input.holdReference, common.accountNumber) };
  }
  return { ...common, ...entryValues(input.entries, common.accountNumber) };
}

function holdValues(notice: LedgerNotice, reference: string | undefined, masked: string) {
  const amount = naira(notice.amountKobo ?? 0n);
  const placed = notice.kind === 'hold';
  return {
    direction: placed ? 'Held' : 'Released',
    amount,
    narration: placed
      ? `Held for a pending transaction${reference === undefined ? '' : ` (ref ${reference})`}`
      : `Hold released: the transaction did not go through${reference === undefined ? '' : ` (ref ${reference})`}`,
    headline: placed
      ? `${amount} is held on account ${masked} for a pending transaction.`
      : `The hold of ${amount} on account ${masked} was released; the funds are available again.`,
    balance: `${naira(notice.balanceAfterKobo ?? 0n)} available`,
    lines: '',
  };
}

function entryValues(entries: readonly NoticeEntry[], masked: string) {
  const net = entries.reduce((sum, entry) => sum + entry.amountKobo, 0n);
  const direction = net >= 0n ? 'Credit' : 'Debit';
  // The statement line that says most: the largest one.
  const main = [...entries].sort((a, b) => abs(b.amountKobo) - abs(a.amountKobo))[0];
  const last = entries[entries.length - 1];
  const label = KIND_LABELS[main?.journalKind ?? ''];
  const amount = naira(net);
  return {
    direction,
    amount,
    narration: main?.narration ?? '',
    headline: `${label === undefined ? '' : `${label}: `}${direction} of ${amount} on account ${masked}.`,
    balance: signedNaira(last?.balanceAfterKobo ?? 0n),
    lines:
      entries.length < 2
        ? ''
        : entries
            .map((entry) => {
              const side = entry.amountKobo > 0n ? 'Credit' : 'Debit';
              return `${side} ${naira(entry.amountKobo)} ${entry.narration}`;
            })
            .join('\n'),
  };
}

/** A balance may be below zero on an account allowed to be: -₦10.00. */
function signedNaira(kobo: Kobo): string {
  return `${kobo < 0n ? '-' : ''}${naira(kobo)}`;
}

function abs(kobo: Kobo): number {
  return Number(kobo < 0n ? -kobo : kobo);
}

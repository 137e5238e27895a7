import type { Principal } from '../../auth/principal.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { AppError, recordNotFound } from '../../errors/app-error.ts';
import type { DateRange } from '../../http/date-range.ts';
import * as ledger from '../../ledger/ledger-service.ts';
import { type Lien, listLiens } from '../../ledger/liens.ts';
import type { Clock } from '../../shared/clock.ts';
import { isObjectId, newObjectId } from '../../shared/ids.ts';
import {
  type Account,
  type AccountType,
  DEFAULT_NOTIFICATION_SETTINGS,
  identityLimitKey,
  type NotificationSettings,
} from './account.ts';
import { newAccountNumber } from './account-numbers.ts';
import type { NewSubAccount } from './account-repository.ts';
import * as accountRepository from './account-repository.ts';
import type { AlsoListed, ClientNames } from './ports.ts';

export interface AccountServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly institutionCode: string;
  readonly clientNames: ClientNames;
  /** Listed after sub-accounts (virtual accounts); none when absent. */
  readonly alsoListed?: AlsoListed;
}

export interface OpenAccountRequest {
  readonly clientId: string;
  readonly accountName: string;
  readonly accountType: AccountType;
  readonly isSubAccount: boolean;
  readonly metadata: Record<string, unknown>;
  /** The client's own accounts are '3' (an onboarded business); sub-accounts follow their KYC. */
  readonly kycLevel?: string;
  readonly subAccount?: NewSubAccount;
  /** Sandbox fixtures only: the account's number, a valid NUBAN of ours that no account has. */
  readonly accountNumber?: string;
}

/** A sandbox fixture's sub-account (sandbox/fixtures). */
export interface FixtureSubAccount {
  readonly clientId: string;
  readonly accountNumber: string;
  readonly accountName: string;
  readonly phoneNumber: string;
  readonly emailAddress: string;
  readonly identityType: string;
  readonly externalReference: string;
  readonly kycLevel: string;
  readonly callbackUrl: string | null;
  readonly metadata: Record<string, unknown>;
}

/** Entries read per query of a statement export: a few hundred kilobytes at most. */
const EXPORT_BATCH = 1000;
/**
 * CSV rows a batch: smaller than the PDF's, as a CSV batch goes to the reader as one string
 * (250 rows, ~35 KB) and the export's memory follows its size (docs/benchmarks.md).
 */
const CSV_BATCH = 250;

/** A statement to write out as a document (statement-csv.ts, statement-pdf.ts). */
export interface StatementExport {
  readonly account: Account;
  /** The period the statement covers: the range asked for, else the account's life so far. */
  readonly from: Date;
  readonly to: Date;
  readonly generatedAt: Date;
  readonly span: ledger.StatementSpan;
  /**
   * The entries oldest first, as the PDF's lines, a batch at a time with its totals; the next
   * batch is read when the writer asks for it.
   */
  readonly lines: AsyncGenerator<ledger.StatementLines>;
  /** The same entries as CSV rows (CRLF after each), one text a batch, written by the ledger. */
  readonly csvRows: AsyncGenerator<string>;
}

/** Whose accounts: the caller's principal, or a client an operator names. */
type AccountOwner = Pick<Principal, 'clientId'>;

export function createAccountService(deps: AccountServiceDeps) {
  /**
   * Opens an account and its ledger account inside the caller's transaction. Throws
   * ExternalReferenceTaken (rolling the transaction back) when the client already has a
   * sub-account under the request's externalReference.
   */
  async function openAccount(tx: Queryable, request: OpenAccountRequest): Promise<string> {
    const id = newObjectId(deps.clock);
    const now = deps.clock.now();
    const accountNumber =
      request.accountNumber ?? (await newAccountNumber(tx, deps.institutionCode));
    await ledger.openAccount(tx, {
      id,
      name: request.accountName,
      createdAt: now,
      alerts: alertChannels(DEFAULT_NOTIFICATION_SETTINGS),
    });
    const inserted = await accountRepository.insertAccount(tx, {
      id,
      clientId: request.clientId,
      accountNumber,
      accountName: request.accountName,
      accountType: request.accountType,
      isSubAccount: request.isSubAccount,
      metadata: request.metadata,
      notificationSettings: { ...DEFAULT_NOTIFICATION_SETTINGS },
      createdAt: now,
      kycLevel: request.kycLevel ?? '3',
      ...(request.subAccount === undefined ? {} : { subAccount: request.subAccount }),
    });
    if (!inserted) {
      throw new ExternalReferenceTaken();
    }
    return id;
  }

  /**
   * Sandbox fixtures: an individual's sub-account with no identity check behind it (its
   * identityId is empty), under the fixture's number, in the caller's transaction. Its daily
   * limit counts under its externalReference, as one person's.
   */
  async function openFixtureSubAccount(tx: Queryable, fixture: FixtureSubAccount): Promise<string> {
    return openAccount(tx, {
      clientId: fixture.clientId,
      accountName: fixture.accountName,
      accountType: 'Current',
      isSubAccount: true,
      metadata: fixture.metadata,
      kycLevel: fixture.kycLevel,
      accountNumber: fixture.accountNumber,
      subAccount: {
        holder: {
          type: 'Individual',
          phoneNumber: fixture.phoneNumber,
          emailAddress: fixture.emailAddress,
          identityType: fixture.identityType,
          identityId: '',
          directorIdentityIds: [],
        },
        externalReference: fixture.externalReference,
        requestHash: 'sandbox-fixture',
        callbackUrl: fixture.callbackUrl,
        autoSweep: null,
        dailyLimitKey: identityLimitKey(fixture.clientId, `fixture:${fixture.externalReference}`),
      },
    });
  }

  async function createAccount(
    principal: Principal,
    body: { accountType?: string; suffix?: string; metadata?: Record<string, unknown> },
  ): Promise<Account> {
    const metadata = body.metadata ?? {};
    const accountId = await deps.db.transaction(async (tx) => {
      const clientName = (await deps.clientNames.nameOf(tx, principal.clientId))?.toUpperCase();
      if (clientName === undefined) {
        throw new AppError('FORBIDDEN');
      }
      const suffix = body.suffix?.trim();
      return openAccount(tx, {
        clientId: principal.clientId,
        accountName: suffix ? `${clientName} / ${suffix}` : clientName,
        accountType: body.accountType === 'Savings' ? 'Savings' : 'Current',
        isSubAccount: false,
        metadata,
      });
    });
    return getAccount(principal, accountId);
  }

  /** The owner's account; another client's is indistinguishable from a missing one. */
  async function getAccount(owner: AccountOwner, accountId: string): Promise<Account> {
    if (!isObjectId(accountId)) {
      throw recordNotFound();
    }
    const account = await accountRepository.findClientAccount(deps.db, owner.clientId, accountId);
    if (account === undefined) {
      throw recordNotFound();
    }
    return account;
  }

  /** Sub-accounts (newest first), then what else is listed with them (virtual accounts). */
  async function listAccounts(
    principal: Principal,
    query: { isSubAccount: boolean; page: number; limit: number },
  ) {
    const offset = query.page * query.limit;
    const own = await accountRepository.listClientAccounts(deps.db, {
      clientId: principal.clientId,
      isSubAccount: query.isSubAccount,
      offset,
      limit: query.limit,
    });
    if (!query.isSubAccount || deps.alsoListed === undefined) {
      return own;
    }
    // The page continues into the other kind where the sub-accounts run out.
    const others = await deps.alsoListed.page(deps.db, principal.clientId, {
      offset: Math.max(0, offset - own.total),
      limit: query.limit - own.accounts.length,
    });
    return { accounts: [...own.accounts, ...others.accounts], total: own.total + others.total };
  }

  /** Operator use: every account of a client (main, then sub-accounts), virtual ones aside. */
  function listAllAccounts(
    clientId: string,
    query: { page: number; limit: number; accountNumber?: string | undefined },
  ) {
    return accountRepository.listAllClientAccounts(deps.db, {
      clientId,
      ...(query.accountNumber === undefined ? {} : { accountNumber: query.accountNumber }),
      offset: query.page * query.limit,
      limit: query.limit,
    });
  }

  async function updateNotificationSettings(
    principal: Principal,
    accountId: string,
    changes: Partial<NotificationSettings>,
  ): Promise<Account> {
    const account = await getAccount(principal, accountId);
    const settings = { ...account.notificationSettings, ...changes };
    // The ledger's notify flag changes with the settings, so no posting after the commit alerts
    // under the old ones (docs/alerts.md).
    await deps.db.transaction(async (tx) => {
      await accountRepository.updateNotificationSettings(tx, {
        clientId: principal.clientId,
        accountId: account.id,
        settings,
        now: deps.clock.now(),
      });
      await ledger.setAlertChannels(tx, account.id, alertChannels(settings));
    });
    return getAccount(principal, accountId);
  }

  /** The client's own account's statement (the client, or an operator acting for it). */
  async function statement(
    owner: AccountOwner,
    accountId: string,
    query: { range: DateRange; type?: 'Credit' | 'Debit'; page: number; limit: number },
  ) {
    const account = await getAccount(owner, accountId);
    return ledger.readStatement(deps.db, {
      accountId: account.id,
      credits: query.type === undefined ? undefined : query.type === 'Credit',
      from: query.range.from,
      to: query.range.to,
      page: query.page,
      limit: query.limit,
    });
  }

  /**
   * The client's own account's statement for a range, to be written out as a document: the
   * account, the numbers and balances of the range (fixed now), and its entries oldest first,
   * read a batch at a time as the document is written.
   */
  async function statementExport(
    owner: AccountOwner,
    accountId: string,
    range: DateRange,
    /** A statement made again must say when it was first made (a monthly statement's retry). */
    generatedAt: Date = deps.clock.now(),
  ): Promise<StatementExport> {
    const account = await getAccount(owner, accountId);
    const span = await ledger.readStatementSpan(deps.db, { accountId: account.id, ...range });
    const batches = {
      accountId: account.id,
      first: span.first,
      last: span.last,
      batch: EXPORT_BATCH,
    };
    return {
      account,
      from: range.from ?? account.createdAt,
      to: range.to ?? deps.clock.now(),
      generatedAt,
      span,
      // Generators: neither reads anything until the document's writer asks for its first batch.
      lines: ledger.readStatementLines(deps.db, batches),
      csvRows: ledger.readStatementCsv(deps.db, { ...batches, batch: CSV_BATCH }),
    };
  }

  /** The liens on the client's own account, oldest first (what it owes the bank, and why). */
  async function liens(owner: AccountOwner, accountId: string): Promise<Lien[]> {
    const account = await getAccount(owner, accountId);
    return listLiens(deps.db, account.id);
  }

  /**
   * Operator use: a frozen account takes no debit and no credit (402 ACCOUNT_NOT_ACTIVE, checked
   * inside every money movement's own database call) until it is unfrozen. Closed stays closed.
   */
  async function setFrozen(accountNumber: string, frozen: boolean): Promise<Account> {
    const account = await accountRepository.setFrozen(deps.db, {
      accountNumber,
      frozen,
      now: deps.clock.now(),
    });
    if (account === undefined) {
      throw recordNotFound();
    }
    if (account.status === 'Closed') {
      throw new AppError('ACCOUNT_NOT_ACTIVE', 'A closed account cannot be frozen or unfrozen.');
    }
    return account;
  }

  /** Operator use: any client's account by its number. */
  async function findByNumber(accountNumber: string): Promise<Account> {
    const account = await accountRepository.findAccountByNumber(deps.db, accountNumber);
    if (account === undefined) {
      throw recordNotFound();
    }
    return account;
  }

  return {
    openAccount,
    openFixtureSubAccount,
    /** Sandbox fixtures under a seed: the key that numbers accounts from now on. */
    numberAccountsWith: accountRepository.setAccountNumberKey,
    createAccount,
    getAccount,
    findByNumber,
    listAccounts,
    listAllAccounts,
    updateNotificationSettings,
    statement,
    statementExport,
    liens,
    setFrozen,
  };
}

export type AccountService = ReturnType<typeof createAccountService>;

/** Another request took this externalReference first (unique per client). */
export class ExternalReferenceTaken extends Error {
  override readonly name = 'ExternalReferenceTaken';
}

/** The debit and credit alerts the settings ask for (monthly statements are not the ledger's). */
function alertChannels(settings: NotificationSettings): ledger.AlertChannels {
  return { email: settings.emailNotification, sms: settings.smsNotification };
}

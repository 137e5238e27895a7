import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Principal } from '../../auth/principal.ts';
import type { CheckoutConfig } from '../../config/checkout-config.ts';
import type { Db } from '../../db/db.ts';
import { AppError, recordNotFound } from '../../errors/app-error.ts';
import { requestFingerprint } from '../../idempotency/idempotency.ts';
import type { Clock } from '../../shared/clock.ts';
import { isObjectId, newObjectId } from '../../shared/ids.ts';
import type { Kobo } from '../../shared/money.ts';
import type { DestinationPolicy } from '../../webhooks/destination-guard.ts';
import { checkDestination } from '../../webhooks/webhook-service.ts';
import type { ClientNames } from '../accounts/index.ts';
import { findSettlementAccount } from '../accounts/index.ts';
import { findUssdBank, type UssdService } from '../ussd/index.ts';
import type { VirtualAccountService } from '../virtual-accounts/index.ts';
import * as repository from './checkout-repository.ts';
import {
  amountToPay,
  type CheckoutChannel,
  type CheckoutCustomer,
  type CheckoutSession,
  type CheckoutStatus,
  type FeeBearer,
  statusAt,
} from './checkout-session.ts';
import {
  type CheckoutSettings,
  checkDestinations,
  invalidField,
  parseOrigin,
} from './checkout-settings.ts';
import * as settingsRepository from './checkout-settings-repository.ts';

/** The published Checkout.js config, less its functions, in kobo. */
export interface CheckoutRequest {
  readonly environment: string;
  readonly clientId: string;
  readonly referenceCode: string;
  readonly customer: CheckoutCustomer;
  readonly currency: string;
  readonly amountKobo: Kobo;
  readonly feeBearer: FeeBearer;
  readonly settlementAccount: { readonly bankCode: string; readonly accountNumber: string };
  readonly redirectUrl: string | undefined;
  readonly webhookUrl: string | undefined;
  readonly customIconUrl: string | undefined;
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
}

/** How a public OAuth client id maps to the client it acts for (an active app). */
export type PublicClientLookup = (
  oauthClientId: string,
) => Promise<{ readonly clientId: string } | undefined>;

/** In sandbox: the simulated customer paying what the page shows. */
export interface CheckoutSandbox {
  payVirtualAccount(accountNumber: string, amountKobo: Kobo): Promise<void>;
  dialUssd(reference: string, ussdBankCode: string): Promise<void>;
}

export interface CheckoutServiceDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly institutionCode: string;
  readonly environment: 'sandbox' | 'production';
  readonly config: CheckoutConfig;
  /** Signs the hosted page's access to its one session. */
  readonly pageSecret: string;
  readonly findPublicClient: PublicClientLookup;
  readonly clientNames: ClientNames;
  /** Each method's module, which also says what it charges on a payment (fee and VAT). */
  readonly virtualAccounts: Pick<VirtualAccountService, 'create' | 'get' | 'collectionCharges'>;
  readonly ussd: Pick<UssdService, 'create' | 'get' | 'collectionCharges'>;
  readonly callbackPolicy: DestinationPolicy;
  /** The client's webhook URL: a config's webhookUrl may always name it. */
  readonly webhookUrlOf: (clientId: string) => Promise<string | null>;
  readonly sandbox: CheckoutSandbox | undefined;
}

/**
 * Checkout sessions: opened from the merchant's page with only the public OAuth client id (so
 * they can only ever pay the client's own account), paid by a virtual account or a USSD
 * reference made for the session, completed inside the payment that pays either
 * (checkout-collections.ts), and verified by the merchant's server with its access token (the
 * source of truth; the browser's word is not). Reading a session never changes it.
 */
export function createCheckoutService(deps: CheckoutServiceDeps) {
  const { db, clock } = deps;

  /**
   * Opens the session of a widget config, or reopens the one this exact config opened before
   * (a page reload). `admit` counts a new session against the client's budget: it runs only
   * for a config that passed every check, so a stranger's invalid configs spend nothing.
   */
  async function open(
    request: CheckoutRequest,
    origin: string | null,
    admit: (clientId: string) => Promise<void> = async () => {},
  ): Promise<{ session: CheckoutSession; pageToken: string }> {
    const client = await checkRequest(request);
    const settlement = await findSettlementAccount(
      db,
      client.clientId,
      request.settlementAccount,
      deps.institutionCode,
    );
    await checkUrls(client.clientId, request, origin);
    // Every field that steers money, customers or notifications is part of what is reopened:
    // the same referenceCode with any other config is a session of its own, never this one.
    const requestHash = requestFingerprint({
      amount: request.amountKobo.toString(),
      currency: request.currency,
      feeBearer: request.feeBearer,
      settlementAccount: request.settlementAccount,
      customer: request.customer,
      redirectUrl: request.redirectUrl ?? null,
      webhookUrl: request.webhookUrl ?? null,
      customIconUrl: request.customIconUrl ?? null,
      metadata: request.metadata ?? null,
      origin,
    });
    const earlier = await reopen(client.clientId, request.referenceCode, requestHash);
    if (earlier !== undefined) {
      return { session: earlier, pageToken: pageToken(earlier.id) };
    }
    await admit(client.clientId);
    const session = newSession(request, {
      clientId: client.clientId,
      requestHash,
      settlement,
      origin,
      merchantName: (await deps.clientNames.nameOf(db, client.clientId)) ?? 'Merchant',
    });
    if (!(await repository.insertSession(db, session))) {
      // The same config committed first from another request (a double click).
      const winner = await reopen(client.clientId, request.referenceCode, requestHash);
      if (winner === undefined) {
        throw new AppError('CONFLICT');
      }
      return { session: winner, pageToken: pageToken(winner.id) };
    }
    return { session, pageToken: pageToken(session.id) };
  }

  /** The config's own checks, then the active app its public client id names. */
  async function checkRequest(request: CheckoutRequest) {
    if (request.environment !== deps.environment) {
      throw invalidField('environment', `must be "${deps.environment}" on this server`);
    }
    if (request.currency !== 'NGN') {
      throw invalidField('currency', 'must be "NGN"');
    }
    if (RESERVED_REFERENCE_CODES.has(request.referenceCode)) {
      // /checkout/sessions/... and /checkout/pay/... are the page's: verify could not reach them.
      throw invalidField('referenceCode', 'must not be "sessions", "pay" or "verify"');
    }
    const client = await deps.findPublicClient(request.clientId);
    if (client === undefined) {
      throw invalidField('clientId', 'must be the OAuth client id of an active app');
    }
    return client;
  }

  /** The page's origin and the config's URLs, against what the client registered. */
  async function checkUrls(clientId: string, request: CheckoutRequest, origin: string | null) {
    for (const field of ['redirectUrl', 'customIconUrl'] as const) {
      const url = request[field];
      if (url !== undefined && !isWebUrl(url)) {
        throw invalidField(field, 'must be an http(s) URL');
      }
    }
    if (request.webhookUrl !== undefined) {
      await checkDestination(request.webhookUrl, deps.callbackPolicy, 'webhookUrl');
    }
    checkDestinations(
      await settingsRepository.findSettings(db, clientId),
      {
        origin,
        redirectUrl: request.redirectUrl,
        webhookUrl: request.webhookUrl,
        clientWebhookUrl:
          request.webhookUrl === undefined ? null : await deps.webhookUrlOf(clientId),
      },
      deps.environment,
    );
  }

  function newSession(
    request: CheckoutRequest,
    made: {
      clientId: string;
      requestHash: string;
      settlement: { id: string; accountNumber: string };
      origin: string | null;
      merchantName: string;
    },
  ): CheckoutSession {
    const now = clock.now();
    return {
      id: newObjectId(clock),
      clientId: made.clientId,
      referenceCode: request.referenceCode,
      requestHash: made.requestHash,
      amountKobo: request.amountKobo,
      feeBearer: request.feeBearer,
      customer: request.customer,
      merchantName: made.merchantName,
      settlementAccountId: made.settlement.id,
      settlementAccountNumber: made.settlement.accountNumber,
      redirectUrl: request.redirectUrl ?? null,
      webhookUrl: request.webhookUrl ?? null,
      customIconUrl: request.customIconUrl ?? null,
      metadata: request.metadata ?? null,
      origin: made.origin,
      status: 'Pending',
      virtualAccountId: null,
      ussdReference: null,
      ussdReferenceId: null,
      payment: null,
      expiresAt: new Date(now.getTime() + deps.config.sessionTtlSeconds * 1000),
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * The session this exact config opened, if any. Once any session of the referenceCode is
   * paid, the order is settled: another config for it is refused.
   */
  async function reopen(clientId: string, referenceCode: string, requestHash: string) {
    const sessions = await repository.findByReferenceCode(db, clientId, referenceCode);
    const same = sessions.find((session) => session.requestHash === requestHash);
    if (same !== undefined) {
      return same;
    }
    if (sessions.some((session) => session.status === 'Completed')) {
      throw new AppError(
        'DUPLICATE_REFERENCE',
        'This referenceCode was already paid, for a different checkout config.',
      );
    }
    return undefined;
  }

  /** The client's checkout settings (its own API and operators). */
  function getSettings(owner: Pick<Principal, 'clientId'>): Promise<CheckoutSettings> {
    return settingsRepository.findSettings(db, owner.clientId);
  }

  /** Replaces the client's registered origins and checkout webhook URLs. */
  async function saveSettings(
    owner: Pick<Principal, 'clientId'>,
    asked: { allowedOrigins: readonly string[]; webhookUrls: readonly string[] },
  ): Promise<CheckoutSettings> {
    const allowedOrigins = [
      ...new Set(
        asked.allowedOrigins.map((origin, i) => parseOrigin(origin, `allowedOrigins[${i}]`)),
      ),
    ];
    const webhookUrls = [...new Set(asked.webhookUrls)];
    for (const [i, url] of webhookUrls.entries()) {
      await checkDestination(url, deps.callbackPolicy, `webhookUrls[${i}]`);
    }
    return settingsRepository.saveSettings(db, {
      clientId: owner.clientId,
      allowedOrigins,
      webhookUrls,
      now: clock.now(),
    });
  }

  /** The token the hosted page shows for its session: an HMAC, so nothing is stored. */
  function pageToken(sessionId: string): string {
    return createHmac('sha256', deps.pageSecret)
      .update(`checkout:${sessionId}`)
      .digest('base64url');
  }

  /** The session a page's token opens, as stored; anything else is unknown. */
  async function forPage(sessionId: string, token: string): Promise<CheckoutSession> {
    const expected = Buffer.from(pageToken(sessionId));
    const given = Buffer.from(token);
    if (
      !isObjectId(sessionId) ||
      given.length !== expected.length ||
      !timingSafeEqual(given, expected)
    ) {
      throw recordNotFound();
    }
    const session = await repository.findSession(db, sessionId);
    if (session === undefined) {
      throw recordNotFound();
    }
    return session;
  }

  /** A session takes a payment while Pending and while no other session paid its order. */
  async function requireOpen(session: CheckoutSession): Promise<void> {
    const status = statusAt(session, clock.now());
    if (status !== 'Pending') {
      throw new AppError('CHECKOUT_CLOSED', `The checkout session is ${status.toLowerCase()}.`);
    }
    const siblings = await repository.findByReferenceCode(
      db,
      session.clientId,
      session.referenceCode,
    );
    if (siblings.some((other) => other.id !== session.id && other.status === 'Completed')) {
      throw new AppError('CHECKOUT_CLOSED', 'The order of this checkout session is already paid.');
    }
  }

  /** The virtual account the customer pays into: the session's open one, or a new one. */
  async function openBankTransfer(sessionId: string, token: string) {
    const session = await forPage(sessionId, token);
    await requireOpen(session);
    const owner = { clientId: session.clientId };
    if (session.virtualAccountId !== null) {
      const current = await deps.virtualAccounts.get(owner, session.virtualAccountId);
      // The stored status: an Active account past its expiry is Expired, and takes nothing.
      if (current.status === 'Active' && clock.now() < current.expiresAt) {
        return { session, account: current };
      }
    }
    const account = await deps.virtualAccounts.create(
      owner,
      {
        validForSeconds: deps.config.bankTransferValidForSeconds,
        callbackUrl: undefined,
        settlementAccount: {
          bankCode: deps.institutionCode,
          accountNumber: session.settlementAccountNumber,
        },
        amountControl: 'Fixed',
        amountKobo: payable(session, 'BANK_TRANSFER'),
        externalReference: undefined,
        accountName: `Checkout ${session.referenceCode}`.slice(0, 60),
      },
      requestFingerprint({ checkout: session.id, at: clock.now().toISOString() }),
      { quiet: true },
    );
    await recordMethod(session, { virtualAccountId: account.id });
    return { session, account };
  }

  /**
   * The USSD reference the customer dials at the bank they picked. Any listed bank pays any
   * reference, so the session keeps one open reference and only the dial string follows the
   * bank: a payment on it is always the session's, whichever bank the customer chose last.
   */
  async function openUssd(sessionId: string, token: string, ussdBankCode: string) {
    const session = await forPage(sessionId, token);
    await requireOpen(session);
    const bank = findUssdBank(ussdBankCode);
    if (bank === undefined) {
      throw invalidField('ussdBankCode', 'must be the ussdBankCode of a bank in the list');
    }
    const owner = { clientId: session.clientId };
    if (session.ussdReference !== null) {
      const current = await deps.ussd.get(owner, session.ussdReference);
      // Read as stored: a Pending reference past its expiry takes no payment, so a new one.
      if (current.reference.status === 'Pending' && clock.now() < current.reference.expiresAt) {
        return { session, reference: current.reference, bank };
      }
    }
    const reference = await deps.ussd.create(owner, {
      amountKobo: payable(session, 'USSD'),
      merchantName: session.merchantName,
      ussdBankCode,
      callbackUrl: null,
      settlementAccount: {
        bankCode: deps.institutionCode,
        accountNumber: session.settlementAccountNumber,
      },
    });
    await recordMethod(session, {
      ussdReference: { reference: reference.reference, id: reference.id },
    });
    return { session, reference, bank };
  }

  /**
   * Links the method just made to its session, so its payment completes the session. A payment
   * by the other method may have completed it since requireOpen: the method is linked all the
   * same (checkout_session_pay then refuses a payment into it), and the customer told.
   */
  async function recordMethod(
    session: CheckoutSession,
    method: { virtualAccountId: string } | { ussdReference: { reference: string; id: string } },
  ): Promise<void> {
    if (!(await repository.recordMethod(db, { id: session.id, ...method, now: clock.now() }))) {
      throw new AppError('CHECKOUT_CLOSED', 'The checkout session is completed.');
    }
  }

  /** What the customer pays by this method, the fee added when they bear it. */
  function payable(session: CheckoutSession, channel: CheckoutChannel): Kobo {
    const charges =
      channel === 'BANK_TRANSFER'
        ? deps.virtualAccounts.collectionCharges
        : deps.ussd.collectionCharges;
    return amountToPay(session.amountKobo, session.feeBearer, charges);
  }

  /** Sandbox: the customer pays the method the page opened, as the simulators would. */
  async function simulate(sessionId: string, token: string, channel: CheckoutChannel) {
    if (deps.sandbox === undefined) {
      throw new AppError('SANDBOX_ONLY');
    }
    const session = await forPage(sessionId, token);
    await requireOpen(session);
    if (channel === 'BANK_TRANSFER') {
      const { account } = await openBankTransfer(sessionId, token);
      await deps.sandbox.payVirtualAccount(account.accountNumber, account.amountKobo);
    } else {
      if (session.ussdReference === null) {
        throw invalidField('method', 'choose a bank for USSD first');
      }
      const { reference } = await deps.ussd.get(
        { clientId: session.clientId },
        session.ussdReference,
      );
      await deps.sandbox.dialUssd(reference.reference, reference.ussdBankCode);
    }
    return forPage(sessionId, token);
  }

  /** The merchant's server asks: the session of its referenceCode, as stored. */
  async function verify(
    principal: Pick<Principal, 'clientId'>,
    referenceCode: string,
  ): Promise<CheckoutSession> {
    const sessions = await repository.findByReferenceCode(db, principal.clientId, referenceCode);
    if (sessions.length === 0) {
      throw recordNotFound();
    }
    // The one paid, else the newest (several exist only when configs differed).
    return pickForVerify(sessions);
  }

  /** Operator use: a page of the client's sessions, newest first, as stored. */
  function list(
    owner: Pick<Principal, 'clientId'>,
    filter: { status?: CheckoutStatus; page: number; limit: number },
  ) {
    return repository.listSessions(db, {
      clientId: owner.clientId,
      ...(filter.status === undefined ? {} : { status: filter.status }),
      now: clock.now(),
      offset: filter.page * filter.limit,
      limit: filter.limit,
    });
  }

  return {
    open,
    getSettings,
    saveSettings,
    pageToken,
    forPage,
    openBankTransfer,
    openUssd,
    payable,
    simulate,
    verify,
    list,
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;

/** The first session paid, else the newest opened. */
function pickForVerify(sessions: readonly CheckoutSession[]): CheckoutSession {
  const byTime = (a: CheckoutSession, b: CheckoutSession) =>
    a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);
  const paid = sessions
    .filter((session) => session.payment !== null)
    .sort(
      (a, b) =>
        (a.payment?.paidAt.getTime() ?? 0) - (b.payment?.paidAt.getTime() ?? 0) || byTime(a, b),
    );
  return paid[0] ?? ([...sessions].sort(byTime).at(-1) as CheckoutSession);
}

const RESERVED_REFERENCE_CODES = new Set(['sessions', 'pay', 'verify']);

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '';
  } catch {
    return false;
  }
}

import { createAuditLog } from './audit/index.ts';
import { createAccessTokenIssuer } from './auth/access-tokens.ts';
import { createDashboardSessions } from './auth/dashboard-sessions.ts';
import { findActiveAppByOAuthClientId } from './auth/oauth-app-repository.ts';
import { createRevocationList } from './auth/revocation-list.ts';
import { createTokenService } from './auth/token-service.ts';
import type { Config, Secrets } from './config/config.ts';
import { createLoginLinks } from './dashboard/index.ts';
import type { Db } from './db/db.ts';
import { groupCommitLimits } from './db/group-commit.ts';
import { serverBusy } from './errors/app-error.ts';
import {
  guardBiller,
  guardIdentityBureau,
  guardRail,
  guardUssdGateway,
} from './guarded-providers.ts';
import { GL_ACCOUNTS } from './ledger/gl-accounts.ts';
import { createLedgerOverview } from './ledger/ledger-overview.ts';
import { createAccountService, createSubAccountService } from './modules/accounts/index.ts';
import { createBeneficiaryService } from './modules/beneficiaries/index.ts';
import { type CheckoutSandbox, createCheckoutService } from './modules/checkout/index.ts';
import { clientNames, createClientService } from './modules/clients/index.ts';
import {
  createIdentityBureauSimulator,
  createIdentityProof,
  createIdentityService,
  createUnconfiguredBureau,
  type IdentityBureau,
  randomOtp,
  SANDBOX_OTP,
} from './modules/identity/index.ts';
import {
  createInboundCreditService,
  createNameEnquiryService,
  createOutboundTransferService,
  createTransferService,
  findBank,
} from './modules/transfers/index.ts';
import {
  createDatabaseReferenceStore,
  createUnconfiguredUssdGateway,
  createUssdGatewaySimulator,
  createUssdService,
  isUssdGatewaySimulator,
  type UssdGateway,
} from './modules/ussd/index.ts';
import {
  type Biller,
  createBillerSimulator,
  createUnconfiguredBiller,
  createVasCatalogueService,
  createVasPurchaseService,
} from './modules/vas/index.ts';
import {
  createVirtualAccountCollections,
  createVirtualAccountService,
  virtualAccountsAsAccounts,
} from './modules/virtual-accounts/index.ts';
import { createNipSimulator, isNipSimulator } from './rails/nip/nip-simulator.ts';
import { createDatabaseSessionStore } from './rails/nip/simulator-sessions.ts';
import type { Rail } from './rails/rail.ts';
import { createUnconfiguredRail } from './rails/unconfigured-rail.ts';
import { createFaultTable } from './sandbox/faults/index.ts';
import { createFixturesService, type FixturesServiceDeps } from './sandbox/fixtures/index.ts';
import { createSandboxResets, type SandboxResets } from './sandbox/sandbox-resets.ts';
import type { Clock, SandboxClock } from './shared/clock.ts';
import { createDeliveryFence } from './webhooks/delivery-fence.ts';
import { destinationPolicy } from './webhooks/destination-guard.ts';
import { createWebhookInbox } from './webhooks/inbox.ts';
import { checkDestination, createWebhookService } from './webhooks/webhook-service.ts';

export interface ServiceDeps {
  readonly config: Config;
  readonly db: Db;
  /** The bank's clock: in the sandbox the test clock (docs/sandbox-testing-controls.md). */
  readonly clock: Clock;
  /**
   * Real time, for what the test clock must not move; by default `clock`. Client assertions are
   * signed on the caller's own clock, and an operator's dashboard sign-in should not end because
   * the bank's day was moved on.
   */
  readonly wallClock?: Clock;
  readonly secrets: Secrets;
  /** The NIP rail; by default the sandbox simulator, or a refusing rail in production. */
  readonly rail?: Rail;
  /** The identity bureau; by default the sandbox simulator, or a refusing one in production. */
  readonly identityBureau?: IdentityBureau;
  /** The VAS biller; by default the sandbox simulator, or a refusing one in production. */
  readonly biller?: Biller;
  /** The USSD gateway; by default the sandbox simulator, or a refusing one in production. */
  readonly ussdGateway?: UssdGateway;
  /** Where a failed audit write is reported (the process log); it never fails a request. */
  readonly onAuditError?: (error: unknown) => void;
  /** The sandbox's test clock, which a reset puts back to the fixtures' settings; none: nothing. */
  readonly sandboxClock?: Pick<SandboxClock, 'reset'>;
}

/**
 * The composition root: every service of the process, built once. The server, the worker
 * process, the tests and the benchmarks all start here, so there is one service graph, one rail
 * and one handler for the credits it receives.
 */
export function createServices(deps: ServiceDeps) {
  const { config, db, clock } = deps;
  const wallClock = deps.wallClock ?? clock;
  const accessTokens = createAccessTokenIssuer({
    secret: deps.secrets.tokenSigningSecret,
    issuer: config.publicBaseUrl,
    ttlSeconds: config.accessTokenTtlSeconds,
    clock,
  });
  const revocations = createRevocationList({
    db,
    clock,
    refreshMs: config.revocationRefreshSeconds * 1000,
    tokenTtlSeconds: config.accessTokenTtlSeconds,
  });
  const auditLog = createAuditLog({ db, clock, onError: deps.onAuditError });
  const tokenService = createTokenService({
    db,
    clock,
    accessTokens,
    auditLog,
    assertionPolicy: {
      audiences: config.assertionAudiences,
      minRsaKeyBits: config.minRsaKeyBits,
      maxLifetimeSeconds: config.assertionMaxLifetimeSeconds,
      clock: wallClock,
    },
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    rejectReusedAssertionIds: config.assertionRejectReusedJti,
  });
  const accountService = createAccountService({
    db,
    clock,
    institutionCode: config.institutionCode,
    clientNames,
    // GET /accounts?isSubAccount=true lists virtual accounts after the sub-accounts.
    alsoListed: virtualAccountsAsAccounts(clock),
  });
  const clientService = createClientService({
    db,
    clock,
    accountService,
    minRsaKeyBits: config.minRsaKeyBits,
    revocations,
  });
  const webhookService = createWebhookService({
    db,
    clock,
    policy: destinationPolicy(config),
    secretRotationGraceSeconds: config.webhooks.secretRotationGraceSeconds,
  });
  // Every vendor call has a deadline and a circuit breaker (src/guarded-providers.ts).
  const rail = guardRail(deps.rail ?? createRail(config, clock, db), config);
  const banks = { find: (code: string) => findBank(code, config.institutionCode) };
  const beneficiaryService = createBeneficiaryService({
    db,
    clock,
    bankName: (code) => banks.find(code)?.name,
  });
  // The money path group-commits placements, settlements and inbound credits.
  const batches = groupCommitLimits(db.kind, {
    maxWaiting: config.groupCommitMaxWaiting,
    refuse: serverBusy,
  });
  // Virtual accounts are paid through the transfers module, which finds them through this port.
  const collections = createVirtualAccountCollections({
    clock,
    config: config.virtualAccounts,
    vatBasisPoints: config.transfers.vatBasisPoints,
  });
  const inboundCredits = createInboundCreditService({
    db,
    clock,
    institutionCode: config.institutionCode,
    stampDuty: config,
    settlementAccountId:
      config.ibsEnv === 'sandbox' ? GL_ACCOUNTS.sandboxExternalFloat : GL_ACCOUNTS.nipSettlement,
    batches,
    collections,
  });
  // Credits other banks send arrive through the rail, whichever rail it is.
  rail.onInboundCredit((credit) => inboundCredits.receive(credit));
  const nameEnquiryService = createNameEnquiryService({
    db,
    clock,
    rail,
    banks,
    institutionCode: config.institutionCode,
    ttlSeconds: config.transfers.nameEnquiryTtlSeconds,
    collections,
  });
  const outboundTransfers = createOutboundTransferService({
    db,
    clock,
    rail,
    institutionCode: config.institutionCode,
    config: config.transfers,
    beneficiaries: beneficiaryService,
    batches,
    collections,
  });
  const virtualAccountService = createVirtualAccountService({
    db,
    clock,
    institutionCode: config.institutionCode,
    config: config.virtualAccounts,
    vatBasisPoints: config.transfers.vatBasisPoints,
    callbackPolicy: destinationPolicy(config),
    webhookUrlOf: async (clientId) => (await webhookService.getSettings(clientId)).url,
  });
  const transferService = createTransferService({ db, outbound: outboundTransfers });
  const identityService = createIdentityService({
    db,
    clock,
    bureau: guardIdentityBureau(deps.identityBureau ?? createIdentityBureau(config, clock), config),
    config: config.identity,
    vatBasisPoints: config.transfers.vatBasisPoints,
    // The documented sandbox OTP (docs/sandbox-identity.md); production OTPs are random.
    newOtp: config.ibsEnv === 'sandbox' ? () => SANDBOX_OTP : randomOtp,
    otpSecret: deps.secrets.tokenSigningSecret,
  });
  const subAccountService = createSubAccountService({
    db,
    clock,
    accounts: accountService,
    proof: createIdentityProof(identityService),
    callbackPolicy: destinationPolicy(config),
  });
  const biller = guardBiller(deps.biller ?? createBiller(config), config);
  const vasCatalogueService = createVasCatalogueService({ db, clock, biller });
  const vasPurchaseService = createVasPurchaseService({
    db,
    clock,
    biller,
    statusQueryScheduleSeconds: config.vas.statusQueryScheduleSeconds,
    batches,
    limits: config.transfers,
    callbackPolicy: destinationPolicy(config),
  });
  const ussdGateway = guardUssdGateway(
    deps.ussdGateway ?? createUssdGateway(config, clock, db),
    config,
  );
  const ussdService = createUssdService({
    db,
    clock,
    institutionCode: config.institutionCode,
    config: config.ussd,
    vatBasisPoints: config.transfers.vatBasisPoints,
    gateway: ussdGateway,
    inboundCredits,
    callbackPolicy: destinationPolicy(config),
    webhookUrlOf: async (clientId) => (await webhookService.getSettings(clientId)).url,
  });
  // Payments the gateway reports settle like credits from other banks.
  ussdGateway.onPayment((notice) => ussdService.settle(notice));
  const checkoutService = createCheckoutService({
    db,
    clock,
    institutionCode: config.institutionCode,
    environment: config.ibsEnv,
    config: config.checkout,
    pageSecret: deps.secrets.tokenSigningSecret,
    findPublicClient: (oauthClientId) => findActiveAppByOAuthClientId(db, oauthClientId),
    clientNames,
    virtualAccounts: virtualAccountService,
    ussd: ussdService,
    callbackPolicy: destinationPolicy(config),
    webhookUrlOf: async (clientId) => (await webhookService.getSettings(clientId)).url,
    sandbox: config.ibsEnv === 'sandbox' ? checkoutSandbox(rail, ussdGateway) : undefined,
    lookForPaymentsSeconds: Math.max(
      config.checkout.bankTransferValidForSeconds,
      config.ussd.referenceValidForSeconds + config.ussd.statusQueryGraceSeconds,
    ),
  });
  const services = {
    accessTokens,
    revocations,
    auditLog,
    tokenService,
    accountService,
    subAccountService,
    clientService,
    identityService,
    beneficiaryService,
    webhookService,
    nameEnquiryService,
    outboundTransfers,
    transferService,
    inboundCredits,
    virtualAccountService,
    vasCatalogueService,
    vasPurchaseService,
    ussdService,
    checkoutService,
    ledgerOverview: createLedgerOverview({ db }),
    // The sandbox's record of every webhook delivery attempt; none in production.
    webhookInbox: config.ibsEnv === 'sandbox' ? createWebhookInbox({ db }) : undefined,
    // Failures a test asks for on its own client's calls (POST /admin/sandbox/faults); none in
    // production. In memory: the reset clears them (clear()).
    sandboxFaults: config.ibsEnv === 'sandbox' ? createFaultTable({ clock }) : undefined,
    rail,
    ussdGateway,
    // One-click dashboard sign-in links, shared by the banner, the admin API and the dashboard.
    dashboardLoginLinks: createLoginLinks({
      ttlSeconds: config.exposure.dashboardLoginLinkTtlSeconds,
      now: () => wallClock.now(),
    }),
    // Dashboard sessions, in the database so that ending one ends it on every process.
    dashboardSessions: createDashboardSessions({
      db,
      clock: wallClock,
      ttlSeconds: config.exposure.dashboardSessionTtlSeconds,
    }),
  };
  return { ...services, ...sandboxParts(deps, services) };
}

export type Services = ReturnType<typeof createServices>;

/**
 * What resets the sandbox: the registry of what a reset clears in memory (the webhook fence,
 * the NIP simulator's queue; the app adds its rate limits), and the fixtures service, which
 * exists only in the sandbox.
 */
function sandboxParts(
  deps: ServiceDeps,
  services: {
    readonly rail: Rail;
    readonly sandboxFaults: { clear(): void } | undefined;
  } & Omit<
    FixturesServiceDeps,
    | 'db'
    | 'clock'
    | 'environment'
    | 'minRsaKeyBits'
    | 'defaultValidForSeconds'
    | 'check'
    | 'nipSimulator'
    | 'resets'
    | 'sandboxClock'
  >,
) {
  const { config, db, clock } = deps;
  const deliveryFence = createDeliveryFence();
  const sandboxResets: SandboxResets = createSandboxResets();
  sandboxResets.register('webhook-deliveries', () => deliveryFence.advance());
  const { rail } = services;
  const nipSimulator = config.ibsEnv === 'sandbox' && isNipSimulator(rail) ? rail : undefined;
  if (nipSimulator !== undefined) {
    sandboxResets.register('nip-simulator', () => nipSimulator.clearQueuedOutcomes());
  }
  const { sandboxFaults } = services;
  if (sandboxFaults !== undefined) {
    sandboxResets.register('faults', () => sandboxFaults.clear());
  }
  const sandboxFixtures =
    config.ibsEnv !== 'sandbox'
      ? undefined
      : createFixturesService({
          ...services,
          db,
          clock,
          environment: config.ibsEnv,
          minRsaKeyBits: config.minRsaKeyBits,
          defaultValidForSeconds: config.virtualAccounts.defaultValidForSeconds,
          check: {
            institutionCode: config.institutionCode,
            minRsaKeyBits: config.minRsaKeyBits,
            validForSeconds: {
              min: config.virtualAccounts.minValidForSeconds,
              max: config.virtualAccounts.maxValidForSeconds,
            },
            maxAmountKobo: config.maxAmountKobo,
            isKnownBank: (code) => findBank(code, config.institutionCode) !== undefined,
            refuseUrl: (url) => refusalOf(url, destinationPolicy(config)),
          },
          nipSimulator,
          resets: sandboxResets,
          sandboxClock: deps.sandboxClock,
        });
  return { deliveryFence, sandboxResets, sandboxFixtures };
}

/** Why the destination policy refuses a URL, or undefined when it allows it. */
async function refusalOf(
  url: string,
  policy: ReturnType<typeof destinationPolicy>,
): Promise<string | undefined> {
  try {
    await checkDestination(url, policy);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^url /, '') : String(error);
  }
}

/** The sandbox NIP simulator, or in production a rail that refuses other banks (no adapter yet). */
function createRail(config: Config, clock: Clock, db: Db): Rail {
  return config.ibsEnv === 'sandbox'
    ? createNipSimulator({
        institutionCode: config.institutionCode,
        latencyMs: config.transfers.nipSimulatorLatencyMs,
        clock,
        // In the database, so a restart (or another process) still knows what the network did.
        sessions: createDatabaseSessionStore(db),
      })
    : createUnconfiguredRail();
}

/** The sandbox bureau simulator, or in production one that refuses checks (no adapter yet). */
function createIdentityBureau(config: Config, clock: Clock): IdentityBureau {
  return config.ibsEnv === 'sandbox'
    ? createIdentityBureauSimulator({ clock })
    : createUnconfiguredBureau();
}

/** The sandbox biller simulator, or in production one that refuses (no adapter yet). */
function createBiller(config: Config): Biller {
  return config.ibsEnv === 'sandbox'
    ? createBillerSimulator({ latencyMs: config.vas.billerSimulatorLatencyMs })
    : createUnconfiguredBiller();
}

/** The sandbox USSD gateway simulator, or in production one that refuses (no adapter yet). */
function createUssdGateway(config: Config, clock: Clock, db: Db): UssdGateway {
  return config.ibsEnv === 'sandbox'
    ? createUssdGatewaySimulator({ clock, references: createDatabaseReferenceStore(db) })
    : createUnconfiguredUssdGateway();
}

/** The sandbox customer of the checkout page: pays over the simulated NIP network or USSD gateway. */
function checkoutSandbox(rail: Rail, ussdGateway: UssdGateway): CheckoutSandbox | undefined {
  if (!isNipSimulator(rail) || !isUssdGatewaySimulator(ussdGateway)) {
    return undefined;
  }
  return {
    async payVirtualAccount(accountNumber, amountKobo) {
      await rail.sendInboundCredit({
        beneficiaryAccountNumber: accountNumber,
        amountKobo,
        originator: {
          accountName: 'SANDBOX CHECKOUT PAYER',
          accountNumber: '0123456789',
          bankCode: '000013',
        },
        narration: 'Checkout payment',
      });
    },
    // The customer tries: a declined or lost payment leaves the page waiting, as it would.
    async dialUssd(reference, ussdBankCode) {
      await ussdGateway.dial({ reference, ussdBankCode });
    },
  };
}

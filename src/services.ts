import { createApprovals } from './admin/approvals/index.ts';
import { createAuditLog } from './audit/index.ts';
import { authModule } from './auth/auth-module.ts';
import { findActiveAppByOAuthClientId } from './auth/oauth-app-repository.ts';
import type { Config, Secrets } from './config/config.ts';
import { createLoginLinks } from './dashboard/index.ts';
import type { Db } from './db/db.ts';
import { groupCommitLimits } from './db/group-commit.ts';
import { serverBusy } from './errors/app-error.ts';
import {
  guardBiller,
  guardEmailSender,
  guardIdentityBureau,
  guardRail,
  guardSmsProvider,
  guardUssdGateway,
} from './guarded-providers.ts';
import { createLedgerOverview } from './ledger/ledger-overview.ts';
import { createMetricsRegistry } from './metrics.ts';
import { accountsModule, statementPdfFile } from './modules/accounts/index.ts';
import {
  alertsModule,
  createEmailSender,
  createSmsProvider,
  type EmailSender,
  type SmsProvider,
  type StatementFiles,
} from './modules/alerts/index.ts';
import { beneficiariesModule } from './modules/beneficiaries/index.ts';
import {
  type CheckoutSandbox,
  checkoutModule,
  createCheckoutCollections,
} from './modules/checkout/index.ts';
import { clientNames, clientsModule } from './modules/clients/index.ts';
import {
  createIdentityBureauSimulator,
  createIdentityProof,
  createUnconfiguredBureau,
  type IdentityBureau,
  identityModule,
} from './modules/identity/index.ts';
import { findBank, transfersModule } from './modules/transfers/index.ts';
import {
  createDatabaseReferenceStore,
  createUnconfiguredUssdGateway,
  createUssdGatewaySimulator,
  isUssdGatewaySimulator,
  type UssdGateway,
  ussdModule,
} from './modules/ussd/index.ts';
import {
  type Biller,
  createBillerSimulator,
  createUnconfiguredBiller,
  vasModule,
} from './modules/vas/index.ts';
import {
  virtualAccountsAsAccounts,
  virtualAccountsModule,
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
import { checkDestination } from './webhooks/webhook-service.ts';
import { webhooksModule } from './webhooks/webhooks-module.ts';

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
  /** Alert email: by default SMTP (SMTP_URL), else the sandbox's keeper (docs/alerts.md). */
  readonly emailSender?: EmailSender;
  /** Alert SMS: by default the sandbox simulator, or a refusing one in production. */
  readonly smsProvider?: SmsProvider;
  /** Where a failed audit write is reported (the process log); it never fails a request. */
  readonly onAuditError?: (error: unknown) => void;
  /** The sandbox's test clock, which a reset puts back to the fixtures' settings; none: nothing. */
  readonly sandboxClock?: Pick<SandboxClock, 'reset'>;
}

/**
 * The composition root: every service of the process, built once. The server, the worker
 * process, the tests and the benchmarks all start here, so there is one service graph, one rail
 * and one handler for the credits it receives. Each module builds its own services from its
 * descriptor (docs/architecture.md); this plugs one module's ports into another's.
 */
export function createServices(deps: ServiceDeps) {
  const { config, db, clock } = deps;
  const wallClock = deps.wallClock ?? clock;
  const core = { config, db, clock };
  const auditLog = createAuditLog({ db, clock, onError: deps.onAuditError });
  const auth = authModule.createServices({ ...core, wallClock, secrets: deps.secrets, auditLog });
  const webhooks = webhooksModule.createServices(core);
  const providers = guardedProviders(deps);
  const customers = customerServices(deps, providers, auth);
  const services = {
    auditLog,
    ...auth,
    ...webhooks,
    ...customers,
    ...paymentServices(deps, providers, { ...webhooks, ...customers }),
    ...alertsModule.createServices({
      ...core,
      emailSender: providers.emailSender,
      statementEmailSender: providers.statementEmailSender,
      smsProvider: providers.smsProvider,
      statementFiles: statementFiles(customers),
    }),
    rail: providers.rail,
    ussdGateway: providers.ussdGateway,
    ledgerOverview: createLedgerOverview({ db }),
    // Four eyes (docs/operators.md): admin actions held for a second operator. On the bank's
    // clock, as a request's expiry is part of the bank's day (a test moves it).
    approvals: createApprovals({
      db,
      clock,
      ttlSeconds: config.operators.approvalTtlSeconds,
      auditLog,
    }),
    // Failures a test asks for on its own client's calls (POST /admin/sandbox/faults); none in
    // production. In memory: the reset clears them (clear()).
    sandboxFaults: config.ibsEnv === 'sandbox' ? createFaultTable({ clock }) : undefined,
    // One-click dashboard sign-in links, shared by the banner, the admin API and the dashboard.
    dashboardLoginLinks: createLoginLinks({
      ttlSeconds: config.exposure.dashboardLoginLinkTtlSeconds,
      now: () => wallClock.now(),
    }),
    // Prometheus (docs/deployment.md): the process's series and the gauges read at scrape time;
    // the app adds its request series and serves it at /metrics.
    metrics: config.metrics.enabled
      ? createMetricsRegistry({ db, clock, collectTimeoutMs: config.metrics.collectTimeoutMs })
      : undefined,
  };
  return { ...services, ...sandboxParts(deps, services) };
}

/** Every vendor behind a deadline and a circuit breaker (src/guarded-providers.ts). */
function guardedProviders(deps: ServiceDeps) {
  const { config, db, clock } = deps;
  return {
    rail: guardRail(deps.rail ?? createRail(config, clock, db), config),
    identityBureau: guardIdentityBureau(
      deps.identityBureau ?? createIdentityBureau(config, clock),
      config,
    ),
    biller: guardBiller(deps.biller ?? createBiller(config), config),
    ussdGateway: guardUssdGateway(deps.ussdGateway ?? createUssdGateway(config, clock, db), config),
    ...emailSenders(deps),
    smsProvider: guardSmsProvider(deps.smsProvider ?? createSmsProvider(config), config),
  };
}

type Providers = ReturnType<typeof guardedProviders>;

/** One mail server, guarded twice: alerts' short deadline, statements' long one. */
function emailSenders(deps: ServiceDeps) {
  const sender = deps.emailSender ?? createEmailSender(deps.config);
  return {
    emailSender: guardEmailSender(sender, deps.config),
    statementEmailSender: guardEmailSender(sender, deps.config, 'statements'),
  };
}

/**
 * The accounts module's PDF statement, as monthly statements attach it: the account as its
 * client sees it, the period and the "generated" time the month's run fixed.
 */
function statementFiles(accounts: ReturnType<typeof customerServices>): StatementFiles {
  return {
    async pdf(request) {
      const statement = await accounts.accountService.statementExport(
        { clientId: request.clientId },
        request.accountId,
        { from: request.from, to: request.to },
        request.generatedAt,
      );
      return statementPdfFile(statement, accounts.statementBank);
    },
  };
}

/**
 * The customer-facing modules' services, each built by its module: the accounts module's ports
 * come from identity, clients and virtual accounts, so those depend on accounts, not back.
 */
function customerServices(
  deps: ServiceDeps,
  providers: Providers,
  platform: { readonly revocations: ReturnType<typeof authModule.createServices>['revocations'] },
) {
  const { config, db, clock } = deps;
  const core = { config, db, clock };
  const identity = identityModule.createServices({
    ...core,
    bureau: providers.identityBureau,
    otpSecret: deps.secrets.tokenSigningSecret,
  });
  const accounts = accountsModule.createServices({
    ...core,
    clientNames,
    // GET /accounts?isSubAccount=true lists virtual accounts after the sub-accounts.
    alsoListed: virtualAccountsAsAccounts(clock),
    proof: createIdentityProof(identity.identityService),
    statementBank: { name: findBank(config.institutionCode, config.institutionCode)?.name ?? '' },
  });
  const clients = clientsModule.createServices({
    ...core,
    accountService: accounts.accountService,
    revocations: platform.revocations,
  });
  const beneficiaries = beneficiariesModule.createServices({
    ...core,
    bankName: (code) => findBank(code, config.institutionCode)?.name,
  });
  return { ...identity, ...accounts, ...clients, ...beneficiaries };
}

/**
 * The modules that move money, each built by its module: transfers pays virtual accounts
 * through their Collections port, USSD pays through transfers' inbound credits, and checkout
 * opens virtual accounts and USSD references. Checkout is told of their payments by wrapping
 * both ways a collection is paid: a payment to a session's method carries checkout's claim too
 * (checkout-collections.ts), so transfers, virtual accounts and USSD never name checkout.
 */
function paymentServices(
  deps: ServiceDeps,
  providers: Providers,
  ports: {
    readonly webhookService: ReturnType<typeof webhooksModule.createServices>['webhookService'];
    readonly beneficiaryService: ReturnType<typeof customerServices>['beneficiaryService'];
  },
) {
  const { config, db, clock } = deps;
  const core = { config, db, clock };
  // The money path group-commits placements, settlements and inbound credits (bounded queues).
  const batches = groupCommitLimits(db.kind, {
    maxWaiting: config.groupCommitMaxWaiting,
    refuse: serverBusy,
  });
  const webhookUrlOf = async (clientId: string) =>
    (await ports.webhookService.getSettings(clientId)).url;
  const { collections, virtualAccountService } = virtualAccountsModule.createServices({
    ...core,
    webhookUrlOf,
  });
  const checkoutCollections = createCheckoutCollections({
    db,
    clock,
    institutionCode: config.institutionCode,
  });
  const transfers = transfersModule.createServices({
    ...core,
    rail: providers.rail,
    batches,
    collections: checkoutCollections.collections(collections),
    beneficiaries: ports.beneficiaryService,
  });
  const vas = vasModule.createServices({ ...core, biller: providers.biller, batches });
  const ussd = ussdModule.createServices({
    ...core,
    gateway: providers.ussdGateway,
    inboundCredits: checkoutCollections.inboundCredits(transfers.inboundCredits),
    webhookUrlOf,
  });
  const checkout = checkoutModule.createServices({
    ...core,
    pageSecret: deps.secrets.tokenSigningSecret,
    findPublicClient: (oauthClientId) => findActiveAppByOAuthClientId(db, oauthClientId),
    clientNames,
    virtualAccounts: virtualAccountService,
    ussd: ussd.ussdService,
    webhookUrlOf,
    sandbox:
      config.ibsEnv === 'sandbox'
        ? checkoutSandbox(providers.rail, providers.ussdGateway)
        : undefined,
  });
  return { virtualAccountService, ...transfers, ...vas, ...ussd, ...checkout };
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
    sandboxResets.register('nip-simulator', () => {
      nipSimulator.clearQueuedOutcomes();
      nipSimulator.cancelScheduledReturns();
    });
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
        returnAfterMs: config.transfers.nipSimulatorReturnSeconds * 1000,
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

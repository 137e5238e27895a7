import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Redis } from 'ioredis';
import { isAdminPath, recordUnroutedAdminCall } from './admin/operator-audit.ts';
import { adminRoutes } from './admin/routes/index.ts';
import { requireAccessToken } from './auth/authenticate.ts';
import { tokenRoute } from './auth/routes/token.ts';
import type { Config, Secrets } from './config/config.ts';
import { dashboardRoutes } from './dashboard/index.ts';
import type { Db } from './db/db.ts';
import {
  frameworkErrorOf,
  installErrorHandlers,
  renderClientError,
  renderFrameworkError,
} from './errors/error-handler.ts';
import { healthRoutes } from './http/health.ts';
import { installRequestMetrics, metricsRoute } from './http/metrics.ts';
import { installClientInput } from './http/plugins/client-input.ts';
import { createEnumerationGuard } from './http/plugins/enumeration-guard.ts';
import { parseFormBody } from './http/plugins/form-parser.ts';
import { installJsonParser } from './http/plugins/json-parser.ts';
import { registerOpenApi } from './http/plugins/openapi.ts';
import { addPrivacyHeaders } from './http/plugins/privacy-headers.ts';
import { installRateLimits } from './http/plugins/rate-limits.ts';
import { createSerializerFactory, createValidatorFactory } from './http/plugins/validators.ts';
import { serverTimeoutOptions } from './http/server-timeouts.ts';
import { createMetricsRegistry } from './metrics.ts';
import { accountRoutes } from './modules/accounts/index.ts';
import { beneficiaryRoutes } from './modules/beneficiaries/index.ts';
import {
  checkoutPageView,
  checkoutPublicRoutes,
  checkoutSettingsRoutes,
  verifyCheckoutRoute,
} from './modules/checkout/index.ts';
import { identityRoutes } from './modules/identity/index.ts';
import { findBank, transferRoutes } from './modules/transfers/index.ts';
import { isUssdGatewaySimulator, ussdRoutes } from './modules/ussd/index.ts';
import { vasRoutes } from './modules/vas/index.ts';
import { virtualAccountRoutes } from './modules/virtual-accounts/index.ts';
import { isNipSimulator } from './rails/nip/nip-simulator.ts';
import { installSandboxFaults } from './sandbox/faults/index.ts';
import type { Services } from './services.ts';
import { type Clock, SandboxClock } from './shared/clock.ts';
import { webhookRoutes } from './webhooks/routes/index.ts';

export interface AppDeps {
  readonly config: Config;
  /** The service graph of the process (src/services.ts), built once. */
  readonly services: Services;
  readonly db: Db;
  readonly clock: Clock;
  readonly secrets: Pick<Secrets, 'adminToken'>;
  readonly logger?: FastifyServerOptions['logger'];
  /** Where rate-limit counters live when several processes must share them. */
  readonly redis?: Redis | undefined;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const NAME_ENQUIRY = '/transfers/name-enquiry';
/** The routes that reset: their own failures are theirs to answer. */
const RESETS = new Set(['/admin/sandbox/reset', '/admin/sandbox/fixtures']);

/**
 * The HTTP app: framework options, the edge plugins, then one registrar per module. It builds no
 * service; server.ts, the tests and the benchmarks hand it the services they built once.
 */
/**
 * Sandbox: whether a reset ran while a request was handled (it arrived under another generation,
 * or one is running now). Its failures answer SANDBOX_RESET (error-handler.ts); the routes that
 * reset answer their own.
 */
function resetCrossings(
  app: FastifyInstance,
  resets: Services['sandboxResets'],
  sandbox: boolean,
): (request: FastifyRequest) => boolean {
  if (!sandbox) {
    return () => false;
  }
  const arrivedIn = new WeakMap<FastifyRequest, number>();
  app.addHook('onRequest', async (request) => {
    arrivedIn.set(request, resets.generation());
  });
  return (request) => {
    const arrived = arrivedIn.get(request);
    return (
      !RESETS.has(request.routeOptions.url ?? '') &&
      arrived !== undefined &&
      (arrived !== resets.generation() || resets.resetting())
    );
  };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, services } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    requestIdHeader: false,
    schemaController: {
      compilersFactory: {
        buildValidator: createValidatorFactory(),
        buildSerializer: createSerializerFactory(),
      },
    },
    frameworkErrors: answerFrameworkError(services.auditLog),
    clientErrorHandler: renderClientError,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 256 * 1024,
    ...(config.exposure.trustProxy === undefined ? {} : { trustProxy: config.exposure.trustProxy }),
    ...serverTimeoutOptions(config.http),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onSend', async (request, reply) => addUsualHeaders(request, reply));
  installErrorHandlers(app, {
    crossedReset: resetCrossings(app, services.sandboxResets, config.ibsEnv === 'sandbox'),
  });
  installJsonParser(app);
  installClientInput(app);
  // Prometheus metrics, one registry per app (docs/deployment.md): the request hooks go on the
  // root before any route, so every route is counted.
  const metrics = config.metrics.enabled
    ? createMetricsRegistry({
        db: deps.db,
        clock: deps.clock,
        collectTimeoutMs: config.metrics.collectTimeoutMs,
      })
    : undefined;
  if (metrics !== undefined) {
    installRequestMetrics(app, metrics);
  }
  await app.register(formbody, { parser: parseFormBody });
  await registerOpenApi(app, config);

  const limits = config.rateLimits;
  const limit = await installRateLimits(app, {
    redis: deps.redis,
    redisPrefix: limits.redisPrefix,
    // Going over a limit is a security event (a lockout): once per key and window.
    onLimitReached: ({ limit: name, request }) =>
      services.auditLog.record({
        actor: request.principal?.clientId ? `client:${request.principal.clientId}` : 'anonymous',
        action: 'security.rate_limited',
        target: name,
        outcome: 'locked_out',
        details: { limit: name, route: request.routeOptions.url ?? null },
        request,
      }),
  });
  const perIp = (request: FastifyRequest) => request.ip;
  // Wrong admin tokens, at the admin API or the dashboard's sign-in: one allowance per address,
  // and an address that spends it is locked out of both until the window ends.
  const adminFailures = limit.lockout({
    name: 'admin-failures',
    max: limits.adminFailuresPerMinutePerIp,
    key: perIp,
  });
  const perClient = (request: FastifyRequest) => request.principal.clientId;
  const apiLimit = limit({ name: 'api', max: limits.apiPerMinutePerClient, key: perClient });
  // Name enquiry reveals customers' names: it has a limit of its own (docs/operations.md).
  const nameEnquiryLimit = limit({
    name: 'name-enquiry',
    max: limits.nameEnquiryPerMinutePerClient,
    key: perClient,
  });
  // A client that asks about many numbers that are no account is walking them: it waits.
  const nameEnquiryMisses = createEnumerationGuard({
    misses: limit({
      name: 'name-enquiry-misses',
      max: limits.nameEnquiryMissesPerHourPerClient,
      perSeconds: 3600,
      key: perClient,
    }),
    key: perClient,
    isMiss: (reply, payload) =>
      reply.statusCode === 400 &&
      typeof payload === 'string' &&
      payload.includes('"NAME_ENQUIRY_FAILED"'),
  });
  // A sandbox reset clears these counts too; an app closed (in a test) is taken off the list.
  const unregister = [
    services.sandboxResets.register('rate-limits', () => limit.reset()),
    services.sandboxResets.register('name-enquiry-misses', () => nameEnquiryMisses.reset()),
  ];
  app.addHook('onClose', async () => {
    for (const off of unregister) {
      off();
    }
  });
  await app.register(healthRoutes, { db: deps.db });
  if (metrics !== undefined) {
    await app.register(metricsRoute, { registry: metrics, token: config.metrics.token });
  }
  const ourBankName = findBank(config.institutionCode, config.institutionCode)?.name ?? '';
  await app.register(checkoutPublicRoutes, {
    checkoutService: services.checkoutService,
    checkoutConfig: config.checkout,
    limit,
    maxAmountKobo: config.maxAmountKobo,
    bank: { name: ourBankName, code: config.institutionCode },
    checkoutViewContext: () => ({ institutionCode: config.institutionCode, now: deps.clock.now() }),
    checkoutPageViews: {
      page: (session) =>
        checkoutPageView(session, {
          now: deps.clock.now(),
          environment: config.ibsEnv,
          payable: {
            BANK_TRANSFER: services.checkoutService.payable(session, 'BANK_TRANSFER'),
            USSD: services.checkoutService.payable(session, 'USSD'),
          },
          banks: services.ussdService.banks(),
        }),
    },
  });
  await app.register(tokenRoute, {
    tokenService: services.tokenService,
    limit: limit({ name: 'token', max: limits.tokenPerMinutePerIp, key: perIp }),
  });
  await app.register(async (authenticated) => {
    requireAccessToken(authenticated, services);
    authenticated.addHook('preHandler', async (request) => {
      await apiLimit(request);
      if (request.routeOptions.url === NAME_ENQUIRY) {
        await nameEnquiryLimit(request);
        await nameEnquiryMisses.check(request);
      }
    });
    authenticated.addHook('onSend', async (request, reply, payload) => {
      if (request.routeOptions.url === NAME_ENQUIRY) {
        await nameEnquiryMisses.record(request, reply, payload);
      }
    });
    // Sandbox: the failures a test asked for on its client's calls
    // (docs/sandbox-testing-controls.md).
    if (services.sandboxFaults !== undefined) {
      installSandboxFaults(authenticated, services.sandboxFaults);
    }
    await authenticated.register(accountRoutes, {
      accountService: services.accountService,
      subAccountService: services.subAccountService,
      institutionCode: config.institutionCode,
      maxAmountKobo: config.maxAmountKobo,
    });
    await authenticated.register(identityRoutes, { identityService: services.identityService });
    await authenticated.register(transferRoutes, {
      institutionCode: config.institutionCode,
      nameEnquiryService: services.nameEnquiryService,
      outboundTransfers: services.outboundTransfers,
      transferService: services.transferService,
      maxAmountKobo: config.maxAmountKobo,
    });
    await authenticated.register(virtualAccountRoutes, {
      virtualAccountService: services.virtualAccountService,
      virtualAccountConfig: config.virtualAccounts,
      maxAmountKobo: config.maxAmountKobo,
      viewContext: () => ({
        institutionCode: config.institutionCode,
        bankName: findBank(config.institutionCode, config.institutionCode)?.name ?? '',
        now: deps.clock.now(),
      }),
    });
    await authenticated.register(vasRoutes, {
      vasCatalogueService: services.vasCatalogueService,
      vasPurchaseService: services.vasPurchaseService,
      institutionCode: config.institutionCode,
      clock: deps.clock,
      maxAmountKobo: config.maxAmountKobo,
    });
    await authenticated.register(ussdRoutes, {
      ussdService: services.ussdService,
      maxAmountKobo: config.maxAmountKobo,
      ussdViewContext: () => ({ institutionCode: config.institutionCode, now: deps.clock.now() }),
    });
    await authenticated.register(verifyCheckoutRoute, {
      checkoutService: services.checkoutService,
      institutionCode: config.institutionCode,
      clock: deps.clock,
    });
    await authenticated.register(checkoutSettingsRoutes, {
      checkoutService: services.checkoutService,
      auditLog: services.auditLog,
    });
    await authenticated.register(beneficiaryRoutes, {
      beneficiaryService: services.beneficiaryService,
    });
    await authenticated.register(webhookRoutes, {
      webhookService: services.webhookService,
      auditLog: services.auditLog,
      clock: deps.clock,
    });
  });
  await app.register(adminRoutes, {
    adminToken: deps.secrets.adminToken,
    auditLog: services.auditLog,
    adminAllowList: config.exposure.adminAllowList,
    adminLimits: {
      everyRequest: limit({ name: 'admin', max: limits.adminPerMinutePerIp, key: perIp }),
      failures: adminFailures,
    },
    clientService: services.clientService,
    dashboardLoginLinks: config.exposure.dashboardEnabled
      ? services.dashboardLoginLinks
      : undefined,
    dashboardSessions: config.exposure.dashboardEnabled ? services.dashboardSessions : undefined,
    publicBaseUrl: config.publicBaseUrl,
    accountService: services.accountService,
    transferService: services.transferService,
    ledgerOverview: services.ledgerOverview,
    inboundCredits: services.inboundCredits,
    virtualAccountService: services.virtualAccountService,
    vasCatalogueService: services.vasCatalogueService,
    institutionCode: config.institutionCode,
    sandboxNetwork:
      config.ibsEnv === 'sandbox' && isNipSimulator(services.rail) ? services.rail : undefined,
    maxAmountKobo: config.maxAmountKobo,
    webhookService: services.webhookService,
    ussdService: services.ussdService,
    vasPurchaseService: services.vasPurchaseService,
    checkoutService: services.checkoutService,
    identityService: services.identityService,
    sandboxUssdGateway:
      config.ibsEnv === 'sandbox' && isUssdGatewaySimulator(services.ussdGateway)
        ? services.ussdGateway
        : undefined,
    clock: deps.clock,
    sandboxClock:
      config.ibsEnv === 'sandbox' && deps.clock instanceof SandboxClock ? deps.clock : undefined,
    sandboxWebhookInbox: services.webhookInbox,
    sandboxFaults: services.sandboxFaults,
    sandboxFixtures: services.sandboxFixtures,
  });
  if (config.exposure.dashboardEnabled) {
    await app.register(dashboardRoutes, {
      adminToken: deps.secrets.adminToken,
      sandbox: config.ibsEnv === 'sandbox',
      secureCookies: config.publicBaseUrl.startsWith('https:'),
      sessionTtlSeconds: config.exposure.dashboardSessionTtlSeconds,
      loginLinks: services.dashboardLoginLinks,
      auditLog: services.auditLog,
      allowList: config.exposure.adminAllowList,
      sessionStore: services.dashboardSessions,
      signInFailures: adminFailures,
    });
  }
  return app;
}

/** What every answer carries, whichever layer made it: its request id and the privacy headers. */
function addUsualHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  addPrivacyHeaders(request, reply);
}

/**
 * The router's own refusals (a bad percent-encoding, an over-long id) run no hook: they get the
 * usual headers here, and one under /admin is recorded as a refused admin call like any other.
 */
function answerFrameworkError(auditLog: Services['auditLog']) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    addUsualHeaders(request, reply);
    if (isAdminPath(request.url)) {
      const status = frameworkErrorOf(error).httpStatus;
      await recordUnroutedAdminCall(auditLog, request, status);
    }
    return renderFrameworkError(error, reply);
  };
}

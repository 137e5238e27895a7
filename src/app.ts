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
import {
  type AdminRoutesOptions,
  adminRoutes,
  type SandboxControls,
} from './admin/routes/index.ts';
import { requireAccessToken } from './auth/authenticate.ts';
import type { Config, Secrets } from './config/config.ts';
import { type DashboardOptions, dashboardRoutes } from './dashboard/index.ts';
import type { Db } from './db/db.ts';
import { DESCRIPTORS } from './descriptors.ts';
import {
  frameworkErrorOf,
  installErrorHandlers,
  renderClientError,
  renderFrameworkError,
} from './errors/error-handler.ts';
import { healthRoutes } from './http/health.ts';
import { installRequestMetrics, metricsRoute } from './http/metrics.ts';
import type { RouteInstance, RouteParts, RouteScope } from './http/module-descriptor.ts';
import { installClientInput } from './http/plugins/client-input.ts';
import { parseFormBody } from './http/plugins/form-parser.ts';
import { installJsonParser } from './http/plugins/json-parser.ts';
import { registerOpenApi } from './http/plugins/openapi.ts';
import { addPrivacyHeaders } from './http/plugins/privacy-headers.ts';
import { asPreHandler, byClient, byIp, installRateLimits } from './http/plugins/rate-limits.ts';
import { createSerializerFactory, createValidatorFactory } from './http/plugins/validators.ts';
import { OneLineRequestLog } from './http/request-log.ts';
import { serverTimeoutOptions } from './http/server-timeouts.ts';
import { isUssdGatewaySimulator } from './modules/ussd/index.ts';
import { isNipSimulator } from './rails/nip/nip-simulator.ts';
import { installSandboxFaults } from './sandbox/faults/index.ts';
import type { Services } from './services.ts';
import { type Clock, SandboxClock } from './shared/clock.ts';

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
/** The routes that reset: their own failures are theirs to answer. */
const RESETS = new Set(['/admin/sandbox/reset', '/admin/sandbox/fixtures']);

/**
 * The HTTP app: framework options, the edge plugins, then every descriptor's routes in their
 * scope (src/descriptors.ts), the admin API and the dashboard. It builds no service: server.ts,
 * the tests and the benchmarks hand it the service graph they built once.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, services } = deps;
  const app = createFastify(deps);
  await app.register(formbody, { parser: parseFormBody });
  await registerOpenApi(app, config);
  const limits = await installLimits(app, deps);
  await app.register(healthRoutes, { db: deps.db });
  if (services.metrics !== undefined) {
    await app.register(metricsRoute, { registry: services.metrics, token: config.metrics.token });
  }
  const parts = { config, db: deps.db, clock: deps.clock, services, limit: limits.limit };
  await registerRoutes(app, 'public', parts);
  await app.register(async (api) => {
    requireAccessToken(api, services);
    api.addHook('preHandler', asPreHandler(limits.api));
    // Sandbox: the failures a test asked for on its client's calls
    // (docs/sandbox-testing-controls.md).
    if (services.sandboxFaults !== undefined) {
      installSandboxFaults(api, services.sandboxFaults);
    }
    await registerRoutes(api, 'api', parts);
  });
  await app.register(adminRoutes, adminOptions(deps, limits));
  if (config.exposure.dashboardEnabled) {
    await app.register(dashboardRoutes, dashboardOptions(deps, limits));
  }
  return app;
}

/** Fastify with our options, and what goes on the root before any route. */
function createFastify(deps: AppDeps) {
  const { config, services } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    // One access line per request instead of Fastify's two.
    logController: new OneLineRequestLog(),
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
  // Prometheus (docs/deployment.md): the request hooks go on the root before any route, so
  // every route is counted.
  if (services.metrics !== undefined) {
    installRequestMetrics(app, services.metrics);
  }
  return app;
}

/** Every descriptor's routes of one scope, in the descriptors' order. */
async function registerRoutes(
  instance: RouteInstance,
  scope: RouteScope,
  parts: RouteParts<Services>,
): Promise<void> {
  for (const descriptor of DESCRIPTORS) {
    for (const routes of descriptor.routes ?? []) {
      if (routes.scope === scope) {
        await routes.register(instance, parts);
      }
    }
  }
}

/**
 * The app's rate limits (docs/operations.md): a route declares its own (`config.limits`);
 * the scopes' limits are these, the API's per client and the admin API's per address.
 */
async function installLimits(app: FastifyInstance, deps: AppDeps) {
  const { services } = deps;
  const limits = deps.config.rateLimits;
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
  // A sandbox reset clears the counts too; an app closed (in a test) is taken off the list.
  const unregister = services.sandboxResets.register('rate-limits', () => limit.reset());
  app.addHook('onClose', async () => unregister());
  return {
    limit,
    api: limit({ name: 'api', max: limits.apiPerMinutePerClient, key: byClient }),
    admin: limit({ name: 'admin', max: limits.adminPerMinutePerIp, key: byIp }),
    // Wrong admin tokens, at the admin API or the dashboard's sign-in: one allowance per
    // address, and an address that spends it is locked out of both until the window ends.
    adminFailures: limit.lockout({
      name: 'admin-failures',
      max: limits.adminFailuresPerMinutePerIp,
      key: byIp,
    }),
  };
}

type AppLimits = Awaited<ReturnType<typeof installLimits>>;

function adminOptions(deps: AppDeps, limits: AppLimits): AdminRoutesOptions {
  const { config, services } = deps;
  return {
    access: {
      operators: services.operators,
      auditLog: services.auditLog,
      allowList: config.exposure.adminAllowList,
      limits: { everyRequest: limits.admin, failures: limits.adminFailures },
      fourEyes: config.operators.fourEyes,
    },
    bank: {
      institutionCode: config.institutionCode,
      maxAmountKobo: config.maxAmountKobo,
      publicBaseUrl: config.publicBaseUrl,
      clock: deps.clock,
    },
    services,
    dashboard: config.exposure.dashboardEnabled
      ? { loginLinks: services.dashboardLoginLinks, sessions: services.dashboardSessions }
      : undefined,
    sandbox: sandboxControls(deps),
  };
}

/** What the sandbox's admin routes drive; in production, nothing. */
function sandboxControls({ config, services, clock }: AppDeps): SandboxControls {
  const sandbox = config.ibsEnv === 'sandbox';
  return {
    network: sandbox && isNipSimulator(services.rail) ? services.rail : undefined,
    ussdGateway:
      sandbox && isUssdGatewaySimulator(services.ussdGateway) ? services.ussdGateway : undefined,
    clock: sandbox && clock instanceof SandboxClock ? clock : undefined,
    webhookInbox: services.webhookInbox,
    messageInbox: services.alertInbox,
    faults: services.sandboxFaults,
    fixtures: services.sandboxFixtures,
  };
}

function dashboardOptions(deps: AppDeps, limits: AppLimits): DashboardOptions {
  const { config, services } = deps;
  return {
    adminToken: deps.secrets.adminToken,
    sandbox: config.ibsEnv === 'sandbox',
    secureCookies: config.publicBaseUrl.startsWith('https:'),
    sessionTtlSeconds: config.exposure.dashboardSessionTtlSeconds,
    loginLinks: services.dashboardLoginLinks,
    auditLog: services.auditLog,
    allowList: config.exposure.adminAllowList,
    sessionStore: services.dashboardSessions,
    signInFailures: limits.adminFailures,
    singleSignOn: services.singleSignOn,
    operators: services.operators,
    publicBaseUrl: config.publicBaseUrl,
    operatorSignIn: services.operatorSignIn,
    breakGlassOpen: services.operators.breakGlassOpen,
  };
}

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

import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { adminRoutes } from './admin/routes/index.ts';
import { createAccessTokenIssuer } from './auth/access-tokens.ts';
import { tokenRoute } from './auth/routes/token.ts';
import { createTokenService } from './auth/token-service.ts';
import type { Config } from './config/config.ts';
import type { Db } from './db/db.ts';
import {
  installErrorHandlers,
  renderClientError,
  renderFrameworkError,
} from './errors/error-handler.ts';
import { healthRoutes } from './http/health.ts';
import { requireAccessToken } from './http/plugins/authenticate.ts';
import { installClientInput } from './http/plugins/client-input.ts';
import { installJsonParser } from './http/plugins/json-parser.ts';
import { registerOpenApi } from './http/plugins/openapi.ts';
import { addPrivacyHeaders } from './http/plugins/privacy-headers.ts';
import { createValidatorFactory } from './http/plugins/validators.ts';
import { serverTimeoutOptions } from './http/server-timeouts.ts';
import { GL_ACCOUNTS } from './ledger/gl-accounts.ts';
import { createAccountService } from './modules/accounts/account-service.ts';
import { accountRoutes } from './modules/accounts/routes/index.ts';
import { subAccountRoutes } from './modules/accounts/routes/sub-accounts.ts';
import { createSubAccountService } from './modules/accounts/sub-account-service.ts';
import { createClientService } from './modules/clients/client-service.ts';
import { createIdentityProof } from './modules/identity/identity-proof.ts';
import { createIdentityService } from './modules/identity/identity-service.ts';
import { randomOtp, SANDBOX_OTP } from './modules/identity/otp.ts';
import type { IdentityBureau } from './modules/identity/providers/identity-bureau.ts';
import { createIdentityBureauSimulator } from './modules/identity/providers/identity-bureau-simulator.ts';
import { createUnconfiguredBureau } from './modules/identity/providers/unconfigured-bureau.ts';
import { identityRoutes } from './modules/identity/routes/index.ts';
import { createInboundCreditService } from './modules/transfers/inbound/inbound-credit-service.ts';
import { findBank } from './modules/transfers/name-enquiry/bank-directory.ts';
import { createNameEnquiryService } from './modules/transfers/name-enquiry/name-enquiry-service.ts';
import { transferRoutes } from './modules/transfers/routes/index.ts';
import { listBanksRoute } from './modules/transfers/routes/list-banks.ts';
import { createTransferService } from './modules/transfers/transfer-service.ts';
import { createNipSimulator, isNipSimulator } from './rails/nip/nip-simulator.ts';
import { createDatabaseSessionStore } from './rails/nip/simulator-sessions.ts';
import type { Rail } from './rails/rail.ts';
import { createUnconfiguredRail } from './rails/unconfigured-rail.ts';
import type { Clock } from './shared/clock.ts';
import { destinationPolicy } from './webhooks/destination-guard.ts';
import { webhookRoutes } from './webhooks/routes/index.ts';
import { createWebhookService } from './webhooks/webhook-service.ts';

export interface Secrets {
  readonly adminToken: string;
  readonly tokenSigningSecret: string;
}

export interface AppDeps {
  readonly config: Config;
  readonly db: Db;
  readonly clock: Clock;
  readonly secrets: Secrets;
  readonly logger?: FastifyServerOptions['logger'];
  /** The NIP rail; by default the sandbox simulator, or a refusing rail in production. */
  readonly rail?: Rail;
  /** The identity bureau; by default the sandbox simulator, or a refusing one in production. */
  readonly identityBureau?: IdentityBureau;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Builds the HTTP app from its dependencies; server.ts and the tests both call this. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    requestIdHeader: false,
    schemaController: { compilersFactory: { buildValidator: createValidatorFactory() } },
    frameworkErrors: renderFrameworkError,
    clientErrorHandler: renderClientError,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 256 * 1024,
    ...serverTimeoutOptions(deps.config.http),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    addPrivacyHeaders(request, reply);
  });

  const services = createServices(deps);
  installErrorHandlers(app);
  installJsonParser(app);
  installClientInput(app);
  await app.register(formbody);
  await registerOpenApi(app, deps.config);

  await app.register(healthRoutes, { db: deps.db });
  await app.register(tokenRoute, { tokenService: services.tokenService });
  await app.register(async (authenticated) => {
    requireAccessToken(authenticated, services.accessTokens);
    await authenticated.register(accountRoutes, {
      accountService: services.accountService,
      institutionCode: deps.config.institutionCode,
    });
    await authenticated.register(subAccountRoutes, {
      subAccountService: services.subAccountService,
      institutionCode: deps.config.institutionCode,
    });
    await authenticated.register(listBanksRoute, { institutionCode: deps.config.institutionCode });
    await authenticated.register(identityRoutes, { identityService: services.identityService });
    await authenticated.register(transferRoutes, {
      transferService: services.transferService,
      nameEnquiryService: services.nameEnquiryService,
      maxAmountKobo: deps.config.maxAmountKobo,
    });
    await authenticated.register(webhookRoutes, {
      webhookService: services.webhookService,
      clock: deps.clock,
    });
  });
  await app.register(adminRoutes, {
    adminToken: deps.secrets.adminToken,
    clientService: services.clientService,
    inboundCredits: services.inboundCredits,
    institutionCode: deps.config.institutionCode,
    sandboxNetwork:
      deps.config.ibsEnv === 'sandbox' && isNipSimulator(services.rail) ? services.rail : undefined,
    maxAmountKobo: deps.config.maxAmountKobo,
    webhookService: services.webhookService,
  });
  return app;
}

/** The sandbox NIP simulator, or in production a rail that refuses other banks (no adapter yet). */
export function createRail(config: Config, clock: Clock, db: Db): Rail {
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
export function createIdentityBureau(config: Config, clock: Clock): IdentityBureau {
  return config.ibsEnv === 'sandbox'
    ? createIdentityBureauSimulator({ clock })
    : createUnconfiguredBureau();
}

/** Wires the services once; each takes only what it needs. */
export function createServices(deps: Omit<AppDeps, 'logger'>) {
  const { config, db, clock } = deps;
  const accessTokens = createAccessTokenIssuer({
    secret: deps.secrets.tokenSigningSecret,
    issuer: config.publicBaseUrl,
    ttlSeconds: config.accessTokenTtlSeconds,
    clock,
  });
  const tokenService = createTokenService({
    db,
    clock,
    accessTokens,
    assertionPolicy: {
      audiences: config.assertionAudiences,
      minRsaKeyBits: config.minRsaKeyBits,
      maxLifetimeSeconds: config.assertionMaxLifetimeSeconds,
      clock,
    },
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    rejectReusedAssertionIds: config.assertionRejectReusedJti,
  });
  const accountService = createAccountService({
    db,
    clock,
    institutionCode: config.institutionCode,
  });
  const clientService = createClientService({
    db,
    clock,
    accountService,
    minRsaKeyBits: config.minRsaKeyBits,
  });
  const inboundCredits = createInboundCreditService({
    db,
    clock,
    institutionCode: config.institutionCode,
    stampDuty: config,
    settlementAccountId:
      config.ibsEnv === 'sandbox' ? GL_ACCOUNTS.sandboxExternalFloat : GL_ACCOUNTS.nipSettlement,
  });
  const webhookService = createWebhookService({
    db,
    clock,
    policy: destinationPolicy(config),
    secretRotationGraceSeconds: config.webhooks.secretRotationGraceSeconds,
  });
  const rail = deps.rail ?? createRail(config, clock, db);
  const banks = { find: (code: string) => findBank(code, config.institutionCode) };
  const nameEnquiryService = createNameEnquiryService({
    db,
    clock,
    rail,
    banks,
    institutionCode: config.institutionCode,
    ttlSeconds: config.transfers.nameEnquiryTtlSeconds,
  });
  // Credits other banks send arrive through the rail, whichever rail it is.
  rail.onInboundCredit((credit) => inboundCredits.receive(credit));
  const transferService = createTransferService({
    db,
    clock,
    rail,
    banks,
    institutionCode: config.institutionCode,
    config: config.transfers,
  });
  const identityService = createIdentityService({
    db,
    clock,
    bureau: deps.identityBureau ?? createIdentityBureau(config, clock),
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
    maxAmountKobo: config.maxAmountKobo,
  });
  return {
    identityService,
    subAccountService,
    accessTokens,
    tokenService,
    accountService,
    clientService,
    inboundCredits,
    webhookService,
    nameEnquiryService,
    transferService,
    rail,
  };
}

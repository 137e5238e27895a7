import type { AuditLog } from '../audit/index.ts';
import type { Secrets } from '../config/config.ts';
import {
  type CoreParts,
  type ModuleDescriptor,
  moduleRoutes,
  type RouteParts,
} from '../http/module-descriptor.ts';
import type { Clock } from '../shared/clock.ts';
import { createAccessTokenIssuer } from './access-tokens.ts';
import { createDashboardSessions } from './dashboard-sessions.ts';
import { createOperatorDirectory } from './operator-directory.ts';
import { createOperatorSecretBox, operatorSecretsKeys } from './operator-secret-box.ts';
import { createOperatorSignIn } from './operator-sign-in.ts';
import { createRevocationList } from './revocation-list.ts';
import { tokenRoute } from './routes/token.ts';
import { createSingleSignOn } from './single-sign-on.ts';
import { createTokenService } from './token-service.ts';

export interface AuthModuleDeps extends CoreParts {
  /**
   * Real time, for what the test clock must not move: client assertions are signed on the
   * caller's own clock, and an operator's dashboard sign-in should not end with the bank's day.
   */
  readonly wallClock: Clock;
  readonly secrets: Pick<Secrets, 'tokenSigningSecret' | 'adminToken'>;
  readonly auditLog: AuditLog;
}

/**
 * Access tokens and their revocations, the token endpoint's service, dashboard sessions, and the
 * operators' directory (who signs in to the admin API and the dashboard).
 */
function createAuthServices(deps: AuthModuleDeps) {
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
    auditLog: deps.auditLog,
    assertionPolicy: {
      audiences: config.assertionAudiences,
      minRsaKeyBits: config.minRsaKeyBits,
      maxLifetimeSeconds: config.assertionMaxLifetimeSeconds,
      clock: deps.wallClock,
    },
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    rejectReusedAssertionIds: config.assertionRejectReusedJti,
  });
  const revocations = createRevocationList({
    db,
    clock,
    refreshMs: config.revocationRefreshSeconds * 1000,
    tokenTtlSeconds: config.accessTokenTtlSeconds,
  });
  // In the database, so that ending a session ends it on every process.
  const dashboardSessions = createDashboardSessions({
    db,
    clock: deps.wallClock,
    ttlSeconds: config.exposure.dashboardSessionTtlSeconds,
    idleSeconds: config.operators.sessionIdleSeconds,
  });
  const operators = createOperatorDirectory({
    db,
    clock: deps.wallClock,
    adminToken: deps.secrets.adminToken,
    config: config.operators,
    sessions: dashboardSessions,
  });
  // Discovery waits for the first sign-in: a provider that is down does not stop the bank.
  const singleSignOn = config.sso === undefined ? undefined : createSingleSignOn(config.sso);
  // Local operators' passwords and second factor; the bank's name is their authenticator's issuer.
  const operatorSignIn = createOperatorSignIn({
    db,
    clock: deps.wallClock,
    config: config.operators.localSignIn,
    sessions: dashboardSessions,
    secretBox: createOperatorSecretBox(
      operatorSecretsKeys(config.operators.localSignIn.secretsKeys, {
        ibsEnv: config.ibsEnv,
        tokenSigningSecret: deps.secrets.tokenSigningSecret,
      }),
    ),
    issuer: config.alerts.bankName,
  });
  return {
    accessTokens,
    revocations,
    tokenService,
    dashboardSessions,
    operators,
    operatorSignIn,
    singleSignOn,
  };
}

type AuthServices = ReturnType<typeof createAuthServices>;

export const authModule = {
  name: 'auth',
  createServices: createAuthServices,
  routes: [
    moduleRoutes('public', tokenRoute, ({ config, services }: RouteParts<AuthServices>) => ({
      tokenService: services.tokenService,
      tokenPerMinutePerIp: config.rateLimits.tokenPerMinutePerIp,
    })),
  ],
} satisfies ModuleDescriptor<AuthServices, AuthModuleDeps, AuthServices>;

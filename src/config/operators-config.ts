import { type EnvReader, readEnvInt, readEnvString } from './env-reader.ts';
import { type LocalSignInConfig, readLocalSignInConfig } from './operator-sign-in-config.ts';

/**
 * What an operator may do, by role (docs/operators.md); auth/operator-roles.ts says what each
 * allows. Here because configuration (the identity provider's role map) is checked against it.
 */
export const OPERATOR_ROLES = ['viewer', 'support', 'finance', 'security', 'admin'] as const;

export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export function isOperatorRole(value: unknown): value is OperatorRole {
  return (OPERATOR_ROLES as readonly unknown[]).includes(value);
}

/**
 * Four eyes in production by default (docs/operators.md, "Four eyes"): what moves money or widens
 * access takes effect only when a second operator approves it. Admin contract route keys.
 */
export const FOUR_EYES_PRODUCTION_DEFAULT: readonly string[] = [
  'POST /admin/transfers/:id/reversal',
  'POST /admin/liens/:id/release',
  'POST /admin/accounts/:accountNumber/unfreeze',
  'POST /admin/clients/:id/enable',
  'POST /admin/clients/:id/apps',
  'POST /admin/clients/:id/apps/:appId/keys',
  'PUT /admin/operators/:id/roles',
  // Adding an operator grants their roles: the same second pair of eyes as granting them later.
  'POST /admin/operators',
];

/**
 * The admin actions that need a second operator: route keys of the admin contract, each checked
 * to be an action of it when the admin API is built.
 */
export interface FourEyesConfig {
  readonly routes: readonly string[];
}

/**
 * When the shared ADMIN_TOKEN still opens the admin API (docs/operators.md): `on` always (the
 * sandbox's default: a test bench drives the bank with it), `bootstrap` until an active operator
 * holds the admin role (production's default: it creates the first operator, then closes), `off`
 * never. Every call made with it is audited as `break-glass`.
 */
export type BreakGlassMode = 'on' | 'bootstrap' | 'off';

export interface OperatorsConfig {
  readonly breakGlass: BreakGlassMode;
  /** A dashboard session unused this long ends (the absolute limit is the session's TTL). */
  readonly sessionIdleSeconds: number;
  /** The longest a personal API key may live, and what a key without an expiry gets. */
  readonly apiKeyMaxDays: number;
  /** Local operators' passwords, second factor and lockout (operator-sign-in-config.ts). */
  readonly localSignIn: LocalSignInConfig;
  /** The admin actions a second operator must approve (FOUR_EYES). */
  readonly fourEyes: FourEyesConfig;
  /** A request waiting for approval expires this long after it was made. */
  readonly approvalTtlSeconds: number;
}

const BREAK_GLASS_MODES: readonly BreakGlassMode[] = ['on', 'bootstrap', 'off'];

export function readOperatorsConfig(read: EnvReader, production: boolean): OperatorsConfig {
  return Object.freeze({
    breakGlass: readBreakGlass(read, production),
    sessionIdleSeconds: readEnvInt(read, 'OPERATOR_SESSION_IDLE_SECONDS', {
      fallback: 1_800,
      min: 60,
      max: 86_400,
    }),
    apiKeyMaxDays: readEnvInt(read, 'OPERATOR_API_KEY_MAX_DAYS', {
      fallback: 90,
      min: 1,
      max: 366,
    }),
    localSignIn: readLocalSignInConfig(read, production),
    fourEyes: readFourEyes(read, production),
    approvalTtlSeconds: readEnvInt(read, 'APPROVAL_TTL_SECONDS', {
      fallback: 86_400,
      min: 60,
      max: 30 * 86_400,
    }),
  });
}

const ROUTE_KEY = /^(POST|PUT|DELETE) \/admin\/[A-Za-z0-9/:._-]+$/;

/**
 * FOUR_EYES: `default` (production: FOUR_EYES_PRODUCTION_DEFAULT; sandbox: nothing), `none`, or
 * a comma list of admin route keys (`POST /admin/liens/:id/release`). Only actions: a read needs
 * no approval.
 */
function readFourEyes(read: EnvReader, production: boolean): FourEyesConfig {
  const raw = readEnvString(read, 'FOUR_EYES', {})?.trim();
  if (raw === undefined || raw === 'default') {
    return { routes: production ? FOUR_EYES_PRODUCTION_DEFAULT : [] };
  }
  if (raw === 'none') {
    return { routes: [] };
  }
  const routes = [...new Set(raw.split(',').map((key) => key.trim().replace(/\s+/g, ' ')))];
  const wrong = routes.filter((key) => !ROUTE_KEY.test(key));
  if (wrong.length > 0) {
    read.problems.push(
      `FOUR_EYES must be none, default or admin actions like "POST /admin/liens/:id/release"; not ${wrong.join(', ')}`,
    );
  }
  return { routes };
}

function readBreakGlass(read: EnvReader, production: boolean): BreakGlassMode {
  const raw = readEnvString(read, 'ADMIN_BREAK_GLASS', {});
  if (raw === undefined) {
    return production ? 'bootstrap' : 'on';
  }
  const mode = BREAK_GLASS_MODES.find((candidate) => candidate === raw);
  if (mode === undefined) {
    read.problems.push(`ADMIN_BREAK_GLASS must be one of ${BREAK_GLASS_MODES.join(', ')}`);
    return 'off';
  }
  return mode;
}

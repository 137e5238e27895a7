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
    localSignIn: readLocalSignInConfig(read),
  });
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

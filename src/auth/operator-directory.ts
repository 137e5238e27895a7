import type { OperatorsConfig } from '../config/operators-config.ts';
import type { Db } from '../db/db.ts';
import { AppError } from '../errors/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { constantTimeEqual, sha256Hex } from '../shared/hashing.ts';
import { newOpaqueId, newSecretToken } from '../shared/ids.ts';
import type { DashboardSessions } from './dashboard-sessions.ts';
import {
  activeAdminExists,
  findApiKeyOwner,
  findOperator,
  insertOperator,
  insertOperatorApiKey,
  listOperatorApiKeys,
  listOperators,
  type OperatorApiKeyRecord,
  type OperatorRecord,
  revokeOperatorApiKey,
  updateOperatorRoles,
  updateOperatorStatus,
} from './operator-repository.ts';
import { OPERATOR_ROLES, type OperatorRole } from './operator-roles.ts';
import { signInWithSso } from './operator-sso-sign-in.ts';
import type { SsoIdentity } from './sso-identity.ts';

/** Personal API keys start so; the dashboard's in-process calls carry its session so. */
export const API_KEY_PREFIX = 'oibs_opk_';
export const SESSION_CREDENTIAL_PREFIX = 'oibs_ses_';

/** Who is calling the admin API, as the audit trail records them. */
export interface OperatorIdentity {
  readonly kind: 'operator' | 'break-glass';
  /** The operator's id; null for a break-glass call made with the shared admin token. */
  readonly operatorId: string | null;
  readonly roles: readonly OperatorRole[];
  /** The credential: `key:<id>`, `session:<first 16 hex of its hash>` or `admin-token`. */
  readonly sessionId: string;
  /** The audit trail's actor: `operator:<email>`, or `break-glass[:<label>]`. */
  readonly actor: string;
}

export interface IssuedApiKey {
  readonly key: OperatorApiKeyRecord;
  /** Shown once, to whoever asked for it; only its SHA-256 is kept. */
  readonly token: string;
}

export type OperatorDirectory = ReturnType<typeof createOperatorDirectory>;

/**
 * Operators as people (docs/operators.md): who they are, their roles, their API keys, and the
 * one place a bearer credential of the admin API becomes an identity. Nothing is cached: every
 * request reads the credential's row and its operator's status, so a disabled operator or a
 * revoked key is refused from the next request on, on every process.
 */
export function createOperatorDirectory(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly adminToken: string;
  readonly config: OperatorsConfig;
  readonly sessions: DashboardSessions;
}) {
  const { db, clock } = deps;
  const breakGlassOpen = async (): Promise<boolean> =>
    deps.config.breakGlass === 'on' ||
    (deps.config.breakGlass === 'bootstrap' && !(await activeAdminExists(db, clock.now())));
  return {
    breakGlassOpen,
    /** Break-glass in bootstrap mode, with no admin able to get in yet: the bank's first day. */
    bootstrapping: async (): Promise<boolean> =>
      deps.config.breakGlass === 'bootstrap' && !(await activeAdminExists(db, clock.now())),
    /** The identity behind a bearer credential; undefined when it opens nothing. */
    async authenticate(bearer: string, label?: string): Promise<OperatorIdentity | undefined> {
      if (bearer.startsWith(API_KEY_PREFIX)) {
        const owner = await findApiKeyOwner(db, sha256Hex(bearer), clock.now());
        return owner === undefined
          ? undefined
          : operatorIdentity(
              owner.operatorId,
              owner.email,
              owner.roles,
              `key:${owner.credentialId}`,
            );
      }
      if (bearer.startsWith(SESSION_CREDENTIAL_PREFIX)) {
        return sessionIdentity(bearer.slice(SESSION_CREDENTIAL_PREFIX.length));
      }
      if (constantTimeEqual(bearer, deps.adminToken) && (await breakGlassOpen())) {
        return breakGlassIdentity('admin-token', label);
      }
      return undefined;
    },
    create: (input: NewOperator, by: OperatorIdentity) => createOperator(db, clock, input, by),
    list: (page: { limit: number; offset: number }) => listOperators(db, page),
    find: (id: string) => findOperator(db, id),
    setRoles: (id: string, roles: readonly OperatorRole[]) =>
      updateOperatorRoles(db, id, normalisedRoles(roles), clock.now()),
    /** Disabling also ends the operator's sessions (their keys stop with their status). */
    async setStatus(id: string, status: 'active' | 'disabled') {
      const operator = await updateOperatorStatus(db, id, status, clock.now());
      if (operator !== undefined && status === 'disabled') {
        await deps.sessions.endForOperator(id);
      }
      return operator;
    },
    issueApiKey: (operatorId: string, request: { name: string; days?: number | undefined }) =>
      issueApiKey(db, clock, deps.config, operatorId, request),
    listApiKeys: (operatorId: string) => listOperatorApiKeys(db, operatorId),
    revokeApiKey: (operatorId: string, keyId: string) =>
      revokeOperatorApiKey(db, operatorId, keyId, clock.now()),
    endSessions: (operatorId: string) => deps.sessions.endForOperator(operatorId),
    signInWithSso: (identity: SsoIdentity) => signInWithSso(db, clock, identity),
  };

  async function sessionIdentity(secret: string): Promise<OperatorIdentity | undefined> {
    const session = await deps.sessions.find(secret);
    if (session === undefined) {
      return undefined;
    }
    const sessionId = `session:${sha256Hex(secret).slice(0, 16)}`;
    if (session.operatorId !== null) {
      return operatorIdentity(session.operatorId, session.operator, session.roles, sessionId);
    }
    return (await breakGlassOpen()) ? breakGlassIdentity(sessionId, session.operator) : undefined;
  }
}

export interface NewOperator {
  readonly email: string;
  readonly displayName: string;
  readonly roles: readonly OperatorRole[];
}

async function createOperator(
  db: Db,
  clock: Clock,
  input: NewOperator,
  by: OperatorIdentity,
): Promise<OperatorRecord> {
  const created = await insertOperator(db, {
    id: `opr_${newOpaqueId(clock, 12)}`,
    email: input.email.trim().toLowerCase(),
    displayName: input.displayName.trim(),
    roles: normalisedRoles(input.roles),
    createdBy: by.actor,
    now: clock.now(),
  });
  if (created === undefined) {
    throw new AppError('OPERATOR_EXISTS');
  }
  return created;
}

async function issueApiKey(
  db: Db,
  clock: Clock,
  config: OperatorsConfig,
  operatorId: string,
  request: { name: string; days?: number | undefined },
): Promise<IssuedApiKey> {
  const now = clock.now();
  const days = Math.min(request.days ?? config.apiKeyMaxDays, config.apiKeyMaxDays);
  const token = `${API_KEY_PREFIX}${newSecretToken()}`;
  const key = await insertOperatorApiKey(db, {
    id: `opk_${newOpaqueId(clock, 12)}`,
    operatorId,
    name: request.name.trim(),
    tokenHash: sha256Hex(token),
    now,
    expiresAt: new Date(now.getTime() + days * 86_400_000),
  });
  return { key, token };
}

/** Roles in the table's order, each once. */
function normalisedRoles(roles: readonly OperatorRole[]): OperatorRole[] {
  return OPERATOR_ROLES.filter((role) => roles.includes(role));
}

function operatorIdentity(
  operatorId: string,
  email: string,
  roles: readonly OperatorRole[],
  sessionId: string,
): OperatorIdentity {
  return { kind: 'operator', operatorId, roles, sessionId, actor: `operator:${email}` };
}

function breakGlassIdentity(sessionId: string, label: string | undefined): OperatorIdentity {
  return {
    kind: 'break-glass',
    operatorId: null,
    roles: OPERATOR_ROLES,
    sessionId,
    actor: label === undefined ? 'break-glass' : `break-glass:${label}`,
  };
}

import type { LocalSignInConfig } from '../config/operator-sign-in-config.ts';
import type { Db } from '../db/db.ts';
import { AppError, recordNotFound } from '../errors/app-error.ts';
import type { Clock } from '../shared/clock.ts';
import { sha256Hex } from '../shared/hashing.ts';
import { newSecretToken } from '../shared/ids.ts';
import type { DashboardSessions } from './dashboard-sessions.ts';
import type { OperatorIdentity } from './operator-directory.ts';
import { hashPassword, passwordProblem } from './operator-passwords.ts';
import type { OperatorSecretBox } from './operator-secret-box.ts';
import {
  clearLocalCredentials,
  completeSetupTicket,
  findLiveSetupTicket,
  findSignInState,
  type SignInState,
  unlockSignIn,
  upsertSetupTicket,
} from './operator-sign-in-repository.ts';
import { checkTotp, newTotpSecret, totpUri } from './operator-totp.ts';

export interface SetupDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly config: LocalSignInConfig;
  readonly sessions: Pick<DashboardSessions, 'endForOperator'>;
  /** Seals the TOTP secrets this stores and opens those it reads. */
  readonly secretBox: OperatorSecretBox;
  /** The bank's name: the issuer an authenticator app shows beside the code. */
  readonly issuer: string;
}

export interface SetupLink {
  readonly operatorId: string;
  /** The link's secret, shown once to the admin who asked; only its SHA-256 is kept. */
  readonly ticket: string;
  readonly expiresAt: Date;
}

/** What the setup page shows its opener. */
export interface SetupView {
  readonly email: string;
  readonly totpSecret: string;
  readonly totpUri: string;
  readonly expiresAt: Date;
}

export type SetupOutcome =
  | { readonly ok: true; readonly operatorId: string; readonly email: string }
  | { readonly ok: false; readonly spent: boolean; readonly problem: string };

const SPENT = 'This setup link was used already or has expired. Ask an admin for a new one.';

/**
 * The operator an admin acts on, refused when it is the admin themselves (another admin must do
 * it: one stolen session cannot replace its own owner's second factor) or an SSO operator.
 */
async function otherLocalOperator(
  deps: SetupDeps,
  operatorId: string,
  by: OperatorIdentity,
): Promise<SignInState> {
  if (by.operatorId === operatorId) {
    throw new AppError('OPERATOR_SELF_SERVICE');
  }
  const state = await findSignInState(deps.db, operatorId);
  if (state === undefined) {
    throw recordNotFound();
  }
  if (state.usesSso) {
    throw new AppError('OPERATOR_NOT_LOCAL');
  }
  return state;
}

async function issueTicket(deps: SetupDeps, operatorId: string, by: OperatorIdentity) {
  const now = deps.clock.now();
  const ticket = newSecretToken();
  const expiresAt = new Date(now.getTime() + deps.config.setupLinkTtlSeconds * 1000);
  await upsertSetupTicket(deps.db, {
    operatorId,
    ticketHash: sha256Hex(ticket),
    sealedTotpSecret: deps.secretBox.seal(newTotpSecret(), operatorId),
    createdBy: by.actor,
    now,
    expiresAt,
  });
  return { operatorId, ticket, expiresAt } satisfies SetupLink;
}

/** A first setup link, for an active local operator who has not set up their sign-in yet. */
export async function issueSetupLink(
  deps: SetupDeps,
  operatorId: string,
  by: OperatorIdentity,
): Promise<SetupLink> {
  const state = await otherLocalOperator(deps, operatorId, by);
  if (state.status !== 'active') {
    throw new AppError('OPERATOR_DISABLED');
  }
  if (state.hasPassword || state.hasSecondFactor) {
    throw new AppError('OPERATOR_ALREADY_SET_UP');
  }
  return issueTicket(deps, operatorId, by);
}

/**
 * Forgets the operator's password and second factor, lifts any lock, ends their dashboard
 * sessions (whoever held them) and answers a new setup link. Their API keys are left alone:
 * revoking those is its own action.
 */
export async function resetSignIn(
  deps: SetupDeps,
  operatorId: string,
  by: OperatorIdentity,
): Promise<SetupLink> {
  const state = await otherLocalOperator(deps, operatorId, by);
  if (state.status !== 'active') {
    throw new AppError('OPERATOR_DISABLED');
  }
  await clearLocalCredentials(deps.db, operatorId, deps.clock.now());
  await deps.sessions.endForOperator(operatorId);
  return issueTicket(deps, operatorId, by);
}

/** Lifts a lockout before it ends by itself, and clears the count of failures. */
export async function unlock(
  deps: SetupDeps,
  operatorId: string,
  by: OperatorIdentity,
): Promise<SignInState> {
  await otherLocalOperator(deps, operatorId, by);
  const state = await unlockSignIn(deps.db, operatorId, deps.clock.now());
  if (state === undefined) {
    throw recordNotFound();
  }
  return state;
}

/** What the setup page of a live link shows; undefined for a spent, expired or unknown one. */
export async function openSetup(deps: SetupDeps, ticket: string): Promise<SetupView | undefined> {
  const found = await findLiveSetupTicket(deps.db, sha256Hex(ticket), deps.clock.now());
  if (found === undefined) {
    return undefined;
  }
  const { secret } = deps.secretBox.open(found.sealedTotpSecret, found.operatorId);
  return {
    email: found.email,
    totpSecret: secret,
    totpUri: totpUri(secret, { issuer: deps.issuer, email: found.email }),
    expiresAt: found.expiresAt,
  };
}

/**
 * The operator's choice of password and the code that proves their authenticator app holds the
 * secret shown. A refused password or code leaves the link live, to try again; the link is spent
 * only by a setup that completes.
 */
export async function completeSetup(
  deps: SetupDeps,
  ticket: string,
  answer: { password: string; passwordAgain: string; code: string },
): Promise<SetupOutcome> {
  const now = deps.clock.now();
  const ticketHash = sha256Hex(ticket);
  const found = await findLiveSetupTicket(deps.db, ticketHash, now);
  if (found === undefined) {
    return { ok: false, spent: true, problem: SPENT };
  }
  const problem =
    passwordProblem(answer.password, found.email) ??
    (answer.password === answer.passwordAgain ? undefined : 'The two passwords differ.');
  if (problem !== undefined) {
    return { ok: false, spent: false, problem };
  }
  const { secret } = deps.secretBox.open(found.sealedTotpSecret, found.operatorId);
  const code = checkTotp(secret, answer.code, now, null);
  if (!code.ok) {
    return {
      ok: false,
      spent: false,
      problem: 'That code is not the one your authenticator app shows now. Check the secret.',
    };
  }
  const passwordHash = await hashPassword(answer.password, deps.config.passwordLog2N);
  const completed = await completeSetupTicket(deps.db, {
    ticketHash,
    operatorId: found.operatorId,
    passwordHash,
    sealedTotpSecret: deps.secretBox.seal(secret, found.operatorId),
    totpStep: code.step,
    now,
  });
  return completed
    ? { ok: true, operatorId: found.operatorId, email: found.email }
    : { ok: false, spent: true, problem: SPENT };
}

import type { LocalSignInConfig } from '../config/operator-sign-in-config.ts';
import type { Db } from '../db/db.ts';
import type { Clock } from '../shared/clock.ts';
import type { DashboardSessions } from './dashboard-sessions.ts';
import type { OperatorIdentity } from './operator-directory.ts';
import { dummyPasswordHash, verifyPassword } from './operator-passwords.ts';
import type { OperatorSecretBox } from './operator-secret-box.ts';
import {
  completeSetup,
  issueSetupLink,
  openSetup,
  resetSignIn,
  type SetupDeps,
  unlock,
} from './operator-setup.ts';
import {
  findSignInRecord,
  recordFailedSignIn,
  recordSignIn,
  resealTotpSecret,
  type SignInRecord,
} from './operator-sign-in-repository.ts';
import { checkTotp } from './operator-totp.ts';

export type { SetupLink, SetupOutcome, SetupView } from './operator-setup.ts';
export type { SignInState } from './operator-sign-in-repository.ts';

/** Why a sign-in was refused, as the audit trail records it (the operator is told less). */
export type SignInRefusal =
  | 'unknown-operator'
  | 'not-set-up'
  | 'disabled'
  | 'locked'
  | 'wrong-password'
  | 'wrong-code'
  | 'reused-code';

export type SignInOutcome =
  | { readonly ok: true; readonly operatorId: string; readonly email: string }
  | {
      readonly ok: false;
      readonly reason: SignInRefusal;
      /** The operator the email named, if any (the audit trail's target). */
      readonly operatorId: string | null;
      /** Set when the operator is locked out (now or by this very failure): until when. */
      readonly lockedUntil: Date | null;
    };

export interface SignInAttempt {
  readonly email: string;
  readonly password: string;
  readonly code: string;
}

export type OperatorSignIn = ReturnType<typeof createOperatorSignIn>;

/**
 * Local operators' sign-in (docs/operators.md, "Local operators: password and second factor"):
 * setup links, the sign-in with a password and a TOTP code, and the per-operator lockout that
 * another admin may lift.
 */
export function createOperatorSignIn(deps: {
  readonly db: Db;
  readonly clock: Clock;
  readonly config: LocalSignInConfig;
  readonly sessions: Pick<DashboardSessions, 'endForOperator'>;
  readonly secretBox: OperatorSecretBox;
  readonly issuer: string;
}) {
  const setup: SetupDeps = deps;
  // Made once, at the first unknown address: what an unknown address's password is checked
  // against, so that it costs what a known one does.
  let dummyHash: Promise<string> | undefined;
  const standIn = () => {
    dummyHash ??= dummyPasswordHash(deps.config.passwordLog2N);
    return dummyHash;
  };
  return {
    issueSetupLink: (operatorId: string, by: OperatorIdentity) =>
      issueSetupLink(setup, operatorId, by),
    resetSignIn: (operatorId: string, by: OperatorIdentity) => resetSignIn(setup, operatorId, by),
    unlock: (operatorId: string, by: OperatorIdentity) => unlock(setup, operatorId, by),
    openSetup: (ticket: string) => openSetup(setup, ticket),
    completeSetup: (
      ticket: string,
      answer: { password: string; passwordAgain: string; code: string },
    ) => completeSetup(setup, ticket, answer),
    signIn: (attempt: SignInAttempt) => signIn(deps, attempt, standIn),
  };
}

/**
 * The lock is looked at before the password: a locked operator's password is not tried, so a
 * guesser learns nothing while it holds. A wrong password and a wrong code both count and are
 * told the same; both are checked each time, so the answer's time does not say which was wrong.
 */
async function signIn(
  deps: {
    readonly db: Db;
    readonly clock: Clock;
    readonly config: LocalSignInConfig;
    readonly secretBox: OperatorSecretBox;
  },
  attempt: SignInAttempt,
  standIn: () => Promise<string>,
): Promise<SignInOutcome> {
  const now = deps.clock.now();
  const record = await findSignInRecord(deps.db, attempt.email.trim().toLowerCase());
  const refused = (reason: SignInRefusal, lockedUntil: Date | null = null): SignInOutcome => ({
    ok: false,
    reason,
    operatorId: record?.id ?? null,
    lockedUntil,
  });
  const { password } = attempt;
  if (record === undefined || record.passwordHash === null || record.sealedTotpSecret === null) {
    await verifyPassword(password, await standIn());
    return refused(record === undefined ? 'unknown-operator' : 'not-set-up');
  }
  if (record.status !== 'active') {
    return refused('disabled');
  }
  if (record.lockedUntil !== null && record.lockedUntil > now) {
    return refused('locked', record.lockedUntil);
  }
  const reason = await checkSecrets(deps, {
    record,
    passwordHash: record.passwordHash,
    sealedTotpSecret: record.sealedTotpSecret,
    password,
    code: attempt.code,
    now,
  });
  if (reason === undefined) {
    return { ok: true, operatorId: record.id, email: record.email };
  }
  const counted = await recordFailedSignIn(deps.db, record.id, {
    maxFailures: deps.config.lockoutFailures,
    lockUntil: new Date(now.getTime() + deps.config.lockoutSeconds * 1000),
  });
  const lockedUntil = counted?.lockedUntil ?? null;
  return refused(reason, lockedUntil !== null && lockedUntil > now ? lockedUntil : null);
}

/**
 * Why the password or code is refused, or undefined once the sign-in is recorded. A secret that
 * cannot be decrypted (a key missing from OPERATOR_SECRETS_KEY, an altered row) throws: that is
 * the bank's fault, not the operator's, so it neither counts towards their lockout nor passes.
 */
async function checkSecrets(
  deps: { readonly db: Db; readonly secretBox: OperatorSecretBox },
  check: {
    record: SignInRecord;
    passwordHash: string;
    sealedTotpSecret: string;
    password: string;
    code: string;
    now: Date;
  },
): Promise<SignInRefusal | undefined> {
  const { id, totpLastStep } = check.record;
  const totpSecret = deps.secretBox.open(check.sealedTotpSecret, id);
  const passwordOk = await verifyPassword(check.password, check.passwordHash);
  const totp = checkTotp(totpSecret.secret, check.code, check.now, totpLastStep);
  if (!passwordOk) {
    return 'wrong-password';
  }
  if (!totp.ok) {
    return totp.reason;
  }
  // Of two sign-ins with one code at once, only one records its step.
  if (!(await recordSignIn(deps.db, id, totp.step, check.now))) {
    return 'reused-code';
  }
  // A secret in clear (stored before secrets were encrypted) or under an older key is stored
  // under the current key once its owner has proved they hold it.
  if (!totpSecret.current) {
    const to = deps.secretBox.seal(totpSecret.secret, id);
    await resealTotpSecret(deps.db, id, { from: check.sealedTotpSecret, to });
  }
  return undefined;
}

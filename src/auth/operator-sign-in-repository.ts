import type { Queryable } from '../db/db.ts';

/**
 * What a local sign-in reads of an operator: their secrets stay in this folder. The TOTP secret
 * is stored sealed (operator-secret-box.ts): this file moves it, never opens it.
 */
export interface SignInRecord {
  readonly id: string;
  readonly email: string;
  readonly status: 'active' | 'disabled';
  readonly passwordHash: string | null;
  readonly sealedTotpSecret: string | null;
  readonly totpLastStep: number | null;
  readonly lockedUntil: Date | null;
}

/** An operator's local sign-in as an admin sees it (no secret in it). */
export interface SignInState {
  readonly id: string;
  readonly email: string;
  readonly status: 'active' | 'disabled';
  readonly hasPassword: boolean;
  readonly hasSecondFactor: boolean;
  readonly usesSso: boolean;
  readonly failedSignIns: number;
  readonly lockedUntil: Date | null;
}

/** A live setup link's operator and the TOTP secret it shows (sealed). */
export interface SetupTicketRecord {
  readonly operatorId: string;
  readonly email: string;
  readonly sealedTotpSecret: string;
  readonly expiresAt: Date;
}

const STATE_COLUMNS = `id, email, status, password_hash IS NOT NULL AS "hasPassword",
  totp_secret IS NOT NULL AS "hasSecondFactor", sso_issuer IS NOT NULL AS "usesSso",
  failed_sign_ins AS "failedSignIns", locked_until AS "lockedUntil"`;

export async function findSignInState(db: Queryable, id: string): Promise<SignInState | undefined> {
  const rows = await db.query<SignInState>(`SELECT ${STATE_COLUMNS} FROM operators WHERE id = $1`, [
    id,
  ]);
  return rows[0];
}

export async function findSignInRecord(
  db: Queryable,
  email: string,
): Promise<SignInRecord | undefined> {
  const rows = await db.query<SignInRecord>(
    `SELECT id, email, status, password_hash AS "passwordHash", totp_secret AS "sealedTotpSecret",
            totp_last_step::float8 AS "totpLastStep", locked_until AS "lockedUntil"
       FROM operators WHERE email = $1`,
    [email],
  );
  return rows[0];
}

/**
 * Stores an operator's TOTP secret sealed again (under the current key, or for the first time
 * when it was in clear), only if the row still holds what was read: a reset meanwhile wins.
 */
export async function resealTotpSecret(
  db: Queryable,
  id: string,
  sealed: { from: string; to: string },
): Promise<void> {
  await db.query(`UPDATE operators SET totp_secret = $3 WHERE id = $1 AND totp_secret = $2`, [
    id,
    sealed.from,
    sealed.to,
  ]);
}

/**
 * Counts a failed sign-in; the one that reaches `maxFailures` locks the operator until
 * `lockUntil` and starts the count again. One statement, so failures at once all count.
 */
export async function recordFailedSignIn(
  db: Queryable,
  id: string,
  lock: { maxFailures: number; lockUntil: Date },
): Promise<{ failedSignIns: number; lockedUntil: Date | null } | undefined> {
  const rows = await db.query<{ failedSignIns: number; lockedUntil: Date | null }>(
    `UPDATE operators
        SET failed_sign_ins = CASE WHEN failed_sign_ins + 1 >= $2 THEN 0
                                   ELSE failed_sign_ins + 1 END,
            locked_until = CASE WHEN failed_sign_ins + 1 >= $2 THEN $3 ELSE locked_until END
      WHERE id = $1
      RETURNING failed_sign_ins AS "failedSignIns", locked_until AS "lockedUntil"`,
    [id, lock.maxFailures, lock.lockUntil],
  );
  return rows[0];
}

/**
 * A sign-in that passed: clears the count and records the code's step. It holds only while the
 * operator is active, unlocked and the step is newer than the last one, so of two sign-ins with
 * one code at once, one wins.
 */
export async function recordSignIn(
  db: Queryable,
  id: string,
  step: number,
  now: Date,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE operators SET failed_sign_ins = 0, locked_until = NULL, totp_last_step = $2
      WHERE id = $1 AND status = 'active'
        AND (totp_last_step IS NULL OR totp_last_step < $2)
        AND (locked_until IS NULL OR locked_until <= $3)
      RETURNING id`,
    [id, step, now],
  );
  return rows.length === 1;
}

export async function unlockSignIn(
  db: Queryable,
  id: string,
  now: Date,
): Promise<SignInState | undefined> {
  const rows = await db.query<SignInState>(
    `UPDATE operators SET failed_sign_ins = 0, locked_until = NULL, updated_at = $2
      WHERE id = $1 RETURNING ${STATE_COLUMNS}`,
    [id, now],
  );
  return rows[0];
}

/** Forgets an operator's password and second factor (and any lock): they set up again. */
export async function clearLocalCredentials(db: Queryable, id: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE operators SET password_hash = NULL, totp_secret = NULL, totp_last_step = NULL,
                          failed_sign_ins = 0, locked_until = NULL, updated_at = $2
      WHERE id = $1`,
    [id, now],
  );
}

/** Makes the operator's setup link; one live per operator, so a new one replaces the last. */
export async function upsertSetupTicket(
  db: Queryable,
  ticket: {
    operatorId: string;
    ticketHash: string;
    sealedTotpSecret: string;
    createdBy: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO operator_setup_tickets
            (operator_id, ticket_hash, totp_secret, created_at, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (operator_id) DO UPDATE
        SET ticket_hash = EXCLUDED.ticket_hash, totp_secret = EXCLUDED.totp_secret,
            created_at = EXCLUDED.created_at, created_by = EXCLUDED.created_by,
            expires_at = EXCLUDED.expires_at`,
    [
      ticket.operatorId,
      ticket.ticketHash,
      ticket.sealedTotpSecret,
      ticket.now,
      ticket.createdBy,
      ticket.expiresAt,
    ],
  );
}

/** The live setup link of an active operator with this ticket hash. */
export async function findLiveSetupTicket(
  db: Queryable,
  ticketHash: string,
  now: Date,
): Promise<SetupTicketRecord | undefined> {
  const rows = await db.query<SetupTicketRecord>(
    `SELECT t.operator_id AS "operatorId", o.email, t.totp_secret AS "sealedTotpSecret",
            t.expires_at AS "expiresAt"
       FROM operator_setup_tickets t JOIN operators o ON o.id = t.operator_id
      WHERE t.ticket_hash = $1 AND t.expires_at > $2 AND o.status = 'active'`,
    [ticketHash, now],
  );
  return rows[0];
}

/**
 * Spends a live setup link and sets the operator's password and second factor, in one statement:
 * of two completions at once, one finds the ticket. The secret is the ticket's, sealed afresh by
 * the caller for this operator (the ticket's own row may be in clear or under an older key). A
 * link of an operator disabled meanwhile is spent and sets nothing.
 */
export async function completeSetupTicket(
  db: Queryable,
  completion: {
    ticketHash: string;
    operatorId: string;
    passwordHash: string;
    sealedTotpSecret: string;
    totpStep: number;
    now: Date;
  },
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `WITH spent AS (
       DELETE FROM operator_setup_tickets
        WHERE ticket_hash = $1 AND expires_at > $4 AND operator_id = $5
        RETURNING operator_id)
     UPDATE operators o
        SET password_hash = $2, totp_secret = $6, totp_last_step = $3,
            failed_sign_ins = 0, locked_until = NULL, updated_at = $4
       FROM spent
      WHERE o.id = spent.operator_id AND o.status = 'active'
      RETURNING o.id`,
    [
      completion.ticketHash,
      completion.passwordHash,
      completion.totpStep,
      completion.now,
      completion.operatorId,
      completion.sealedTotpSecret,
    ],
  );
  return rows.length === 1;
}

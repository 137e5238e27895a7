import { Secret, TOTP } from 'otpauth';

/**
 * Local operators' second factor (docs/operators.md): TOTP (RFC 6238) as every authenticator
 * app reads it, SHA-1, 6 digits, 30-second steps, with a 20-byte secret (RFC 4226's
 * recommended length). A code is accepted one step either side of the server's (a phone's clock
 * a little off, a code typed as it turned), and never twice: the step of the last accepted code
 * is kept, and a code of that step or an earlier one is refused.
 */

const PERIOD_SECONDS = 30;
const DIGITS = 6;
const ALGORITHM = 'SHA1';
const SECRET_BYTES = 20;
/** Steps either side of now that are accepted. */
const WINDOW = 1;
const CODE = /^\d{6}$/;

/** A new secret, base32 (what authenticator apps take when typed in). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The `otpauth://` URI an authenticator app imports (from a QR code or a link). */
export function totpUri(secret: string, account: { issuer: string; email: string }): string {
  return totpFor(secret, account).toString();
}

export type TotpCheck =
  | { readonly ok: true; readonly step: number }
  | { readonly ok: false; readonly reason: 'wrong-code' | 'reused-code' };

/**
 * Whether `code` is the secret's code near `now`; `lastStep` is the step of the code the operator
 * last signed in with (null: none yet). The accepted step is answered, to be stored as the new
 * last step.
 */
export function checkTotp(
  secret: string,
  code: string,
  now: Date,
  lastStep: number | null,
): TotpCheck {
  const token = code.replace(/\s+/g, '');
  if (!CODE.test(token)) {
    return { ok: false, reason: 'wrong-code' };
  }
  const timestamp = now.getTime();
  const delta = totpFor(secret).validate({ token, timestamp, window: WINDOW });
  if (delta === null) {
    return { ok: false, reason: 'wrong-code' };
  }
  const step = totpStep(now) + delta;
  if (lastStep !== null && step <= lastStep) {
    return { ok: false, reason: 'reused-code' };
  }
  return { ok: true, step };
}

/** The code of a secret at a time (the tests' authenticator app). */
export function totpCode(secret: string, at: Date): string {
  return totpFor(secret).generate({ timestamp: at.getTime() });
}

/** The number of 30-second steps since the epoch at `at`. */
export function totpStep(at: Date): number {
  return TOTP.counter({ period: PERIOD_SECONDS, timestamp: at.getTime() });
}

function totpFor(secret: string, account?: { issuer: string; email: string }): TOTP {
  return new TOTP({
    ...(account === undefined ? {} : { issuer: account.issuer, label: account.email }),
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: DIGITS,
    period: PERIOD_SECONDS,
  });
}

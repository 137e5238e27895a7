import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/** Six random digits. */
export function randomOtp(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** The sandbox's documented OTP: every sandbox verification is validated with it. */
export const SANDBOX_OTP = '123456';

/**
 * What is stored instead of the OTP: keyed by a server secret and bound to the verification,
 * so a leaked table neither reveals OTPs nor lets one verification's digest serve another.
 */
export function otpDigest(secret: string, verificationId: string, otp: string): string {
  return createHmac('sha256', secret).update(`otp:${verificationId}:${otp}`).digest('hex');
}

/** Constant-time: how much of a guess is right never shows in the time taken. */
export function otpMatches(
  secret: string,
  verificationId: string,
  candidate: string,
  storedDigest: string,
): boolean {
  const expected = Buffer.from(storedDigest, 'hex');
  const actual = Buffer.from(otpDigest(secret, verificationId, candidate), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

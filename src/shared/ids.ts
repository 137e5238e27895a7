import { randomBytes, randomInt } from 'node:crypto';
import type { Clock } from './clock.ts';

const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/;

/** A 24-hex id like the published examples: 4 bytes of seconds, then 8 random bytes. */
export function newObjectId(clock: Clock): string {
  const seconds = Math.floor(clock.now().getTime() / 1000);
  return seconds.toString(16).padStart(8, '0') + randomBytes(8).toString('hex');
}

export function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID_PATTERN.test(value);
}

/** NIP session id: institution code, yyMMddHHmmss (UTC) and a 12-digit serial: 30 digits. */
export function newNipSessionId(institutionCode: string, clock: Clock): string {
  const stamp = clock
    .now()
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(2, 14);
  const serial = `${randomInt(0, 1_000_000).toString().padStart(6, '0')}${randomInt(0, 1_000_000)
    .toString()
    .padStart(6, '0')}`;
  return `${institutionCode}${stamp}${serial}`;
}

/** An opaque secret token (refresh tokens, generated sandbox secrets). */
export function newSecretToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function isNipSessionId(value: unknown): value is string {
  return typeof value === 'string' && /^\d{30}$/.test(value);
}

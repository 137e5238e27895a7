import { createHash, randomBytes, randomFillSync, randomInt } from 'node:crypto';
import type { Clock } from './clock.ts';

const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/;

/** Where the random part of an id comes from. */
interface RandomSource {
  bytes(size: number): Buffer;
  /** A whole number in [0, max); max is at most 2^48. */
  int(max: number): number;
}

/**
 * The operating system's randomness, drawn 4 KiB at a time: one draw per id cost about as much
 * as the rest of making the id (a bulk item makes six ids; docs/benchmarks.md, row (h)). Each
 * byte is handed out once; secrets (`newSecretToken`) are drawn apart.
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolUsed = POOL_SIZE;

function pooledBytes(size: number): Buffer {
  if (size > POOL_SIZE / 4) {
    return randomBytes(size);
  }
  if (poolUsed + size > POOL_SIZE) {
    randomFillSync(pool);
    poolUsed = 0;
  }
  const taken = Buffer.from(pool.subarray(poolUsed, poolUsed + size));
  poolUsed += size;
  return taken;
}

const cryptoSource: RandomSource = { bytes: pooledBytes, int: (max) => randomInt(0, max) };

/**
 * Seeded sources, by the clock of the service graph they serve: every id function already takes
 * that clock, so two sandboxes in one process (each with its own clock) never share a stream.
 */
const seededSources = new WeakMap<Clock, RandomSource>();

/**
 * Sandbox fixtures only (the fixtures service refuses outside the sandbox): from now on, ids made
 * with this clock come from a stream derived from `seed`, so the same calls in the same order
 * make the same ids. `undefined` goes back to the operating system's randomness. Secrets
 * (`newSecretToken`) never come from a seed.
 */
export function seedIds(clock: Clock, seed: string | undefined): void {
  if (seed === undefined) {
    seededSources.delete(clock);
  } else {
    seededSources.set(clock, seededSource(seed));
  }
}

function sourceFor(clock: Clock): RandomSource {
  return seededSources.get(clock) ?? cryptoSource;
}

/** SHA-256 of the seed and a block counter, read as one long stream of bytes. */
function seededSource(seed: string): RandomSource {
  let block = 0;
  let pool = Buffer.alloc(0);
  const bytes = (size: number) => {
    while (pool.length < size) {
      const next = createHash('sha256').update(`${seed}\u0000${block}`).digest();
      block += 1;
      pool = Buffer.concat([pool, next]);
    }
    const taken = Buffer.from(pool.subarray(0, size));
    pool = pool.subarray(size);
    return taken;
  };
  const range = 2 ** 48;
  return {
    bytes,
    int(max) {
      // Values past the last whole multiple of max are drawn again, so every answer is as likely.
      const limit = range - (range % max);
      for (;;) {
        const value = bytes(6).readUIntBE(0, 6);
        if (value < limit) {
          return value % max;
        }
      }
    },
  };
}

/** A 24-hex id like the published examples: 4 bytes of seconds, then 8 random bytes. */
export function newObjectId(clock: Clock): string {
  const seconds = Math.floor(clock.now().getTime() / 1000);
  return seconds.toString(16).padStart(8, '0') + sourceFor(clock).bytes(8).toString('hex');
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
  const source = sourceFor(clock);
  const serial = `${source.int(1_000_000).toString().padStart(6, '0')}${source
    .int(1_000_000)
    .toString()
    .padStart(6, '0')}`;
  return `${institutionCode}${stamp}${serial}`;
}

/** 32 lower-case hex characters: VAS references, OAuth client ids. */
export function newHexReference(clock: Clock): string {
  return sourceFor(clock).bytes(16).toString('hex');
}

/** A reference of `digits` decimal digits (at most 14), zero-padded: USSD references. */
export function newDigitReference(clock: Clock, digits: number): string {
  return sourceFor(clock)
    .int(10 ** digits)
    .toString()
    .padStart(digits, '0');
}

/** An opaque URL-safe id of `bytes` random bytes (webhook event ids after their `msg_`). */
export function newOpaqueId(clock: Clock, bytes: number): string {
  return sourceFor(clock).bytes(bytes).toString('base64url');
}

/** An opaque secret token (refresh tokens, generated sandbox secrets): never seeded. */
export function newSecretToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function isNipSessionId(value: unknown): value is string {
  return typeof value === 'string' && /^\d{30}$/.test(value);
}

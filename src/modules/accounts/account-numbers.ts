import { createHmac } from 'node:crypto';
import type { Queryable } from '../../db/db.ts';
import { nubanFromSerial } from '../../shared/nuban.ts';
import { accountNumberInUse, nextAccountSerial } from './account-repository.ts';

/**
 * A new NUBAN of ours from the one serial every number comes from (accounts and virtual
 * accounts alike), so no two ever share a number. The serial goes through a keyed permutation
 * first: consecutive accounts get unrelated numbers, so nobody can walk the bank's customers by
 * counting up from their own number (the key is the database's own, made by its first migration). A number
 * an account already has is passed over: sandbox fixtures give accounts numbers of their own
 * choosing, which the serial may reach later (after a reset it starts again from the first).
 */
export async function newAccountNumber(db: Queryable, institutionCode: string): Promise<string> {
  for (;;) {
    const { serial, key } = await nextAccountSerial(db);
    const accountNumber = nubanFromSerial(institutionCode, permuteSerial(serial, key));
    if (!(await accountNumberInUse(db, accountNumber))) {
      return accountNumber;
    }
  }
}

/** The 9-digit serials a NUBAN can carry. */
const SERIALS = 1_000_000_000n;
const HALF_BITS = 15n;
const HALF_MASK = (1n << HALF_BITS) - 1n;
const ROUNDS = 4;

/**
 * A bijection of [0, 10^9) onto itself under `key`: a 4-round Feistel network over 30-bit
 * numbers (HMAC-SHA256 as its round function), applied again while the result is 10^9 or more
 * (cycle walking keeps it inside the range and one-to-one).
 */
export function permuteSerial(serial: bigint, key: Buffer): bigint {
  if (serial < 0n || serial >= SERIALS) {
    throw new RangeError('account serial exhausted');
  }
  let value = serial;
  do {
    value = feistel(value, key);
  } while (value >= SERIALS);
  return value;
}

function feistel(value: bigint, key: Buffer): bigint {
  let left = value >> HALF_BITS;
  let right = value & HALF_MASK;
  for (let round = 0; round < ROUNDS; round++) {
    const digest = createHmac('sha256', key).update(`${round}:${right}`).digest();
    const mixed = BigInt(digest.readUInt16BE(0)) & HALF_MASK;
    [left, right] = [right, left ^ mixed];
  }
  return (left << HALF_BITS) | right;
}

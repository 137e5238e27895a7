import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { CheckoutSessionClaimSchema } from './checkout-claim.ts';

describe('the checkout claim between the TypeScript and checkout_session_pay', () => {
  it('the SQL reads only keys the schema declares, and every key the schema declares', async () => {
    const sql = await readFile(new URL('./sql/checkout_session_pay.sql', import.meta.url), 'utf8');
    const code = sql.replace(/--.*$/gm, '');
    const read = new Set([...code.matchAll(/p_claim\s*->>?\s*'([A-Za-z]+)'/g)].map((m) => m[1]));
    const declared = Object.keys(CheckoutSessionClaimSchema.properties);
    assert.deepEqual(
      [...read].filter((key) => !declared.includes(key as string)),
      [],
    );
    // The runner reads `handler` and `lock`; the function reads the rest.
    assert.deepEqual(
      declared.filter((key) => !read.has(key) && key !== 'handler' && key !== 'lock'),
      [],
    );
  });
});

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { ERROR_CODES } from './error-codes.ts';

describe('the error catalogue', () => {
  it('is documented for integrators: every code with its HTTP status in docs/errors.md', async () => {
    const docs = await readFile(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const undocumented = Object.entries(ERROR_CODES)
      .filter(([code, { httpStatus }]) => !docs.includes(`| \`${code}\` | ${httpStatus} |`))
      .map(([code]) => code);
    assert.deepEqual(undocumented, []);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvariantError } from '../../shared/invariant.ts';
import type { TransferStatus } from './transfer.ts';
import { assertMove, canMove } from './transfer-state.ts';

const ALL: TransferStatus[] = ['Created', 'Processing', 'Completed', 'Failed', 'Reversed'];

describe('transfer state machine', () => {
  it('allows exactly the documented moves', () => {
    const allowed = ALL.flatMap((from) =>
      ALL.filter((to) => canMove(from, to)).map((to) => `${from}>${to}`),
    );
    assert.deepEqual(allowed, [
      'Created>Processing',
      'Created>Completed',
      'Created>Failed',
      'Processing>Completed',
      'Processing>Failed',
      'Completed>Reversed',
    ]);
  });

  it('refuses anything else as a bug, and never leaves a final state but by reversal', () => {
    assert.throws(() => assertMove('Failed', 'Completed'), InvariantError);
    assert.throws(() => assertMove('Completed', 'Failed'), InvariantError);
    assert.throws(() => assertMove('Processing', 'Created'), InvariantError);
    assert.deepEqual(
      ALL.filter((from) => ALL.every((to) => !canMove(from, to))),
      ['Failed', 'Reversed'],
    );
  });
});

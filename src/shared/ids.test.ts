import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from './clock.ts';
import {
  isNipSessionId,
  isObjectId,
  newDigitReference,
  newHexReference,
  newNipSessionId,
  newObjectId,
  newOpaqueId,
  newSecretToken,
  seedIds,
} from './ids.ts';

const START = new Date('2026-03-02T09:00:00.000Z');

function someIds(clock: ManualClock) {
  return [
    newObjectId(clock),
    newNipSessionId('999240', clock),
    newHexReference(clock),
    newDigitReference(clock, 10),
    newOpaqueId(clock, 18),
  ];
}

describe('ids under a seed', () => {
  it('are the same for the same seed, calls and time', () => {
    const one = new ManualClock(START);
    const two = new ManualClock(START);
    seedIds(one, 'a seed');
    seedIds(two, 'a seed');
    assert.deepEqual(someIds(one), someIds(two));
    assert.deepEqual(someIds(one), someIds(two));
  });

  it('differ between seeds, and have the shapes ids have', () => {
    const one = new ManualClock(START);
    const two = new ManualClock(START);
    seedIds(one, 'a seed');
    seedIds(two, 'another seed');
    const ids = someIds(one);
    assert.notDeepEqual(ids, someIds(two));
    assert.ok(isObjectId(ids[0]));
    assert.ok(isNipSessionId(ids[1]));
    assert.match(ids[2] ?? '', /^[0-9a-f]{32}$/);
    assert.match(ids[3] ?? '', /^\d{10}$/);
    assert.match(ids[4] ?? '', /^[A-Za-z0-9_-]{24}$/);
  });

  it('belong to one clock: another clock, and one unseeded again, get random ids', () => {
    const seeded = new ManualClock(START);
    const other = new ManualClock(START);
    seedIds(seeded, 'a seed');
    const first = someIds(seeded);
    assert.notDeepEqual(someIds(other), someIds(new ManualClock(START)));
    seedIds(seeded, 'a seed');
    assert.deepEqual(someIds(seeded), first);
    seedIds(seeded, undefined);
    assert.notDeepEqual(someIds(seeded), first);
  });

  it('never make secrets: tokens are random whatever the seed', () => {
    assert.notEqual(newSecretToken(), newSecretToken());
  });
});

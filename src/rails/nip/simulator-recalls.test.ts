import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../shared/clock.ts';
import type { InboundRecallNotice } from '../rail.ts';
import { createNipSimulator } from './nip-simulator.ts';
import { DEFAULT_RECALL_REASON } from './simulator-recalls.ts';

describe('NIP simulator: recalls of credits it sent', () => {
  const clock = new ManualClock(new Date('2026-03-02T09:00:00.000Z'));
  const session = `000013${'4'.repeat(24)}`;

  it("hands the notice to the recall handler: the recall's own session id from the sending bank", async () => {
    const rail = createNipSimulator({ institutionCode: '999240', clock });
    const notices: InboundRecallNotice[] = [];
    rail.onInboundRecalled(async (notice) => notices.push(notice));
    const answer = await rail.recallCredit(session, 'Fraud');
    const again = await rail.recallCredit(session);
    assert.match(answer.recallSessionId, /^000013\d{24}$/);
    assert.notEqual(answer.recallSessionId, session);
    assert.deepEqual(notices, [
      { sessionId: session, recallSessionId: answer.recallSessionId, reason: 'Fraud' },
      { sessionId: session, recallSessionId: again.recallSessionId, reason: DEFAULT_RECALL_REASON },
    ]);
  });

  it("rejects as the handler refuses, and without a handler or a session id's 30 digits", async () => {
    const rail = createNipSimulator({ institutionCode: '999240', clock });
    await assert.rejects(rail.recallCredit(session), /no inbound recall handler/);
    rail.onInboundRecalled(async () => {
      throw new Error('refused');
    });
    await assert.rejects(rail.recallCredit(session), /refused/);
    await assert.rejects(rail.recallCredit('12345'), /30 digits/);
  });
});

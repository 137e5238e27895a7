import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertEachAnswersAfter } from '../../../test/latency.ts';
import { createTestDb, type TestDb } from '../../../test/test-db.ts';
import { ManualClock } from '../../shared/clock.ts';
import { newNipSessionId } from '../../shared/ids.ts';
import type { Kobo } from '../../shared/money.ts';
import { describeRailContract, type RailContractScenarios } from '../rail.contract.ts';
import type {
  FundsTransferRequest,
  InboundCreditRequest,
  Party,
  Rail,
  TransferOutcome,
  TransferReturnNotice,
} from '../rail.ts';
import {
  classifyResponseCode,
  NIP_RESPONSE_CODES,
  NO_RESPONSE_MESSAGE,
  outcomeFor,
  responseMessageFor,
} from './nip-response-codes.ts';
import {
  createNipSimulator,
  isNipSimulator,
  MAX_LATENCY_MS,
  NIP_QUEUEABLE_CODES,
} from './nip-simulator.ts';
import {
  DEFAULT_RETURN_REASON,
  MAX_RETURN_AFTER_MS,
  SCRIPTED_RETURN_REASON,
} from './simulator-returns.ts';
import { createDatabaseSessionStore, createMemorySessionStore } from './simulator-sessions.ts';

const OURS = '999240';
const OTHER_BANK = '000013';
const clock = new ManualClock(new Date('2026-03-01T09:00:00.000Z'));
const newSessionId = (): string => newNipSessionId(OURS, clock);
/** Kobo .81 transfers come back after this long (a real sandbox waits NIP_SIMULATOR_RETURN_SECONDS). */
const RETURN_AFTER_MS = 5;
const simulator = (latencyMs = 0) =>
  createNipSimulator({ institutionCode: OURS, latencyMs, clock, returnAfterMs: RETURN_AFTER_MS });

function transfer(sessionId: string, amountKobo: Kobo): FundsTransferRequest {
  return {
    sessionId,
    nameEnquiryReference: newSessionId(),
    amountKobo,
    beneficiary: {
      bankCode: OTHER_BANK,
      accountNumber: '0123456789',
      accountName: 'X',
      kycLevel: '1',
    },
    originator: {
      bankCode: OURS,
      accountNumber: '1000000018',
      accountName: 'ACME LTD',
      kycLevel: '3',
    },
    narration: 'Invoice 42',
    paymentReference: 'ref-42',
  };
}

const byKobo = (kobo: Kobo) => ({
  label: `kobo .${kobo.toString().padStart(2, '0')}`,
  request: (sessionId: string) => transfer(sessionId, 150_000n + kobo),
});

const scenarios: RailContractScenarios = {
  newSessionId,
  resolvableAccount: { bankCode: OTHER_BANK, accountNumber: '0123456789' },
  unknownAccount: { bankCode: OTHER_BANK, accountNumber: '0123450000' },
  succeeds: byKobo(0n),
  failsDefinitively: byKobo(51n),
  answersUnknown: [97n, 96n, 1n, 9n, 94n].map(byKobo),
  returns: { ...byKobo(81n), withinMs: 2_000 },
  recalls: {
    label: 'recalled by recallCredit',
    sendCredit: async (rail) => {
      assert.ok(isNipSimulator(rail));
      const sent = await rail.sendInboundCredit({
        beneficiaryAccountNumber: '1000000018',
        amountKobo: 250_000n,
        originator: {
          bankCode: OTHER_BANK,
          accountNumber: '0123456789',
          accountName: 'YUSUF BELLO',
        },
      });
      return sent.sessionId;
    },
    recall: async (rail, sessionId) => {
      assert.ok(isNipSimulator(rail));
      await rail.recallCredit(sessionId, 'Credit sent in error');
    },
    withinMs: 0,
  },
};

/** The same, with the return asked for (the sandbox control) instead of the .81 script. */
const returnedOnRequest: RailContractScenarios = {
  ...scenarios,
  returns: {
    ...byKobo(0n),
    label: 'returned by returnTransfer',
    bringBack: async (rail, sessionId) => {
      assert.ok(isNipSimulator(rail));
      assert.equal((await rail.returnTransfer(sessionId, 'Wrong beneficiary')).kind, 'returned');
    },
    withinMs: 0,
  },
};

describeRailContract('NIP simulator', () => simulator(), scenarios);
describeRailContract('NIP simulator with 2 ms latency', () => simulator(2), scenarios);
describeRailContract('NIP simulator, returned on request', () => simulator(), returnedOnRequest);

describe('NIP simulator on its database session store', () => {
  let testDb: TestDb;
  const onDatabase = () =>
    createNipSimulator({
      institutionCode: OURS,
      clock,
      sessions: createDatabaseSessionStore(testDb.db),
      returnAfterMs: RETURN_AFTER_MS,
    });
  before(async () => {
    testDb = await createTestDb();
  });
  after(() => testDb?.close());

  describeRailContract('NIP simulator (database sessions)', onDatabase, scenarios);

  it('still knows every session after a restart: TSQ answers, a resend is a duplicate', async () => {
    const timedOut = newSessionId();
    const ambiguous = newSessionId();
    assertAnswer(await onDatabase().sendTransfer(transfer(timedOut, 197n)), 'unknown -', 'send');
    assertAnswer(await onDatabase().sendTransfer(transfer(ambiguous, 109n)), 'unknown 09', 'send');
    assertAnswer(await tsq(onDatabase(), ambiguous), 'unknown 09', 'TSQ 1');
    const restarted = onDatabase();
    assertAnswer(await tsq(restarted, timedOut), 'success 00', 'TSQ after restart');
    assertAnswer(await tsq(restarted, ambiguous), 'success 00', 'TSQ 2 after restart');
    assertAnswer(await restarted.sendTransfer(transfer(timedOut, 100n)), 'unknown 94', 'resend');
    assert.equal((await restarted.inspectSession(timedOut))?.amountKobo, 197n);
  });
});

describe('NIP simulator inbound credits', () => {
  const credit = {
    beneficiaryAccountNumber: '1000000018',
    amountKobo: 250_000n,
    originator: { bankCode: OTHER_BANK, accountNumber: '0123456789', accountName: 'YUSUF BELLO' },
  };

  it('hands each credit to the registered handler under a new session id of the sending bank', async () => {
    const rail = simulator();
    const received: InboundCreditRequest[] = [];
    rail.onInboundCredit(async (request) => received.push(request));
    const first = await rail.sendInboundCredit(credit);
    const second = await rail.sendInboundCredit({ ...credit, narration: 'Rent' });
    assert.deepEqual(
      received.map((request) => request.sessionId),
      [first.sessionId, second.sessionId],
    );
    assert.notEqual(first.sessionId, second.sessionId);
    assert.match(first.sessionId, /^000013\d{24}$/);
    assert.match(received[0]?.nameEnquiryReference ?? '', /^000013\d{24}$/);
    assert.deepEqual(received[0], {
      sessionId: first.sessionId,
      nameEnquiryReference: received[0]?.nameEnquiryReference,
      amountKobo: 250_000n,
      beneficiaryAccountNumber: '1000000018',
      originator: { ...credit.originator, kycLevel: '1' },
      narration: 'Transfer from YUSUF BELLO',
    });
    assert.equal(received[1]?.narration, 'Rent');
  });

  it("passes the handler's refusal back to the sender", async () => {
    const rail = simulator();
    rail.onInboundCredit(async () => {
      throw new Error('no such account');
    });
    await assert.rejects(rail.sendInboundCredit(credit), /no such account/);
  });

  it('refuses to send when no handler is registered, rather than drop the money', async () => {
    await assert.rejects(simulator().sendInboundCredit(credit), /no inbound credit handler/);
  });
});

/** An outcome as 'kind code' ('-' for no code), so a script reads as one line of a table. */
function assertAnswer(outcome: TransferOutcome, expected: string, step: string): void {
  assert.equal(`${outcome.kind} ${outcome.responseCode ?? '-'}`, expected, step);
  assert.equal(outcome.responseMessage, responseMessageFor(outcome.responseCode), step);
}

const tsq = (rail: Rail, sessionId: string) =>
  rail.queryStatus({ sessionId, bankCode: OTHER_BANK });

describe('NIP simulator funds transfer: magic kobo parts', () => {
  // [kobo part, answer to sendTransfer, answers to successive status queries]
  const scripts: readonly [Kobo, string, string][] = [
    [0n, 'success 00', 'success 00, success 00'],
    [37n, 'success 00', 'success 00'],
    [5n, 'failed 05', 'failed 05, failed 05'],
    [7n, 'failed 07', 'failed 07'],
    [51n, 'failed 51', 'failed 51'],
    [61n, 'failed 61', 'failed 61'],
    [97n, 'unknown -', 'success 00, success 00'],
    [96n, 'unknown 96', 'success 00'],
    [1n, 'unknown 01', 'failed 05, failed 05'],
    [9n, 'unknown 09', 'unknown 09, success 00, success 00'],
    [94n, 'unknown 94', 'success 00'],
  ];
  for (const [kobo, sent, queries] of scripts) {
    it(`kobo .${kobo.toString().padStart(2, '0')}: ${sent}, then TSQ ${queries}`, async () => {
      const rail = simulator();
      const sessionId = newSessionId();
      assertAnswer(await rail.sendTransfer(transfer(sessionId, 250_000n + kobo)), sent, 'send');
      for (const [index, expected] of queries.split(', ').entries()) {
        assertAnswer(await tsq(rail, sessionId), expected, `TSQ ${index + 1}`);
      }
    });
  }

  it('reads only the kobo part: the naira part never changes the outcome', async () => {
    const rail = simulator();
    for (const amount of [5n, 105n, 123_456_705n]) {
      assertAnswer(await rail.sendTransfer(transfer(newSessionId(), amount)), 'failed 05', 'send');
    }
  });

  it('answers a timeout (.97) with no code and the no-response message', async () => {
    const outcome = await simulator().sendTransfer(transfer(newSessionId(), 97n));
    assert.equal(outcome.responseMessage, NO_RESPONSE_MESSAGE);
  });
});

describe('NIP simulator sessions', () => {
  it('answers a resent session id with unknown 94 and keeps the first transfer', async () => {
    const rail = simulator();
    const sessionId = newSessionId();
    assertAnswer(await rail.sendTransfer(transfer(sessionId, 151n)), 'failed 51', 'first');
    const before = await rail.inspectSession(sessionId);
    assertAnswer(await rail.sendTransfer(transfer(sessionId, 100n)), 'unknown 94', 'resend');
    assert.deepEqual(await rail.inspectSession(sessionId), before);
    assertAnswer(await tsq(rail, sessionId), 'failed 51', 'TSQ');
  });

  it('does not restart a status query script when a session id is resent', async () => {
    const rail = simulator();
    const sessionId = newSessionId();
    await rail.sendTransfer(transfer(sessionId, 109n));
    assertAnswer(await tsq(rail, sessionId), 'unknown 09', 'TSQ 1');
    assertAnswer(await rail.sendTransfer(transfer(sessionId, 109n)), 'unknown 94', 'resend');
    assertAnswer(await tsq(rail, sessionId), 'success 00', 'TSQ 2');
  });

  it('answers failed 25 (Unable to locate record) for a session never sent', async () => {
    const outcome = await tsq(simulator(), newSessionId());
    assertAnswer(outcome, 'failed 25', 'TSQ');
    assert.equal(outcome.responseMessage, 'Unable to locate record');
  });

  it('records when each session arrived, by the injected clock', async () => {
    const rail = simulator();
    const sessionId = newSessionId();
    await rail.sendTransfer(transfer(sessionId, 100n));
    assert.deepEqual((await rail.inspectSession(sessionId))?.receivedAt, clock.now());
    assert.equal(await rail.inspectSession(newSessionId()), undefined);
  });
});

describe('NIP simulator returns (kobo .81, POST /admin/sandbox/nip/returns)', () => {
  const notices = (rail: Rail) => {
    const received: TransferReturnNotice[] = [];
    rail.onTransferReturned(async (notice) => received.push(notice));
    return received;
  };

  it('returns a delivered transfer once: asked again, it resends the same notice', async () => {
    const rail = simulator();
    const received = notices(rail);
    const sessionId = newSessionId();
    assertAnswer(await rail.sendTransfer(transfer(sessionId, 2_500n)), 'success 00', 'send');
    const first = await rail.returnTransfer(sessionId, 'Wrong beneficiary');
    const second = await rail.returnTransfer(sessionId, 'Another reason');
    assert.equal(first.kind, 'returned');
    assert.deepEqual(second, first);
    assert.equal(received.length, 2);
    assert.deepEqual(received[1], received[0]);
    assert.deepEqual(received[0], {
      sessionId,
      returnSessionId: first.kind === 'returned' ? first.returnSessionId : '',
      amountKobo: 2_500n,
      reason: 'Wrong beneficiary',
    });
    assert.ok(received[0]?.returnSessionId.startsWith(OTHER_BANK), "the beneficiary bank's code");
    const answered = await tsq(rail, sessionId);
    assert.equal(answered.kind, 'returned');
    assert.equal(answered.responseMessage, 'Returned by the beneficiary bank: Wrong beneficiary');
  });

  it('refuses a session never sent and one the network did not deliver', async () => {
    const rail = simulator();
    const received = notices(rail);
    const failed = newSessionId();
    assertAnswer(await rail.sendTransfer(transfer(failed, 151n)), 'failed 51', 'send');
    assert.equal((await rail.returnTransfer(newSessionId())).kind, 'refused');
    assert.equal((await rail.returnTransfer(failed)).kind, 'refused');
    assert.deepEqual(received, []);
    assertAnswer(await tsq(rail, failed), 'failed 51', 'TSQ');
  });

  it('sends a kobo .81 transfer back by itself after the delay, with its reason', async () => {
    const rail = simulator();
    const received = notices(rail);
    const sessionId = newSessionId();
    assertAnswer(await rail.sendTransfer(transfer(sessionId, 181n)), 'success 00', 'send');
    const start = Date.now();
    while (received.length === 0 && Date.now() - start < 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.deepEqual(
      received.map((notice) => [notice.sessionId, notice.amountKobo, notice.reason]),
      [[sessionId, 181n, SCRIPTED_RETURN_REASON]],
    );
  });

  it('keeps a return whose notice was lost: the status query answers it', async () => {
    const rail = simulator();
    const sessionId = newSessionId();
    await rail.sendTransfer(transfer(sessionId, 100n));
    rail.onTransferReturned(async () => {
      throw new Error('no such transfer');
    });
    await assert.rejects(rail.returnTransfer(sessionId), /no such transfer/);
    const answered = await tsq(rail, sessionId);
    assert.equal(answered.kind, 'returned');
    assert.equal(answered.kind === 'returned' && answered.reason, DEFAULT_RETURN_REASON);
  });

  it('answers a .81 return that is due by the clock though its timer never fired', async () => {
    const own = new ManualClock(new Date('2026-03-01T10:00:00.000Z'));
    const sessions = createMemorySessionStore();
    const make = () =>
      createNipSimulator({ institutionCode: OURS, clock: own, sessions, returnAfterMs: 60_000 });
    const rail = make();
    const sessionId = newNipSessionId(OURS, own);
    assertAnswer(await rail.sendTransfer(transfer(sessionId, 381n)), 'success 00', 'send');
    rail.cancelScheduledReturns(); // as a restart would
    assertAnswer(await tsq(make(), sessionId), 'success 00', 'TSQ before it is due');
    own.advanceSeconds(60);
    const answered = await tsq(make(), sessionId);
    assert.equal(answered.kind, 'returned');
    assert.deepEqual(await tsq(make(), sessionId), answered, 'recorded once');
  });

  it('refuses a return delay outside 0..MAX_RETURN_AFTER_MS', () => {
    for (const returnAfterMs of [-1, 0.5, MAX_RETURN_AFTER_MS + 1]) {
      assert.throws(() => createNipSimulator({ institutionCode: OURS, returnAfterMs }), RangeError);
    }
    assert.ok(!NIP_QUEUEABLE_CODES.includes('81'), '.81 is rehearsed by its kobo, not queued');
  });
});

describe('NIP simulator queued outcomes (sandbox: POST /admin/sandbox/nip/next-outcome)', () => {
  it('gives the next transfers the queued outcomes in order, whatever their kobo', async () => {
    const rail = simulator();
    assert.deepEqual(rail.queueOutcome('05'), ['05']);
    assert.deepEqual(rail.queueOutcome('00'), ['05', '00']);
    assertAnswer(await rail.sendTransfer(transfer(newSessionId(), 100n)), 'failed 05', '1st');
    assert.deepEqual(rail.queuedOutcomes(), ['00']);
    assertAnswer(await rail.sendTransfer(transfer(newSessionId(), 151n)), 'success 00', '2nd');
    assert.deepEqual(rail.queuedOutcomes(), []);
    assertAnswer(await rail.sendTransfer(transfer(newSessionId(), 151n)), 'failed 51', 'kobo');
  });

  it("follows the queued code's script in status queries too", async () => {
    const rail = simulator();
    for (const [code, sent, queries] of [
      ['97', 'unknown -', 'success 00'],
      ['09', 'unknown 09', 'unknown 09, success 00'],
      ['01', 'unknown 01', 'failed 05'],
    ] as const) {
      rail.queueOutcome(code);
      const sessionId = newSessionId();
      assertAnswer(await rail.sendTransfer(transfer(sessionId, 100n)), sent, `send ${code}`);
      for (const [index, expected] of queries.split(', ').entries()) {
        assertAnswer(await tsq(rail, sessionId), expected, `${code} TSQ ${index + 1}`);
      }
    }
  });

  it('keeps the queued outcome for a new transfer when a request is refused or resent', async () => {
    const rail = simulator();
    const sessionId = newSessionId();
    await rail.sendTransfer(transfer(sessionId, 100n));
    rail.queueOutcome('61');
    assertAnswer(await rail.sendTransfer(transfer(sessionId, 100n)), 'unknown 94', 'resend');
    const refused = { ...transfer(newSessionId(), 100n), amountKobo: 0n };
    assertAnswer(await rail.sendTransfer(refused), 'failed 13', 'refused');
    assert.deepEqual(rail.queuedOutcomes(), ['61']);
    assertAnswer(await rail.sendTransfer(transfer(newSessionId(), 100n)), 'failed 61', 'next');
  });
});

describe('NIP simulator refuses malformed transfers whatever the amount', () => {
  type Change = (request: FundsTransferRequest) => FundsTransferRequest;
  const beneficiary =
    (change: Partial<Party>): Change =>
    (r) => ({ ...r, beneficiary: { ...r.beneficiary, ...change } });
  const cases: readonly [string, string, Change][] = [
    ['a session id that is not 30 digits', '12', (r) => ({ ...r, sessionId: '12345' })],
    [
      'a session id of another institution',
      '12',
      (r) => ({ ...r, sessionId: `1${r.sessionId}`.slice(0, 30) }),
    ],
    ['an originator at another bank', '03', (r) => ({ ...r, originator: r.beneficiary })],
    ['a beneficiary bank code that is not 6 digits', '16', beneficiary({ bankCode: '13' })],
    ['a beneficiary account that is not 10 digits', '07', beneficiary({ accountNumber: '123' })],
    ['a zero amount', '13', (r) => ({ ...r, amountKobo: 0n })],
    ['a negative amount', '13', (r) => ({ ...r, amountKobo: -97n })],
  ];
  for (const [what, code, change] of cases) {
    it(`answers failed ${code} for ${what}, and its TSQ agrees`, async () => {
      const rail = simulator();
      const request = change(transfer(newSessionId(), 197n));
      assertAnswer(await rail.sendTransfer(request), `failed ${code}`, 'send');
      assertAnswer(await tsq(rail, request.sessionId), `failed ${code}`, 'TSQ');
    });
  }
});

describe('NIP simulator name enquiry', () => {
  const enquire = (accountNumber: string, bankCode = OTHER_BANK, rail = simulator()) =>
    rail.nameEnquiry({ sessionId: newSessionId(), bankCode, accountNumber });

  const refusals: readonly [string, string, string, string][] = [
    ['an account ending 0000', '0123450000', OTHER_BANK, 'rejected 07'],
    ['an account ending 9999', '0123459999', OTHER_BANK, 'unavailable 91'],
    ['a 5-digit account', '12345', OTHER_BANK, 'rejected 07'],
    ['an 11-digit account', '01234567890', OTHER_BANK, 'rejected 07'],
    ['an account with letters', '01234abcde', OTHER_BANK, 'rejected 07'],
    ['a 2-digit bank code', '0123456789', '13', 'rejected 16'],
    ['a bank code with a letter', '0123456789', '00001A', 'rejected 16'],
  ];
  for (const [what, accountNumber, bankCode, expected] of refusals) {
    it(`answers ${expected} for ${what}`, async () => {
      const outcome = await enquire(accountNumber, bankCode);
      const [kind, code = ''] = expected.split(' ');
      assert.deepEqual(outcome, {
        kind,
        responseCode: code,
        responseMessage: outcomeFor(code).responseMessage,
      });
    });
  }

  it('derives name, BVN and KYC level from the account number', async () => {
    const expected = [
      ['0000000012', 'CHIDI OKAFOR', '22000000001', '3'],
      ['0123456789', 'YUSUF ABUBAKAR', '22012345678', '1'],
      ['0123456785', 'YUSUF ADEYEMI', null, '3'],
      ['4455667780', 'CHIDI OKONKWO', null, '1'],
    ] as const;
    for (const [accountNumber, accountName, bankVerificationNumber, kycLevel] of expected) {
      const outcome = await enquire(accountNumber);
      assert.deepEqual(outcome, {
        kind: 'found',
        accountName,
        bankVerificationNumber,
        kycLevel,
        responseCode: '00',
        responseMessage: 'Approved or completed successfully',
      });
    }
  });

  it('is deterministic: same account, same answer, from any simulator and any bank', async () => {
    for (const accountNumber of ['0123456789', '2233445566', '9876543210']) {
      const first = await enquire(accountNumber, OTHER_BANK, simulator());
      assert.deepEqual(await enquire(accountNumber, OTHER_BANK, simulator()), first);
      assert.deepEqual(await enquire(accountNumber, '000023'), first);
      assert.ok(first.kind === 'found' && /^[A-Z]+ [A-Z]+$/.test(first.accountName));
    }
  });
});

describe('NIP simulator options', () => {
  it('waits the configured latency before every answer', async () => {
    const rail = simulator(100);
    const account = { bankCode: OTHER_BANK, accountNumber: '0123456789' };
    const calls = [
      () => rail.nameEnquiry({ sessionId: newSessionId(), ...account }),
      () => rail.sendTransfer(transfer(newSessionId(), 100n)),
      () => tsq(rail, newSessionId()),
    ];
    await assertEachAnswersAfter(100, calls);
  });

  it('refuses a latency outside 0..MAX_LATENCY_MS and a bad institution code', () => {
    for (const latencyMs of [-1, 1.5, Number.NaN, MAX_LATENCY_MS + 1]) {
      assert.throws(() => simulator(latencyMs), RangeError);
    }
    assert.throws(() => createNipSimulator({ institutionCode: '9240' }), RangeError);
  });
});

describe('NIP response codes', () => {
  const unknown = '01 09 68 91 94 96 97'.split(' ');
  const failed = '03 05 06 07 08 12 13 16 25 51 57 58 61 63 65 69 70 92'.split(' ');

  it('are all covered by this test, each once', () => {
    const listed = ['00', ...unknown, ...failed].sort();
    assert.deepEqual(listed, Object.keys(NIP_RESPONSE_CODES).sort());
  });

  // Sorted: integer-like keys ('12') would otherwise come before '00'.
  for (const [code, message] of Object.entries(NIP_RESPONSE_CODES).sort()) {
    const kind = code === '00' ? 'success' : unknown.includes(code) ? 'unknown' : 'failed';
    it(`classifies ${code} (${message}) as ${kind} and builds its outcome`, () => {
      assert.equal(classifyResponseCode(code), kind);
      assert.deepEqual(outcomeFor(code), { kind, responseCode: code, responseMessage: message });
    });
  }

  it('calls no answer and every unrecognised code unknown (never a reason to reverse)', () => {
    for (const code of [null, '99', '02', '1', '', '000', 'constructor']) {
      assert.equal(classifyResponseCode(code), 'unknown', String(code));
    }
    const outcome = outcomeFor('99');
    assert.deepEqual(outcome, {
      kind: 'unknown',
      responseCode: '99',
      responseMessage: 'Unrecognised response code 99',
    });
  });
});

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { classifyResponseCode } from './nip/nip-response-codes.ts';
import type {
  FundsTransferRequest,
  InboundCreditRequest,
  InboundRecallNotice,
  NameEnquiryOutcome,
  Rail,
  TransferOutcome,
  TransferReturnNotice,
} from './rail.ts';

/**
 * The behaviour every Rail must show, whatever network sits behind it. The transfer service
 * relies on exactly these points to decide when to post, void or keep a hold, so a rail that
 * fails one can lose or duplicate money. Run it from the rail's own test file.
 */

export interface AccountReference {
  readonly bankCode: string;
  readonly accountNumber: string;
}

export interface TransferScenario {
  /** Shown in test names, e.g. 'kobo .97: no answer'. */
  readonly label: string;
  /** The transfer to send under the fresh session id given. */
  readonly request: (sessionId: string) => FundsTransferRequest;
}

export interface RailContractScenarios {
  /** A fresh, valid 30-digit session id on every call. */
  readonly newSessionId: () => string;
  readonly resolvableAccount: AccountReference;
  /** An account the rail definitively says does not exist. */
  readonly unknownAccount: AccountReference;
  readonly succeeds: TransferScenario;
  readonly failsDefinitively: TransferScenario;
  /** Transfers first answered `unknown`; empty for a rail that cannot be made to time out. */
  readonly answersUnknown: readonly TransferScenario[];
  /** Status queries allowed to settle an unknown outcome; 5 unless given. */
  readonly maxStatusQueries?: number;
  /** Runs between status queries: a real network needs time, a simulator none. */
  readonly waitBetweenQueries?: () => Promise<void>;
  /** A transfer the beneficiary bank sends back after it succeeded; omitted if none can be. */
  readonly returns?: ReturnScenario;
  /** A credit another bank sends to one of our accounts, then recalls; omitted if none can be. */
  readonly recalls?: RecallScenario;
}

export interface ReturnScenario extends TransferScenario {
  /** Makes the beneficiary bank send it back, if it does not by itself. */
  readonly bringBack?: (rail: Rail, sessionId: string) => Promise<void>;
  /** How long its return notice may take to arrive. */
  readonly withinMs: number;
}

export interface RecallScenario {
  /** Shown in test names, e.g. 'recalled by recallCredit'. */
  readonly label: string;
  /** Makes another bank send a credit to one of our accounts; answers the credit's session id. */
  readonly sendCredit: (rail: Rail) => Promise<string>;
  /** Makes the bank that sent the credit under this session id recall it. */
  readonly recall: (rail: Rail, sessionId: string) => Promise<void>;
  /** How long the credit, then its recall notice, may each take to arrive. */
  readonly withinMs: number;
}

const DEFAULT_MAX_STATUS_QUERIES = 5;
const TWO_DIGITS = /^\d{2}$/;

export function describeRailContract(
  name: string,
  makeRail: () => Promise<Rail> | Rail,
  scenarios: RailContractScenarios,
): void {
  describe(`Rail contract: ${name}`, () => {
    let built: Rail | undefined;
    before(async () => {
      built = await makeRail();
    });
    const rail = (): Rail => {
      assert.ok(built, 'the rail is built in before()');
      return built;
    };
    describeNameEnquiry(rail, scenarios);
    describeDefinitiveTransfers(rail, scenarios);
    describeUnknownTransfers(rail, scenarios);
    describeResentSessions(rail, scenarios);
    describeReturns(rail, scenarios.returns, scenarios);
    describeRecalls(rail, scenarios.recalls);
  });
}

function describeNameEnquiry(rail: () => Rail, scenarios: RailContractScenarios): void {
  describe('name enquiry', () => {
    it('finds a resolvable account with a non-empty name and code 00', async () => {
      const outcome = await enquire(rail(), scenarios, scenarios.resolvableAccount);
      assert.equal(outcome.kind, 'found');
      assert.equal(outcome.responseCode, '00');
    });

    it('rejects an unknown account definitively with a non-00 code', async () => {
      const outcome = await enquire(rail(), scenarios, scenarios.unknownAccount);
      assert.equal(outcome.kind, 'rejected');
      assert.notEqual(outcome.responseCode, '00');
    });
  });
}

function describeDefinitiveTransfers(rail: () => Rail, scenarios: RailContractScenarios): void {
  describe('funds transfer with a definitive answer', () => {
    it(`answers success 00 (${scenarios.succeeds.label})`, async () => {
      const outcome = await send(rail(), scenarios.succeeds.request(scenarios.newSessionId()));
      assert.equal(outcome.kind, 'success');
    });

    const failing = scenarios.failsDefinitively;
    it(`answers failed with a failure code (${failing.label})`, async () => {
      const request = failing.request(scenarios.newSessionId());
      assert.equal((await send(rail(), request)).kind, 'failed');
      assert.equal((await query(rail(), request)).kind, 'failed', 'its status query agrees');
    });

    it('answers the same success to every status query of a successful transfer', async () => {
      const request = scenarios.succeeds.request(scenarios.newSessionId());
      assert.equal((await send(rail(), request)).kind, 'success');
      const first = await query(rail(), request);
      assert.equal(first.kind, 'success');
      assert.deepEqual(await query(rail(), request), first);
    });

    it('never answers success to a status query for a session never sent', async () => {
      const never = scenarios.succeeds.request(scenarios.newSessionId());
      assert.notEqual((await query(rail(), never)).kind, 'success');
    });
  });
}

function describeUnknownTransfers(rail: () => Rail, scenarios: RailContractScenarios): void {
  const max = scenarios.maxStatusQueries ?? DEFAULT_MAX_STATUS_QUERIES;
  describe('funds transfer answered unknown', () => {
    if (scenarios.answersUnknown.length === 0) {
      it('settles by status query', { skip: 'the rail supplied no unknown scenario' }, () => {});
    }
    for (const scenario of scenarios.answersUnknown) {
      it(`is settled within ${max} status queries (${scenario.label})`, async () => {
        const request = scenario.request(scenarios.newSessionId());
        assert.equal((await send(rail(), request)).kind, 'unknown');
        const settled = await settle(rail(), request, scenarios, max);
        assert.notEqual(settled.kind, 'unknown', `still unknown after ${max} status queries`);
        assert.deepEqual(await query(rail(), request), settled, 'a settled answer stays');
      });
    }
  });
}

function describeResentSessions(rail: () => Rail, scenarios: RailContractScenarios): void {
  describe('resending a session id', () => {
    it('never produces a second success', async () => {
      const request = scenarios.succeeds.request(scenarios.newSessionId());
      assert.equal((await send(rail(), request)).kind, 'success');
      assert.notEqual((await send(rail(), request)).kind, 'success');
      assert.equal((await query(rail(), request)).kind, 'success');
    });

    it('never turns a failed session into a success, even with a good request', async () => {
      const failing = scenarios.failsDefinitively.request(scenarios.newSessionId());
      const good = scenarios.succeeds.request(failing.sessionId);
      assert.equal((await send(rail(), failing)).kind, 'failed');
      assert.notEqual((await send(rail(), good)).kind, 'success');
      assert.equal((await query(rail(), failing)).kind, 'failed');
    });
  });
}

function describeReturns(
  rail: () => Rail,
  returns: ReturnScenario | undefined,
  scenarios: RailContractScenarios,
): void {
  describe('a transfer the beneficiary bank sends back', () => {
    if (returns === undefined) {
      it('is returned', { skip: 'the rail supplied no return scenario' }, () => {});
      return;
    }
    it(`notifies the return, then answers it to every status query (${returns.label})`, async () => {
      const notices: TransferReturnNotice[] = [];
      rail().onTransferReturned(async (notice) => notices.push(notice));
      const request = returns.request(scenarios.newSessionId());
      assert.equal((await send(rail(), request)).kind, 'success');
      await returns.bringBack?.(rail(), request.sessionId);
      const notice = await noticeFor(notices, request.sessionId, returns.withinMs);
      assert.equal(notice.amountKobo, request.amountKobo, 'a transfer comes back whole');
      assert.match(notice.returnSessionId, /^\d{30}$/);
      assert.notEqual(notice.returnSessionId, request.sessionId, 'the return has its own session');
      assert.ok(notice.reason.trim() !== '', 'a return says why');
      const answered = await query(rail(), request);
      assert.deepEqual(
        [answered.kind, answered.kind === 'returned' ? answered.returnSessionId : undefined],
        ['returned', notice.returnSessionId],
      );
      assert.deepEqual(await query(rail(), request), answered, 'a return stays');
    });
  });
}

/**
 * The recall notice is what takes money back from a customer: it must name the credit the rail
 * delivered (the handler finds the credit by that session id alone), under a session id of its
 * own (the credit's reversalReference, the key that makes a resent recall move nothing), and
 * reach the handler registered last, never one replaced.
 */
function describeRecalls(rail: () => Rail, recalls: RecallScenario | undefined): void {
  describe('a credit the sending bank recalls', () => {
    if (recalls === undefined) {
      it('is recalled', { skip: 'the rail supplied no recall scenario' }, () => {});
      return;
    }
    it(`notifies the recall, naming the credit it delivered (${recalls.label})`, async () => {
      const { credit, notice } = await creditThenRecall(rail(), recalls);
      assert.equal(notice.sessionId, credit.sessionId);
      assert.match(notice.recallSessionId, /^\d{30}$/);
      assert.notEqual(notice.recallSessionId, credit.sessionId, 'the recall has its own session');
      assert.ok(notice.reason.trim() !== '', 'a recall says why');
    });

    it('hands the notice to the recall handler registered last', async () => {
      const replaced: InboundRecallNotice[] = [];
      rail().onInboundRecalled(async (notice) => replaced.push(notice));
      const { notice } = await creditThenRecall(rail(), recalls);
      assert.ok(notice.recallSessionId !== '');
      assert.deepEqual(replaced, [], 'a replaced handler hears nothing');
    });
  });
}

/** A credit delivered to the credit handler, then its recall's notice to the recall handler. */
async function creditThenRecall(
  rail: Rail,
  recalls: RecallScenario,
): Promise<{ credit: InboundCreditRequest; notice: InboundRecallNotice }> {
  const credits: InboundCreditRequest[] = [];
  const notices: InboundRecallNotice[] = [];
  rail.onInboundCredit(async (request) => credits.push(request));
  rail.onInboundRecalled(async (notice) => notices.push(notice));
  const sessionId = await recalls.sendCredit(rail);
  const credit = await noticeFor(credits, sessionId, recalls.withinMs, 'inbound credit');
  await recalls.recall(rail, sessionId);
  const notice = await noticeFor(notices, sessionId, recalls.withinMs, 'recall notice');
  return { credit, notice };
}

/** The first notice for the session, waited for up to withinMs. */
async function noticeFor<T extends { readonly sessionId: string }>(
  notices: readonly T[],
  sessionId: string,
  withinMs: number,
  what = 'return notice',
): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const found = notices.find((notice) => notice.sessionId === sessionId);
    if (found !== undefined) {
      return found;
    }
    assert.ok(Date.now() < until, `no ${what} within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function settle(
  rail: Rail,
  transfer: FundsTransferRequest,
  scenarios: RailContractScenarios,
  max: number,
): Promise<TransferOutcome> {
  let outcome = await query(rail, transfer);
  for (let asked = 1; asked < max && outcome.kind === 'unknown'; asked += 1) {
    await scenarios.waitBetweenQueries?.();
    outcome = await query(rail, transfer);
  }
  return outcome;
}

async function enquire(
  rail: Rail,
  scenarios: RailContractScenarios,
  account: AccountReference,
): Promise<NameEnquiryOutcome> {
  const request = { sessionId: scenarios.newSessionId(), ...account };
  const outcome = await answered(() => rail.nameEnquiry(request), 'nameEnquiry');
  assertWellFormedNameEnquiry(outcome);
  return outcome;
}

async function send(rail: Rail, request: FundsTransferRequest): Promise<TransferOutcome> {
  const outcome = await answered(() => rail.sendTransfer(request), 'sendTransfer');
  assertWellFormedTransferOutcome(outcome);
  return outcome;
}

/** The status query for a transfer: its session id, at the beneficiary's bank. */
async function query(rail: Rail, transfer: FundsTransferRequest): Promise<TransferOutcome> {
  const request = { sessionId: transfer.sessionId, bankCode: transfer.beneficiary.bankCode };
  const outcome = await answered(() => rail.queryStatus(request), 'queryStatus');
  assertWellFormedTransferOutcome(outcome);
  return outcome;
}

/** Rails answer rail-side problems as outcomes; a rejection would strand the caller's hold. */
async function answered<T>(call: () => Promise<T>, method: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    assert.fail(`${method} threw instead of answering an outcome: ${String(error)}`);
  }
}

export function assertWellFormedNameEnquiry(outcome: NameEnquiryOutcome): void {
  assert.ok(['found', 'rejected', 'unavailable'].includes(outcome.kind), `kind ${outcome.kind}`);
  assert.match(outcome.responseCode, TWO_DIGITS);
  assert.ok(outcome.responseMessage.trim() !== '', 'a response message');
  if (outcome.kind === 'found') {
    assert.equal(outcome.responseCode, '00');
    assert.ok(outcome.accountName.trim() !== '', 'a found account has a name');
    assert.ok(outcome.kycLevel.trim() !== '', 'a found account has a KYC level');
    if (outcome.bankVerificationNumber !== null) {
      assert.match(outcome.bankVerificationNumber, /^\d{11}$/);
    }
  } else {
    assert.notEqual(outcome.responseCode, '00', 'a 00 is only ever a found account');
  }
}

export function assertWellFormedTransferOutcome(outcome: TransferOutcome): void {
  assert.ok(outcome.responseMessage.trim() !== '', 'a response message');
  if (outcome.responseCode !== null) {
    assert.match(outcome.responseCode, TWO_DIGITS);
  }
  const codeClass = classifyResponseCode(outcome.responseCode);
  if (outcome.kind === 'returned') {
    // It succeeded first: the return is a movement of its own, under its own session id.
    assert.equal(codeClass, 'success', `a returned transfer had succeeded (00)`);
    assert.match(outcome.returnSessionId, /^\d{30}$/);
    assert.ok(outcome.reason.trim() !== '', 'a return says why');
    return;
  }
  // A success or failure must be one the code proves; calling a code unknown is only cautious.
  if (outcome.kind !== 'unknown') {
    assert.equal(codeClass, outcome.kind, `code ${outcome.responseCode} is ${codeClass}`);
  }
}

import { setTimeout as sleep } from 'node:timers/promises';
import { type Clock, systemClock } from '../../shared/clock.ts';
import { newNipSessionId } from '../../shared/ids.ts';
import { invariant } from '../../shared/invariant.ts';
import type { Kobo } from '../../shared/money.ts';
import type {
  FundsTransferRequest,
  InboundCreditHandler,
  NameEnquiryOutcome,
  NameEnquiryRequest,
  Party,
  Rail,
  StatusQueryRequest,
  TransferOutcome,
} from '../rail.ts';
import { outcomeFor, responseMessageFor } from './nip-response-codes.ts';
import { createSimulatorRecalls } from './simulator-recalls.ts';
import { createSimulatorReturns, type ReturnAnswer } from './simulator-returns.ts';
import {
  createMemorySessionStore,
  type NipSimulatorSession,
  type SimulatorSessionStore,
  type TransferScript,
} from './simulator-sessions.ts';

export type { ReturnAnswer } from './simulator-returns.ts';
export type { NipSimulatorSession, TransferScript } from './simulator-sessions.ts';

/**
 * A deterministic stand-in for NIBSS NIP in sandbox and tests. Every magic value below is
 * documented in docs/sandbox-nip.md; keep the two in step.
 */

export interface NipSimulatorOptions {
  /** Our 6-digit institution code: transfers must come from it (session id prefix, originator). */
  readonly institutionCode: string;
  /** Delay before every answer, to exercise callers' waiting; 0 (default) to MAX_LATENCY_MS. */
  readonly latencyMs?: number;
  readonly clock?: Clock;
  /** Where sessions live; in memory unless given (the sandbox server keeps them in its database). */
  readonly sessions?: SimulatorSessionStore;
  /** How long after a kobo .81 transfer succeeds it comes back; DEFAULT_RETURN_AFTER_MS unless given. */
  readonly returnAfterMs?: number;
}

export const DEFAULT_RETURN_AFTER_MS = 30_000;

/** Bounded so a misconfigured sandbox cannot hang requests for minutes. */
export const MAX_LATENCY_MS = 10_000;

/** Keyed by the amount's kobo part (amountKobo % 100n); any other kobo part succeeds. */
export const NIP_MAGIC_KOBO: ReadonlyMap<bigint, TransferScript> = new Map<bigint, TransferScript>([
  [5n, { send: '05', statusQueries: ['05'] }],
  [7n, { send: '07', statusQueries: ['07'] }],
  [51n, { send: '51', statusQueries: ['51'] }],
  [61n, { send: '61', statusQueries: ['61'] }],
  [97n, { send: null, statusQueries: ['00'] }],
  [96n, { send: '96', statusQueries: ['00'] }],
  [1n, { send: '01', statusQueries: ['05'] }],
  [9n, { send: '09', statusQueries: ['09', '00'] }],
  [94n, { send: '94', statusQueries: ['00'] }],
  [81n, { send: '00', statusQueries: ['00'], returns: true }],
]);

const SUCCESS_SCRIPT: TransferScript = { send: '00', statusQueries: ['00'] };

/**
 * The outcomes an operator can queue for the next outbound transfers (POST
 * /admin/sandbox/nip/next-outcome), by the code `sendTransfer` answers: each follows the script
 * of its magic kobo, so its status queries answer as that kobo's do. '97' is the kobo .97 script:
 * no answer at all (a timeout), then success on status query.
 */
export const NIP_QUEUEABLE_CODES: readonly string[] = [
  '00',
  // .81 answers 00 like the happy path: its return is rehearsed with returnTransfer instead.
  ...[...NIP_MAGIC_KOBO]
    .filter(([, script]) => script.returns !== true)
    .map(([kobo]) => String(kobo).padStart(2, '0')),
];

function scriptForCode(code: string): TransferScript {
  const script = code === '00' ? SUCCESS_SCRIPT : NIP_MAGIC_KOBO.get(BigInt(code));
  invariant(script !== undefined, `no NIP script for code ${code}`);
  return script;
}

export interface NipSimulator extends Rail {
  /** Test/operator introspection, not part of Rail: the session's state, if it was ever sent. */
  inspectSession(sessionId: string): Promise<NipSimulatorSession | undefined>;
  /**
   * Sandbox only: another bank sends money to one of our accounts. The simulated network gives
   * it a session id under the sending bank's code and hands it to our inbound handler.
   */
  sendInboundCredit(credit: SimulatedInboundCredit): Promise<{ sessionId: string }>;
  /**
   * Sandbox only: the next outbound transfer this simulator receives (whatever its kobo) gets
   * this outcome; queued outcomes are used first in, first out, and the magic kobo rule applies
   * again once the queue is empty. In memory: this process's simulator only. Answers the queue.
   */
  queueOutcome(code: string): readonly string[];
  /** The outcomes queued for the next outbound transfers, next first. */
  queuedOutcomes(): readonly string[];
  /** Sandbox reset: forgets every queued outcome (the kobo rule applies again). */
  clearQueuedOutcomes(): void;
  /**
   * Sandbox only: the beneficiary bank sends back a transfer the network delivered. The return
   * is recorded (a status query of the session answers it from then on), then its notice is
   * handed to our return handler; asked again, the same notice is delivered again. Refused for a
   * session the network never delivered; rejects when the handler refuses the notice.
   */
  returnTransfer(sessionId: string, reason?: string): Promise<ReturnAnswer>;
  /** Sandbox reset: the kobo .81 returns still waiting on their timer never come. */
  cancelScheduledReturns(): void;
  /**
   * Sandbox only: the sending bank recalls a credit it sent (a 30-digit session id), its notice
   * handed to our recall handler; rejects when the handler refuses it.
   */
  recallCredit(sessionId: string, reason?: string): Promise<{ recallSessionId: string }>;
}

export function isNipSimulator(rail: Rail): rail is NipSimulator {
  return 'sendInboundCredit' in rail && 'inspectSession' in rail;
}

export interface SimulatedInboundCredit {
  readonly beneficiaryAccountNumber: string;
  readonly amountKobo: Kobo;
  readonly originator: Omit<Party, 'kycLevel'>;
  readonly narration?: string;
  /** Resend a session the network sent before (a duplicate delivery). */
  readonly sessionId?: string;
  /** When the network received it, if it is delivered late. */
  readonly receivedAt?: Date;
}

const BANK_CODE = /^\d{6}$/;
const ACCOUNT_NUMBER = /^\d{10}$/;
const SESSION_ID = /^\d{30}$/;

export function createNipSimulator(options: NipSimulatorOptions): NipSimulator {
  const { institutionCode } = options;
  if (!BANK_CODE.test(institutionCode)) {
    throw new RangeError(`institution code must be 6 digits, got "${institutionCode}"`);
  }
  const latencyMs = checkedLatency(options.latencyMs ?? 0);
  const clock = options.clock ?? systemClock;
  const sessions = options.sessions ?? createMemorySessionStore();
  const returns = createSimulatorReturns({
    sessions,
    clock,
    returnAfterMs: options.returnAfterMs ?? DEFAULT_RETURN_AFTER_MS,
  });
  const recalls = createSimulatorRecalls(clock);
  let inboundHandler: InboundCreditHandler | undefined;
  const queued: string[] = [];

  // State changes when the request "arrives"; only the answer is late, as on a slow network.
  async function answer<T>(value: T): Promise<T> {
    if (latencyMs > 0) {
      await sleep(latencyMs);
    }
    return value;
  }

  return {
    // async, so even a malformed request from a caller's bug rejects instead of throwing.
    nameEnquiry: async (request) => answer(simulateNameEnquiry(request)),
    sendTransfer: async (request) =>
      answer(await acceptTransfer(sessions, request, { institutionCode, clock, queued, returns })),
    queryStatus: async (request) => answer(await answerStatusQuery(sessions, returns, request)),
    onInboundCredit: (handler) => {
      inboundHandler = handler;
    },
    onTransferReturned: returns.onTransferReturned,
    returnTransfer: returns.returnTransfer,
    cancelScheduledReturns: returns.cancelScheduled,
    onInboundRecalled: recalls.onInboundRecalled,
    recallCredit: recalls.recallCredit,
    inspectSession: (sessionId) => sessions.find(sessionId),
    queueOutcome(code) {
      scriptForCode(code); // refuses a code with no script now, not at the next transfer
      queued.push(code);
      return [...queued];
    },
    queuedOutcomes: () => [...queued],
    clearQueuedOutcomes() {
      queued.length = 0;
    },
    async sendInboundCredit(credit) {
      invariant(inboundHandler !== undefined, 'no inbound credit handler is registered');
      invariant(BANK_CODE.test(credit.originator.bankCode), 'the sending bank code has 6 digits');
      invariant(
        credit.sessionId === undefined || SESSION_ID.test(credit.sessionId),
        'a resent session id has 30 digits',
      );
      const sessionId = credit.sessionId ?? newNipSessionId(credit.originator.bankCode, clock);
      await inboundHandler({
        sessionId,
        nameEnquiryReference: newNipSessionId(credit.originator.bankCode, clock),
        amountKobo: credit.amountKobo,
        beneficiaryAccountNumber: credit.beneficiaryAccountNumber,
        originator: { ...credit.originator, kycLevel: '1' },
        narration: credit.narration ?? `Transfer from ${credit.originator.accountName}`,
        ...(credit.receivedAt === undefined ? {} : { receivedAt: credit.receivedAt }),
      });
      return { sessionId };
    },
  };
}

function checkedLatency(latencyMs: number): number {
  if (!Number.isInteger(latencyMs) || latencyMs < 0 || latencyMs > MAX_LATENCY_MS) {
    throw new RangeError(`latencyMs must be an integer from 0 to ${MAX_LATENCY_MS}`);
  }
  return latencyMs;
}

async function acceptTransfer(
  sessions: SimulatorSessionStore,
  request: FundsTransferRequest,
  simulator: {
    institutionCode: string;
    clock: Clock;
    queued: string[];
    returns: ReturnType<typeof createSimulatorReturns>;
  },
): Promise<TransferOutcome> {
  const { institutionCode, clock, queued, returns } = simulator;
  // A request NIBSS would refuse is refused whatever is queued, and leaves the queue as it is.
  const refused = refusalCode(request, institutionCode) !== undefined;
  const next = refused ? undefined : queued.shift();
  const script =
    next === undefined ? transferScriptFor(request, institutionCode) : scriptForCode(next);
  let added = false;
  const receivedAt = clock.now();
  try {
    added = await sessions.add(request.sessionId, {
      receivedAt,
      amountKobo: request.amountKobo,
      script,
      beneficiaryBankCode: request.beneficiary.bankCode,
      returnDueAt: script.returns === true ? returns.returnDueAt(receivedAt) : null,
    });
  } finally {
    if (!added && next !== undefined) {
      // A session sent again (or not recorded) is no new transfer: the outcome waits for one.
      queued.unshift(next);
    }
  }
  if (added && script.returns === true) {
    returns.schedule(request.sessionId);
  }
  // A resent session id is the network's duplicate check: the first transfer stays as it was.
  return outcomeFor(added ? script.send : '94');
}

/** The script a transfer follows: malformed requests fail first, then the amount's kobo part. */
export function transferScriptFor(
  request: FundsTransferRequest,
  institutionCode: string,
): TransferScript {
  const refusal = refusalCode(request, institutionCode);
  if (refusal !== undefined) {
    return { send: refusal, statusQueries: [refusal] };
  }
  return NIP_MAGIC_KOBO.get(request.amountKobo % 100n) ?? SUCCESS_SCRIPT;
}

/** What NIBSS would refuse outright, whatever the amount (so bugs in callers show up). */
function refusalCode(request: FundsTransferRequest, institutionCode: string): string | undefined {
  if (!SESSION_ID.test(request.sessionId) || !request.sessionId.startsWith(institutionCode)) {
    return '12';
  }
  if (request.originator.bankCode !== institutionCode) {
    return '03';
  }
  if (!BANK_CODE.test(request.beneficiary.bankCode)) {
    return '16';
  }
  if (!ACCOUNT_NUMBER.test(request.beneficiary.accountNumber)) {
    return '07';
  }
  return request.amountKobo > 0n ? undefined : '13';
}

async function answerStatusQuery(
  sessions: SimulatorSessionStore,
  returns: ReturnType<typeof createSimulatorReturns>,
  request: StatusQueryRequest,
): Promise<TransferOutcome> {
  const session = await sessions.countStatusQuery(request.sessionId);
  if (session === undefined) {
    return outcomeFor('25');
  }
  const returned = await returns.returnedAnswer(request.sessionId, session);
  if (returned !== undefined) {
    return returned;
  }
  const steps = session.script.statusQueries;
  return outcomeFor(steps[Math.min(session.statusQueriesAnswered, steps.length - 1)] ?? steps[0]);
}

const FIRST_NAMES: readonly string[] =
  'CHIDI AMAKA TUNDE NGOZI EMEKA FUNMILAYO IBRAHIM ZAINAB SEGUN BLESSING YUSUF ADAEZE'.split(' ');

const LAST_NAMES: readonly string[] =
  'OKAFOR ADEYEMI BELLO EZE OKONKWO ABUBAKAR ADEBAYO NWOSU OGUNLEYE MUSA OBI BALOGUN'.split(' ');

export function simulateNameEnquiry(request: NameEnquiryRequest): NameEnquiryOutcome {
  const { bankCode, accountNumber } = request;
  if (!BANK_CODE.test(bankCode)) {
    return { kind: 'rejected', responseCode: '16', responseMessage: responseMessageFor('16') };
  }
  if (!ACCOUNT_NUMBER.test(accountNumber) || accountNumber.endsWith('0000')) {
    return { kind: 'rejected', responseCode: '07', responseMessage: responseMessageFor('07') };
  }
  if (accountNumber.endsWith('9999')) {
    return { kind: 'unavailable', responseCode: '91', responseMessage: responseMessageFor('91') };
  }
  return {
    kind: 'found',
    accountName: simulatedAccountName(accountNumber),
    bankVerificationNumber: simulatedBvn(accountNumber),
    kycLevel: String((Number(accountNumber.slice(9)) % 3) + 1),
    responseCode: '00',
    responseMessage: responseMessageFor('00'),
  };
}

/** First name from the first five digits, last name from the last five, each mod 12. */
export function simulatedAccountName(accountNumber: string): string {
  const first = FIRST_NAMES[Number(accountNumber.slice(0, 5)) % FIRST_NAMES.length];
  const last = LAST_NAMES[Number(accountNumber.slice(5, 10)) % LAST_NAMES.length];
  invariant(first !== undefined && last !== undefined, 'name lists are indexed in range');
  return `${first} ${last}`;
}

/** No BVN when the last digit is 0 or 5; otherwise '22' and the first nine digits. */
export function simulatedBvn(accountNumber: string): string | null {
  return /[05]$/.test(accountNumber) ? null : `22${accountNumber.slice(0, 9)}`;
}

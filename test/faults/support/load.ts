// The mixed load: concurrent lanes of money movements across every module, spread over both API
// servers (sometimes one request sent to both at once), each lane driven by its own seeded
// generator so a seed always produces the same requests. Every request and its answer is
// recorded, whatever it was (including no answer at all), for the checks afterwards.
import { VAS } from '../../factories.ts';
import { OUR_BANK, type SignedInClient } from '../../pg-only/server-fixture.ts';
import type { Account, LaneRequest, LoadBank, SentTransfer } from '../../pg-only/transfer-load.ts';
import type { Prng } from './prng.ts';
import type { Topology } from './topology.ts';

const REQUEST_TIMEOUT_MS = 15_000;

type Headers = Record<string, string>;

/** One HTTP request of the load and what came back. */
export interface Call {
  readonly route: string;
  /** Which API server (index) it went to. */
  readonly server: number;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly status: number | 'no answer';
  /** The error code of a refusal, if the body had one. */
  readonly code: string | undefined;
  readonly body: string;
}

/** A transfer request as the shared checks (test/pg-only/transfer-load.ts) read it, plus its call. */
export interface TimedTransfer extends SentTransfer {
  call?: Call;
}

export interface CreditRecord {
  readonly accountNumber: string;
  readonly amountKobo: bigint;
  readonly call: Call;
}

export interface VirtualAccountRecord {
  readonly externalReference: string;
  readonly amountKobo: bigint;
  readonly settlementAccountNumber: string;
  readonly creates: Call[];
  readonly payments: { readonly amountKobo: bigint; readonly scenario: string; call: Call }[];
}

export interface VasRecord {
  readonly key: string;
  readonly phone: string;
  readonly ending: string;
  readonly amountKobo: bigint;
  readonly debitAccountNumber: string;
  readonly body: Record<string, unknown>;
  readonly calls: Call[];
}

export interface UssdRecord {
  readonly amountKobo: bigint;
  readonly settlementAccountNumber: string;
  readonly create: Call;
  readonly dials: { readonly ussdBankCode: string; readonly amountKobo?: bigint; call: Call }[];
}

export interface LoadRecords {
  readonly calls: Call[];
  readonly transfers: TimedTransfer[];
  readonly credits: CreditRecord[];
  readonly virtualAccounts: VirtualAccountRecord[];
  readonly vas: VasRecord[];
  readonly ussd: UssdRecord[];
}

export function emptyRecords(): LoadRecords {
  return { calls: [], transfers: [], credits: [], virtualAccounts: [], vas: [], ussd: [] };
}

/** Sends one request to one API server and records it. */
export async function request(
  records: LoadRecords,
  topology: Topology,
  server: number,
  method: string,
  path: string,
  headers: Headers,
  body: unknown,
): Promise<Call> {
  const startedAt = Date.now();
  let status: number | 'no answer';
  let text: string;
  try {
    const response = await fetch(`${topology.apiUrl(server)}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    status = 'no answer';
    text = String(error);
  }
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { code?: string }).code;
  } catch {
    code = undefined;
  }
  const call: Call = {
    route: `${method} ${path}`,
    server,
    startedAt,
    endedAt: Date.now(),
    status,
    code,
    body: text,
  };
  records.calls.push(call);
  return call;
}

/** The answer's `data`, for a 2xx; undefined otherwise. */
export function dataOf(call: Call | undefined): Record<string, unknown> | undefined {
  if (call === undefined || typeof call.status !== 'number' || call.status >= 300) {
    return undefined;
  }
  return (JSON.parse(call.body) as { data: Record<string, unknown> }).data;
}

/** A failure of the request itself (no answer, 5xx), after which a client backs off. */
const troubled = (call: Call) => call.status === 'no answer' || call.status >= 500;

const nairaOf = (kobo: bigint) => Number(kobo) / 100;

/** NIP kobo parts (docs/sandbox-nip.md): success, definitive failures, unknown then settled. */
const NIP_KOBO = [0, 0, 0, 0, 5, 51, 97, 97, 96, 1, 9, 94] as const;
/** VAS phone endings (docs/vas.md): sold, declined, pending, biller timeouts. */
const VAS_ENDINGS = ['5678', '5678', '1234', '0000', '1111', '2222', '3333', '4444'] as const;
/** USSD kobo parts (docs/ussd.md): paid; .51 declined; .52 notice lost; .53 late; .54 short; .55 not issued. */
const USSD_KOBO = [0, 25, 40, 51, 52, 52, 53, 54, 55] as const;
const USSD_BANKS = ['737', '901', '966', '894'] as const;

export interface LoadDeps {
  readonly topology: Topology;
  readonly rng: Prng;
  readonly adminToken: string;
  readonly records: LoadRecords;
  /** The client whose accounts only move money by transfers (checked by the shared helpers). */
  readonly transfers: { readonly client: SignedInClient; readonly bank: LoadBank };
  /** The client that collects (credits, virtual accounts, USSD) and buys (VAS). */
  readonly merchant: { readonly client: SignedInClient; readonly accounts: readonly Account[] };
  readonly receiverUrl: (path: string) => string;
  readonly lanes: {
    readonly intra: number;
    readonly twinIntra: number;
    readonly nip: number;
    readonly credits: number;
    readonly virtualAccounts: number;
    readonly vas: number;
    readonly ussd: number;
  };
}

type Step = (plan: Prng, outcome: Prng, seq: number, lane: number) => Promise<Call[]>;

/**
 * Starts every lane. A lane's requests come from its own generator (`plan`), drawn the same way
 * whatever the answers; what depends on the answers (retries, back-off) draws from another
 * (`outcome`), so a seed always produces the same requests.
 */
export function startMixedLoad(deps: LoadDeps) {
  const { topology, records } = deps;
  const servers = () => topology.apis.length;
  const adminHeaders = { authorization: `Bearer ${deps.adminToken}` };
  let running = true;

  const sendTransfers = async (key: string, lane: LaneRequest): Promise<Call[]> =>
    Promise.all(
      lane.baseUrls.map(async (baseUrl) => {
        const server = topology.apiUrls.indexOf(baseUrl);
        const transfer: TimedTransfer = {
          key,
          baseUrl,
          body: lane.body,
          amountKobo: lane.amountKobo,
          nip: lane.nip,
        };
        records.transfers.push(transfer);
        const call = await request(
          records,
          topology,
          server,
          'POST',
          '/transfers',
          { ...deps.transfers.client.headers, 'idempotency-key': key },
          lane.body,
        );
        transfer.call = call;
        transfer.answer = { status: call.status, body: call.body };
        return call;
      }),
    );

  const { bank } = deps.transfers;
  const [hot, ...spread] = bank.accounts as [Account, ...Account[]];
  const serverUrls = (plan: Prng, twin: boolean) =>
    twin ? topology.apiUrls : [topology.apiUrl(plan.int(0, servers() - 1))];
  const kobo = (plan: Prng, minNaira: number, maxNaira: number) =>
    BigInt(plan.int(minNaira, maxNaira) * 100 + plan.int(0, 99));

  const intraStep =
    (twin: boolean): Step =>
    async (plan, _outcome, seq, lane) => {
      const fromHot = plan.chance(0.2);
      const from = fromHot ? hot : plan.pick(spread);
      const to = plan.pick(bank.accounts.filter((account) => account !== from));
      const amount = kobo(plan, 20, fromHot ? 250 : 400);
      const key = `intra${twin ? '-twin' : ''}-${lane}-${seq}`;
      return sendTransfers(key, bank.intra(key, from, to, amount, serverUrls(plan, twin)));
    };

  const nipStep: Step = async (plan, _outcome, seq, lane) => {
    const amount = BigInt(plan.int(20, 150) * 100 + plan.pick(NIP_KOBO));
    const twin = plan.chance(0.1);
    const key = `nip-${lane}-${seq}`;
    return sendTransfers(key, bank.nip(key, plan.pick(spread), amount, serverUrls(plan, twin)));
  };

  const merchantAccounts = deps.merchant.accounts;
  const merchantHeaders = deps.merchant.client.headers;

  const creditStep: Step = async (plan) => {
    const account = plan.pick(merchantAccounts);
    // Now and then ₦10,000 or more: stamp duty is taken.
    const amount = plan.chance(0.15) ? kobo(plan, 10_000, 20_000) : kobo(plan, 300, 3_000);
    const call = await request(
      records,
      topology,
      plan.int(0, servers() - 1),
      'POST',
      '/admin/sandbox/credits',
      adminHeaders,
      { accountNumber: account.accountNumber, amount: nairaOf(amount) },
    );
    records.credits.push({ accountNumber: account.accountNumber, amountKobo: amount, call });
    return [call];
  };

  const virtualAccountStep: Step = async (plan, outcome, seq, lane) => {
    const settlement = plan.pick(merchantAccounts);
    const amount = kobo(plan, 100, 5_000);
    const externalReference = `va-${lane}-${seq}`;
    const body = {
      validFor: 900,
      settlementAccount: { bankCode: OUR_BANK, accountNumber: settlement.accountNumber },
      amountControl: 'Fixed',
      amount: nairaOf(amount),
      externalReference,
      ...(plan.chance(0.5) ? { callbackUrl: deps.receiverUrl('/va') } : {}),
    };
    const createTwice = plan.chance(0.15);
    const scenarioRoll = plan.next();
    const scenario =
      scenarioRoll < 0.7
        ? 'onTime'
        : scenarioRoll < 0.8
          ? 'duplicateSession'
          : scenarioRoll < 0.9
            ? 'wrongAmount'
            : 'afterExpiry';
    const payBoth = plan.chance(0.15);
    const payAgain = plan.chance(0.2);
    const record: VirtualAccountRecord = {
      externalReference,
      amountKobo: amount,
      settlementAccountNumber: settlement.accountNumber,
      creates: [],
      payments: [],
    };
    records.virtualAccounts.push(record);
    const create = (server: number) =>
      request(records, topology, server, 'POST', '/virtual-accounts', merchantHeaders, body);
    const calls: Call[] = [];
    // The same externalReference again, as a client that lost the answer does (or to both).
    let created: Record<string, unknown> | undefined;
    for (let attempt = 0; attempt < 3 && created === undefined; attempt += 1) {
      const answers = await Promise.all(
        createTwice && attempt === 0
          ? Array.from({ length: servers() }, (_, server) => create(server))
          : [create(outcome.int(0, servers() - 1))],
      );
      record.creates.push(...answers);
      calls.push(...answers);
      created = answers.map(dataOf).find((data) => data !== undefined);
      if (created === undefined && answers.some(troubled)) {
        await sleep(outcome.int(200, 600));
      } else if (created === undefined) {
        break;
      }
    }
    if (created === undefined || !running) {
      return calls;
    }
    const accountNumber = created.accountNumber as string;
    const pay = async (server: number, payScenario: string) => {
      const paid = payScenario === 'wrongAmount' ? amount + 100n : amount;
      const call = await request(
        records,
        topology,
        server,
        'POST',
        '/admin/sandbox/virtual-account-payments',
        adminHeaders,
        {
          accountNumber,
          amount: nairaOf(paid),
          ...(payScenario === 'wrongAmount' || payScenario === 'onTime'
            ? {}
            : { scenario: payScenario }),
        },
      );
      record.payments.push({ amountKobo: paid, scenario: payScenario, call });
      calls.push(call);
      return call;
    };
    if (payBoth) {
      await Promise.all(Array.from({ length: servers() }, (_, server) => pay(server, scenario)));
    } else {
      await pay(outcome.int(0, servers() - 1), scenario);
    }
    if (payAgain) {
      await pay(outcome.int(0, servers() - 1), 'onTime');
    }
    return calls;
  };

  const vasStep: Step = async (plan, outcome, seq, lane) => {
    const ending = plan.pick(VAS_ENDINGS);
    const account = plan.pick(merchantAccounts);
    const amount = BigInt(plan.int(1, 9) * 10_000);
    const twin = plan.chance(0.1);
    const resend = plan.chance(0.1);
    const key = `vas-${lane}-${seq}`;
    const phone = `0${String(lane % 100).padStart(2, '0')}${String(seq % 10_000).padStart(4, '0')}${ending}`;
    const body = {
      serviceCategoryId: VAS.mtnAirtime,
      amount: nairaOf(amount),
      channel: 'WEB',
      debitAccountNumber: account.accountNumber,
      phoneNumber: phone,
      ...(plan.chance(0.3) ? { statusUrl: deps.receiverUrl('/vas') } : {}),
    };
    const record: VasRecord = {
      key,
      phone,
      ending,
      amountKobo: amount,
      debitAccountNumber: account.accountNumber,
      body,
      calls: [],
    };
    records.vas.push(record);
    const buy = async (server: number) => {
      const call = await request(
        records,
        topology,
        server,
        'POST',
        '/vas/pay/airtime',
        { ...merchantHeaders, 'idempotency-key': key },
        body,
      );
      record.calls.push(call);
      return call;
    };
    const first = await Promise.all(
      twin
        ? Array.from({ length: servers() }, (_, server) => buy(server))
        : [buy(plan.int(0, servers() - 1))],
    );
    // The same key and body again: the first purchase replayed, never a second one.
    if (resend) {
      first.push(await buy(outcome.int(0, servers() - 1)));
    }
    return first;
  };

  const ussdStep: Step = async (plan, outcome) => {
    const settlement = plan.pick(merchantAccounts);
    const koboPart = plan.pick(USSD_KOBO);
    const naira = plan.chance(0.1) ? plan.int(10_000, 15_000) : plan.int(100, 3_000);
    const amount = BigInt(naira * 100 + koboPart);
    const dialBoth = plan.chance(0.15);
    const otherBank = plan.chance(0.2) ? plan.pick(USSD_BANKS) : '737';
    const dialAgain = plan.chance(0.15);
    const call = await request(
      records,
      topology,
      plan.int(0, servers() - 1),
      'POST',
      '/ussd-payment',
      merchantHeaders,
      {
        amount: `${naira}.${String(koboPart).padStart(2, '0')}`,
        merchantName: 'Fault Suite Stores',
        ussdBankCode: '737',
        callbackUrl: deps.receiverUrl('/ussd'),
        settlementAccount: { bankCode: OUR_BANK, accountNumber: settlement.accountNumber },
      },
    );
    const record: UssdRecord = {
      amountKobo: amount,
      settlementAccountNumber: settlement.accountNumber,
      create: call,
      dials: [],
    };
    records.ussd.push(record);
    const reference = dataOf(call)?.reference as string | undefined;
    if (reference === undefined || !running) {
      return [call];
    }
    const calls = [call];
    const dial = async (server: number) => {
      const dialled = await request(
        records,
        topology,
        server,
        'POST',
        '/admin/sandbox/ussd-dials',
        adminHeaders,
        { reference, ussdBankCode: otherBank },
      );
      record.dials.push({ ussdBankCode: otherBank, call: dialled });
      calls.push(dialled);
      return dialled;
    };
    const first = await Promise.all(
      dialBoth
        ? Array.from({ length: servers() }, (_, server) => dial(server))
        : [dial(outcome.int(0, servers() - 1))],
    );
    // A customer whose session died dials again; some dial a paid reference again.
    if (first.every(troubled) || dialAgain) {
      await sleep(outcome.int(100, 400));
      await dial(outcome.int(0, servers() - 1));
    }
    return calls;
  };

  const lanes: { name: string; step: Step }[] = [
    ...Array.from({ length: deps.lanes.intra }, () => ({ name: 'intra', step: intraStep(false) })),
    ...Array.from({ length: deps.lanes.twinIntra }, () => ({
      name: 'twin-intra',
      step: intraStep(true),
    })),
    ...Array.from({ length: deps.lanes.nip }, () => ({ name: 'nip', step: nipStep })),
    ...Array.from({ length: deps.lanes.credits }, () => ({ name: 'credit', step: creditStep })),
    ...Array.from({ length: deps.lanes.virtualAccounts }, () => ({
      name: 'virtual-account',
      step: virtualAccountStep,
    })),
    ...Array.from({ length: deps.lanes.vas }, () => ({ name: 'vas', step: vasStep })),
    ...Array.from({ length: deps.lanes.ussd }, () => ({ name: 'ussd', step: ussdStep })),
  ];
  const finished = Promise.all(
    lanes.map(async ({ name, step }, index) => {
      const plan = deps.rng.fork(`lane-${index}-${name}`);
      const outcome = plan.fork('outcome');
      for (let seq = 0; running; seq += 1) {
        const calls = await step(plan, outcome, seq, index);
        // A client told 503, or given no answer, waits before its next request.
        await sleep(calls.some(troubled) ? outcome.int(150, 400) : outcome.int(0, 30));
      }
    }),
  );
  return {
    finished,
    /** No lane starts another operation; those under way go on. */
    halt() {
      running = false;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A request sent again after the load, with the same key and body, and its answer. */
export interface Resent<T> {
  readonly original: T;
  readonly again: TimedTransfer | undefined;
  readonly call: Call;
}

/**
 * What a careful client does after an outage: every transfer and VAS purchase that got no
 * answer, or only a 503, is sent once more with the same Idempotency-Key and body. One that was
 * stored must be replayed; one that was not is placed now (or refused); none is placed twice.
 */
export async function resendUnanswered(deps: {
  readonly topology: Topology;
  readonly records: LoadRecords;
  readonly rng: Prng;
  readonly transferHeaders: Headers;
  readonly merchantHeaders: Headers;
}) {
  const { topology, records, rng } = deps;
  const settledAnswer = (call: Call | undefined) =>
    call !== undefined && typeof call.status === 'number' && call.status < 500;
  const transferKeys = new Set(
    records.transfers.filter((transfer) => settledAnswer(transfer.call)).map(({ key }) => key),
  );
  const transfers = new Map<string, TimedTransfer>();
  for (const transfer of records.transfers) {
    if (!transferKeys.has(transfer.key) && !transfers.has(transfer.key)) {
      transfers.set(transfer.key, transfer);
    }
  }
  const purchases = records.vas.filter((record) => !record.calls.some(settledAnswer));
  const resentTransfers: Resent<TimedTransfer>[] = [];
  const resentPurchases: Resent<VasRecord>[] = [];
  const queue: (() => Promise<void>)[] = [
    ...[...transfers.values()].map((original) => async () => {
      const server = rng.int(0, topology.apis.length - 1);
      const again: TimedTransfer = { ...original, baseUrl: topology.apiUrl(server) };
      const call = await request(
        records,
        topology,
        server,
        'POST',
        '/transfers',
        { ...deps.transferHeaders, 'idempotency-key': original.key },
        original.body,
      );
      again.call = call;
      again.answer = { status: call.status, body: call.body };
      resentTransfers.push({ original, again, call });
    }),
    ...purchases.map((original) => async () => {
      const call = await request(
        records,
        topology,
        rng.int(0, topology.apis.length - 1),
        'POST',
        '/vas/pay/airtime',
        { ...deps.merchantHeaders, 'idempotency-key': original.key },
        original.body,
      );
      resentPurchases.push({ original, again: undefined, call });
    }),
  ];
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        await next();
      }
    }),
  );
  return { transfers: resentTransfers, purchases: resentPurchases };
}

/**
 * Webhook benchmarks, in this process against their own database:
 * - delivered events/s: the delivery worker draining an outbox to a receiver on 127.0.0.1, as a
 *   ratio to the same sender POSTing the same bodies straight to that receiver (no database);
 * - what a credit costs beyond its money: inbound credits/s (transfer row, journal, outbox row,
 *   one transaction each), as a ratio to the same journals posted through the ledger alone.
 * Every figure is the median of rounds.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config/config.ts';
import type { Db } from '../src/db/db.ts';
import { groupCommitLimits } from '../src/db/group-commit.ts';
import { migrate } from '../src/db/migrate.ts';
import { createPgDb } from '../src/db/pg-db.ts';
import { createPgliteDb } from '../src/db/pglite-db.ts';
import { GL_ACCOUNTS } from '../src/ledger/gl-accounts.ts';
import * as ledger from '../src/ledger/ledger-service.ts';
import { createInboundCreditService, NO_COLLECTIONS } from '../src/modules/transfers/index.ts';
import { createServices } from '../src/services.ts';
import { systemClock } from '../src/shared/clock.ts';
import { newNipSessionId, newObjectId } from '../src/shared/ids.ts';
import { createDeliveryWorker } from '../src/webhooks/delivery-worker.ts';
import { createHttpSender } from '../src/webhooks/http-sender.ts';
import { enqueueEvent } from '../src/webhooks/outbox.ts';
import { createBenchDatabase } from './database.ts';
import { median } from './stats.ts';
import { BenchVacuum } from './vacuum.ts';

const POLICY = { requireHttps: false, allowLoopback: true, allowPrivate: false };
const SECRETS = { adminToken: 'b'.repeat(40), tokenSigningSecret: 's'.repeat(40) };

export interface WebhookBenchResult {
  readonly database: string;
  readonly events: number;
  readonly credits: number;
  readonly rawPostsPerSecond: number;
  /** Rounds the worker runs at once by default (WEBHOOK_ROUNDS_IN_FLIGHT). */
  readonly roundsInFlight: number;
  /** The worker as configured by default: `roundsInFlight` rounds at once. */
  readonly deliveredPerSecond: number;
  readonly deliveryRatio: number;
  /** One round at a time (WEBHOOK_ROUNDS_IN_FLIGHT=1), in the same rounds. */
  readonly deliveredOneRoundPerSecond: number;
  readonly deliveryRatioOneRound: number;
  readonly ledgerPostsPerSecond: number;
  readonly creditsPerSecond: number;
  readonly creditCostRatio: number;
}

export async function runWebhookBench(options: {
  rounds: number;
  quick: boolean;
  vacuum: boolean;
}) {
  const events = options.quick ? 500 : 2000;
  const credits = options.quick ? 300 : 1000;
  const database = await createBenchDatabase();
  const db = await openDb(database.serverEnv);
  const receiver = await startReceiver();
  try {
    await migrate(db);
    const config = loadConfig({ PUBLIC_BASE_URL: 'http://bench.invalid' });
    const services = createServices({ config, db, clock: systemClock, secrets: SECRETS });
    const { client, mainAccount } = await services.clientService.createClient({ name: 'Bench' });
    await services.webhookService.updateSettings(client.id, { url: receiver.url });
    // Autovacuum's work where the server does none, before each timed part: every delivered
    // event is updated, and without it the worker's claims read every dead version the earlier
    // rounds left (the delivery rate fell round after round: docs/benchmarks.md, "Webhooks").
    const vacuum = await BenchVacuum.open(database.serverEnv.DATABASE_URL, options.vacuum);
    const rounds: Omit<WebhookBenchResult, 'database' | 'events' | 'credits' | 'roundsInFlight'>[] =
      [];
    // Untimed, once: the first round's raw POSTs ran at half the later rounds' rate (the sender
    // and the receiver not yet compiled), which made that round's delivery ratio the highest.
    await rawPostRate(receiver.url, events);
    await deliveryRate(db, client.id, events, vacuum, config.webhooks.roundsInFlight);
    for (let round = 0; round < options.rounds; round += 1) {
      const { raw, delivered, oneRound } = await deliveryRound(
        () => rawPostRate(receiver.url, events),
        (roundsInFlight) => deliveryRate(db, client.id, events, vacuum, roundsInFlight),
        { configured: config.webhooks.roundsInFlight, round },
      );
      await vacuum?.run();
      const posts = await ledgerPostRate(db, mainAccount.id, credits);
      await vacuum?.run();
      const full = await creditRate(db, mainAccount.accountNumber, credits);
      rounds.push({
        rawPostsPerSecond: raw,
        deliveredPerSecond: delivered,
        deliveryRatio: delivered / raw,
        deliveredOneRoundPerSecond: oneRound,
        deliveryRatioOneRound: oneRound / raw,
        ledgerPostsPerSecond: posts,
        creditsPerSecond: full,
        creditCostRatio: full / posts,
      });
      process.stderr.write(
        `[bench] webhooks round ${round + 1}: ${JSON.stringify(rounds.at(-1))}\n`,
      );
    }
    const pick = (key: keyof (typeof rounds)[number]) => median(rounds.map((round) => round[key]));
    return {
      database: database.kind,
      events,
      credits,
      roundsInFlight: config.webhooks.roundsInFlight,
      rawPostsPerSecond: pick('rawPostsPerSecond'),
      deliveredPerSecond: pick('deliveredPerSecond'),
      deliveryRatio: pick('deliveryRatio'),
      deliveredOneRoundPerSecond: pick('deliveredOneRoundPerSecond'),
      deliveryRatioOneRound: pick('deliveryRatioOneRound'),
      ledgerPostsPerSecond: pick('ledgerPostsPerSecond'),
      creditsPerSecond: pick('creditsPerSecond'),
      creditCostRatio: pick('creditCostRatio'),
    } satisfies WebhookBenchResult;
  } finally {
    await receiver.close();
    await db.close();
    await database.drop();
  }
}

async function openDb(env: Readonly<Record<string, string>>): Promise<Db> {
  if (env.DATABASE_URL !== undefined) {
    return createPgDb({ connectionString: env.DATABASE_URL, poolSize: 10 });
  }
  return createPgliteDb({ dataDir: path.join(env.DATA_DIR ?? '.', 'webhooks') });
}

/** Baseline: the same sender POSTing bodies of the same size, 32 at a time, no database. */
async function rawPostRate(url: string, count: number): Promise<number> {
  const sender = createHttpSender({ timeoutMs: 15_000, policy: POLICY });
  const body = JSON.stringify({ type: 'transfer', data: { padding: 'x'.repeat(1200) } });
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next += 1;
      await sender.send(url, { 'content-type': 'application/json' }, body);
    }
  };
  await Promise.all(Array.from({ length: 32 }, lane));
  const seconds = (performance.now() - started) / 1000;
  sender.close();
  return count / seconds;
}

/**
 * One round's deliveries (as configured and one round at a time) and their baseline. The raw
 * POSTs take a fifth of a second: alone, one measurement moved 3x between rounds on a busy
 * machine (docs/benchmarks.md, "Webhooks", 2026-11-29, evening), so the baseline is the median
 * of three: before, between and after the two deliveries.
 */
async function deliveryRound(
  raw: () => Promise<number>,
  rate: (roundsInFlight: number) => Promise<number>,
  ways: { readonly configured: number; readonly round: number },
) {
  const raws = [await raw()];
  const { delivered, oneRound } = await deliveryRates(
    async (roundsInFlight) => {
      const delivery = await rate(roundsInFlight);
      raws.push(await raw());
      return delivery;
    },
    ways.configured,
    ways.round,
  );
  return { raw: median(raws), delivered, oneRound };
}

/** The worker's rate as configured and with one round at a time, which first alternating. */
async function deliveryRates(
  rate: (roundsInFlight: number) => Promise<number>,
  configured: number,
  round: number,
) {
  const ways = round % 2 === 0 ? [configured, 1] : [1, configured];
  const rates = new Map<number, number>();
  for (const roundsInFlight of ways) {
    rates.set(roundsInFlight, await rate(roundsInFlight));
  }
  return { delivered: rates.get(configured) ?? 0, oneRound: rates.get(1) ?? 0 };
}

/**
 * Enqueues `count` events (untimed), then times one worker draining them with `roundsInFlight`
 * rounds at once, as its started loops run them.
 */
async function deliveryRate(
  db: Db,
  clientId: string,
  count: number,
  vacuum: BenchVacuum | undefined,
  roundsInFlight: number,
): Promise<number> {
  for (let index = 0; index < count; index += 50) {
    await db.transaction(async (tx) => {
      for (let item = index; item < Math.min(count, index + 50); item += 1) {
        await enqueueEvent(tx, systemClock, {
          clientId,
          type: 'transfer',
          data: { sequence: item, padding: 'x'.repeat(1200) },
        });
      }
    });
  }
  await vacuum?.run();
  const sender = createHttpSender({ timeoutMs: 15_000, policy: POLICY });
  const worker = createDeliveryWorker({
    db,
    clock: systemClock,
    sender,
    retryScheduleSeconds: [5],
    timeoutMs: 15_000,
    batchSize: 32,
    pollIntervalMs: 10,
  });
  const started = performance.now();
  let delivered = 0;
  const loop = async () => {
    for (;;) {
      const claimed = await worker.runOnce();
      if (claimed === 0) {
        return;
      }
      delivered += claimed;
    }
  };
  await Promise.all(Array.from({ length: roundsInFlight }, loop));
  const seconds = (performance.now() - started) / 1000;
  sender.close();
  return delivered / seconds;
}

/** Sequential credits as bare ledger journals (settlement GL to the account), one per transaction. */
async function ledgerPostRate(db: Db, accountId: string, count: number) {
  const started = performance.now();
  for (let index = 0; index < count; index += 1) {
    await db.transaction((tx) =>
      ledger.post(tx, {
        id: newObjectId(systemClock),
        kind: 'inbound_transfer',
        narration: 'Bench credit',
        createdAt: systemClock.now(),
        postings: [
          { accountId: GL_ACCOUNTS.sandboxExternalFloat, amountKobo: -100_00n },
          { accountId, amountKobo: 100_00n },
        ],
      }),
    );
  }
  return count / ((performance.now() - started) / 1000);
}

/** Sequential inbound credits through the service, outbox row included. */
async function creditRate(db: Db, accountNumber: string, count: number) {
  const credits = createInboundCreditService({
    db,
    clock: systemClock,
    institutionCode: '999240',
    stampDuty: { stampDutyKobo: 5000n, stampDutyThresholdKobo: 1_000_000n },
    settlementAccountId: GL_ACCOUNTS.sandboxExternalFloat,
    batches: groupCommitLimits(db.kind),
    collections: NO_COLLECTIONS,
  });
  const started = performance.now();
  for (let index = 0; index < count; index += 1) {
    await credits.receive({
      sessionId: newNipSessionId('000013', systemClock),
      nameEnquiryReference: newNipSessionId('000013', systemClock),
      beneficiaryAccountNumber: accountNumber,
      amountKobo: 100_00n,
      originator: {
        accountName: 'BENCH',
        accountNumber: '0123456789',
        bankCode: '000013',
        kycLevel: '1',
      },
      narration: 'Bench credit',
    });
  }
  return count / ((performance.now() - started) / 1000);
}

async function startReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function renderWebhookTable(result: WebhookBenchResult): string {
  const rows = [
    ['raw POSTs to the receiver (baseline)', result.rawPostsPerSecond.toFixed(0), '1.00'],
    [
      `events delivered by the worker (${result.roundsInFlight} rounds in flight)`,
      result.deliveredPerSecond.toFixed(0),
      result.deliveryRatio.toFixed(2),
    ],
    [
      'events delivered, one round at a time',
      result.deliveredOneRoundPerSecond.toFixed(0),
      result.deliveryRatioOneRound.toFixed(2),
    ],
    [
      'credit journals through the ledger alone (baseline)',
      result.ledgerPostsPerSecond.toFixed(0),
      '1.00',
    ],
    [
      'inbound credits (transfer row, journal, outbox row)',
      result.creditsPerSecond.toFixed(0),
      result.creditCostRatio.toFixed(2),
    ],
  ];
  const lines = rows.map(
    ([label, rate, ratio]) =>
      `${(label ?? '').padEnd(44)} ${(rate ?? '').padStart(8)}/s  x${ratio}`,
  );
  return [
    `Webhooks (${result.database}; ${result.events} events, ${result.credits} credits; medians)`,
    ...lines,
  ].join('\n');
}

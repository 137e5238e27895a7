/**
 * What the dashboard role matrix acts on (dashboard-role-matrix.test.ts): real clients,
 * transfers, a lien, held requests, so that each action's form reaches the admin route it
 * performs (most forms read the client's page first, and stop there on a made-up id).
 */
import assert from 'node:assert/strict';
import { unsign } from '@fastify/cookie';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DASHBOARD_COOKIE_SECRET, type DashboardBrowser } from '../dashboard-browser.ts';
import {
  adminHeaders,
  createClient,
  createUssdReference,
  createVirtualAccount,
  creditWebhookEvent,
  publicKeyPem,
  rsaKeyPair,
  sandboxCredit,
  sendTransfer,
  signedInClient,
} from '../factories.ts';
import type { TestApp } from '../harness.ts';
import { lienFromRecall } from '../liens.ts';
import { operatorWithRoles } from '../operators.ts';

/** The action held under four eyes in the matrix's app: the approvals queue decides on it. */
export const HELD_ACTION = 'POST /admin/accounts/:accountNumber/unfreeze';

const OUR_BANK = '999240';

export interface MatrixWorld {
  /** A client with money moving: transfers of each kind, a webhook event, a VA, a USSD code. */
  readonly acme: {
    readonly clientId: string;
    readonly base: string;
    readonly accountNumber: string;
    readonly webhookEventId: string;
    readonly creditId: string;
    readonly nipTransferId: string;
    readonly intraTransferId: string;
    readonly virtualAccountNumber: string;
    readonly ussdReference: string;
  };
  /** The beneficiary of acme's transfer, with a lien on its main account. */
  readonly rival: {
    readonly base: string;
    readonly accountNumber: string;
    readonly lienId: string;
  };
  /** A client whose apps, keys and access the security actions change. */
  readonly access: { readonly base: string; readonly appId: string; readonly keyId: string };
  /** A client whose main account is frozen and unfrozen. */
  readonly frozen: { readonly base: string; readonly accountNumber: string };
  /** Two unfreezes asked for by another operator, waiting in the approvals queue. */
  readonly approvals: { readonly toApprove: string; readonly toReject: string };
  readonly newPublicKey: string;
  readonly nextPublicKey: string;
  readonly bulkCsv: string;
  /** The id of the fault waiting now (the matrix adds one, then clears it). */
  waitingFaultId(): Promise<string>;
}

const basePath = (clientId: string) => `/dashboard/clients/${clientId}`;

export async function buildMatrixWorld(testApp: TestApp): Promise<MatrixWorld> {
  const { app } = testApp;
  const acme = await signedInClient(testApp, 'Matrix Foods', 0);
  const rival = await signedInClient(testApp, 'Matrix Rival', 1);
  const access = await createClient(app, 'Matrix Access', 2);
  const frozen = await newClient(app, 'Matrix Frozen');
  const acmeAccount = acme.client.mainAccountNumber;
  const rivalAccount = rival.client.mainAccountNumber;
  const webhookEvent = await creditWebhookEvent(app, acme.headers, acmeAccount, 20_000);
  const credit = await sandboxCredit(app, acmeAccount, 5_000);
  const nipTransfer = await transferred(
    await sendTransfer(app, acme.headers, { debitAccountNumber: acmeAccount, amount: 100 }),
  );
  const intraTransfer = await transferred(
    await sendTransfer(app, acme.headers, {
      debitAccountNumber: acmeAccount,
      beneficiaryBankCode: OUR_BANK,
      beneficiaryAccountNumber: rivalAccount,
      amount: 50,
    }),
  );
  const virtualAccount = await createVirtualAccount(app, acme.headers, acmeAccount);
  const ussd = await createUssdReference(app, acme.headers, acmeAccount);
  return {
    acme: {
      clientId: acme.client.ibsClientId,
      base: basePath(acme.client.ibsClientId),
      accountNumber: acmeAccount,
      webhookEventId: webhookEvent._id,
      creditId: credit._id,
      nipTransferId: nipTransfer,
      intraTransferId: intraTransfer,
      virtualAccountNumber: virtualAccount.accountNumber,
      ussdReference: ussd.reference,
    },
    rival: {
      base: basePath(rival.client.ibsClientId),
      accountNumber: rivalAccount,
      lienId: await lienOn(app, rival.headers, rivalAccount),
    },
    access: { base: basePath(access.ibsClientId), ...(await firstKey(app, access.ibsClientId)) },
    frozen: { base: basePath(frozen.clientId), accountNumber: frozen.accountNumber },
    approvals: await heldUnfreezes(testApp),
    newPublicKey: publicKeyPem(rsaKeyPair(3).publicKey),
    nextPublicKey: publicKeyPem(rsaKeyPair(4).publicKey),
    bulkCsv: [
      'debitAccountNumber,beneficiaryBankCode,beneficiaryAccountNumber,amount,paymentReference',
      `${acmeAccount},${OUR_BANK},${rivalAccount},10,MATRIX-BULK-1`,
    ].join('\n'),
    waitingFaultId: () => waitingFaultId(app),
  };
}

/** A client without an app (POST /admin/clients as break-glass). */
async function newClient(app: FastifyInstance, name: string) {
  const created = await app.inject({
    method: 'POST',
    url: '/admin/clients',
    headers: adminHeaders,
    payload: { name },
  });
  assert.equal(created.statusCode, 201, created.body);
  const data = created.json().data;
  return { clientId: data._id as string, accountNumber: data.mainAccount.accountNumber as string };
}

async function transferred(response: LightMyRequestResponse): Promise<string> {
  assert.equal(response.statusCode, 200, response.body);
  return response.json().data._id;
}

/** A credit of ₦500, most of it spent, recalled: a lien on the account for what it lacked. */
async function lienOn(app: FastifyInstance, headers: Record<string, string>, account: string) {
  return (await lienFromRecall(app, headers, account, 489.25)).lien._id;
}

/** The client's first app and its key. */
async function firstKey(app: FastifyInstance, clientId: string) {
  const apps = await app.inject({ url: `/admin/clients/${clientId}/apps`, headers: adminHeaders });
  assert.equal(apps.statusCode, 200, apps.body);
  const [first] = apps.json().data as { _id: string; keys: { _id: string }[] }[];
  assert.ok(first?.keys[0]);
  return { appId: first._id, keyId: first.keys[0]._id };
}

/** Two frozen accounts whose unfreeze a support operator asked for: held, one approval each. */
async function heldUnfreezes(testApp: TestApp) {
  const requester = await operatorWithRoles(testApp, ['support']);
  const held: string[] = [];
  for (const name of ['Matrix Held One', 'Matrix Held Two']) {
    const { accountNumber } = await newClient(testApp.app, name);
    for (const [action, headers] of [
      ['freeze', adminHeaders],
      ['unfreeze', requester.headers],
    ] as const) {
      const answer = await testApp.app.inject({
        method: 'POST',
        url: `/admin/accounts/${accountNumber}/${action}`,
        headers,
      });
      assert.equal(answer.statusCode, action === 'freeze' ? 200 : 202, answer.body);
      if (action === 'unfreeze') {
        held.push(answer.json().data.approvalId);
      }
    }
  }
  const [toApprove = '', toReject = ''] = held;
  return { toApprove, toReject };
}

async function waitingFaultId(app: FastifyInstance): Promise<string> {
  const faults = await app.inject({ url: '/admin/sandbox/faults', headers: adminHeaders });
  const [first] = faults.json().data as { _id: string }[];
  assert.ok(first, `no fault is waiting: ${faults.body}`);
  return first._id;
}

/**
 * What an operator is told after a post: the notice a redirect leaves for the next page (read
 * from its signed cookie, then dropped from the browser, as the page would), or the notice on
 * the page the post answered with.
 */
export async function outcomeOf(
  browser: DashboardBrowser,
  response: LightMyRequestResponse,
): Promise<{ kind: string; text: string }> {
  assert.ok(response.statusCode < 500, response.body);
  if (response.statusCode === 303) {
    const raw = response.cookies.find((cookie) => cookie.name === 'openibs_dashboard_notice');
    assert.ok(raw, `no notice after ${response.headers.location}`);
    browser.cookies.delete(raw.name);
    const unsigned = unsign(raw.value, DASHBOARD_COOKIE_SECRET);
    assert.ok(unsigned.valid && unsigned.value !== null);
    const { kind, text } = JSON.parse(unsigned.value) as { kind: string; text: string };
    return { kind, text };
  }
  const notice = /<p class="notice notice-(\w+)" role="\w+">(.*?)<\/p>/s.exec(response.body);
  assert.ok(notice, `${response.statusCode} without a notice: ${response.body.slice(0, 300)}`);
  return { kind: notice[1] ?? '', text: notice[2] ?? '' };
}

/**
 * Every POST route the app serves, as `POST /path`, read off Fastify's printed route tree (each
 * level of the tree is four characters deeper and adds its segment to its parent's path).
 */
export function postedRoutes(app: FastifyInstance): string[] {
  const lines = app.printRoutes({ method: 'POST', commonPrefix: false }).split('\n');
  const parents: string[] = [];
  const routes: string[] = [];
  for (const line of lines) {
    const node = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (node === null) {
      continue;
    }
    const depth = (node[1] ?? '').length / 4;
    const path = `${parents[depth - 1] ?? ''}${node[2] ?? ''}`;
    parents[depth] = path;
    parents.length = depth + 1;
    if ((node[3] ?? '').split(', ').includes('POST')) {
      routes.push(`POST ${path}`);
    }
  }
  return routes;
}

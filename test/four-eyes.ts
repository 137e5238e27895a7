import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { sign } from '@fastify/cookie';
import { DASHBOARD_COOKIE_SECRET, DashboardBrowser } from './dashboard-browser.ts';
import { adminHeaders, sandboxCredit, sendTransfer, signedInClient } from './factories.ts';
import { buildTestApp, type TestApp } from './harness.ts';
import { operatorWithRoles, type TestOperator } from './operators.ts';

const OUR_BANK = '999240';

export interface FourEyesContext {
  readonly testApp: TestApp;
  /** Two finance operators: one asks, the other approves. */
  readonly ada: TestOperator;
  readonly bola: TestOperator;
  /** An operator with support only: may not decide on a finance action. */
  readonly chidi: TestOperator;
  readonly own: Awaited<ReturnType<typeof signedInClient>>;
  readonly other: Awaited<ReturnType<typeof signedInClient>>;
}

/** The four routes held in these tests. */
export const HELD = [
  'POST /admin/transfers/:id/reversal',
  'POST /admin/accounts/:accountNumber/unfreeze',
  'POST /admin/liens/:id/release',
].join(',');

/** A sandbox app with the given actions under four eyes, two clients and three operators. */
export function useFourEyesContext(fourEyes = HELD): () => FourEyesContext {
  let context: FourEyesContext | undefined;
  before(async () => {
    const testApp = await buildTestApp({ FOUR_EYES: fourEyes });
    context = {
      testApp,
      ada: await operatorWithRoles(testApp, ['finance', 'support'], 'ada@bank.example'),
      bola: await operatorWithRoles(testApp, ['finance', 'support'], 'bola@bank.example'),
      chidi: await operatorWithRoles(testApp, ['support'], 'chidi@bank.example'),
      own: await signedInClient(testApp, 'Acme Ltd', 0),
      other: await signedInClient(testApp, 'Rival Ltd', 1),
    };
  });
  after(() => context?.testApp.close());
  return () => {
    assert.ok(context, 'four-eyes context is built in before()');
    return context;
  };
}

/** An intra-bank transfer from the own client to the other, funded first. */
export async function transferAcross(context: FourEyesContext, amount: number) {
  const { testApp, own, other } = context;
  await sandboxCredit(testApp.app, own.client.mainAccountNumber, amount);
  const response = await sendTransfer(testApp.app, own.headers, {
    debitAccountNumber: own.client.mainAccountNumber,
    beneficiaryBankCode: OUR_BANK,
    beneficiaryAccountNumber: other.client.mainAccountNumber,
    amount,
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().data as { _id: string; sessionId: string; status: string };
}

/** A new client's frozen main account (freezing is not held), whose unfreeze then is. */
export async function frozenAccount(context: FourEyesContext): Promise<string> {
  const { testApp } = context;
  const created = await testApp.app.inject({
    method: 'POST',
    url: '/admin/clients',
    headers: adminHeaders,
    payload: { name: 'Frozen Ltd' },
  });
  assert.equal(created.statusCode, 201, created.body);
  const accountNumber: string = created.json().data.mainAccount.accountNumber;
  const frozen = await testApp.app.inject({
    method: 'POST',
    url: `/admin/accounts/${accountNumber}/freeze`,
    headers: adminHeaders,
  });
  assert.equal(frozen.statusCode, 200, frozen.body);
  return accountNumber;
}

/** Asks to unfreeze as an operator: held, answered 202 with the approval's id. */
export async function requestUnfreeze(
  context: FourEyesContext,
  accountNumber: string,
  by: TestOperator,
): Promise<string> {
  const response = await context.testApp.app.inject({
    method: 'POST',
    url: `/admin/accounts/${accountNumber}/unfreeze`,
    headers: by.headers,
  });
  assert.equal(response.statusCode, 202, response.body);
  return response.json().data.approvalId;
}

export function decide(
  context: FourEyesContext,
  approvalId: string,
  decision: 'approve' | 'reject',
  headers: Readonly<Record<string, string>>,
) {
  return context.testApp.app.inject({
    method: 'POST',
    url: `/admin/approvals/${approvalId}/${decision}`,
    headers,
  });
}

export async function accountStatus(context: FourEyesContext, accountNumber: string) {
  const response = await context.testApp.app.inject({
    url: `/admin/accounts/${accountNumber}`,
    headers: adminHeaders,
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json().data.status as string;
}

/**
 * A dashboard browser signed in as an operator. Operators' own sign-in (single sign-on, a
 * password and a second factor) is not the dashboard's yet: the session is opened as it will
 * open one, and its cookie signed as the dashboard signs it (dashboard-routes.ts).
 */
export async function operatorBrowser(
  testApp: TestApp,
  operator: TestOperator,
): Promise<DashboardBrowser> {
  const session = await testApp.services.dashboardSessions.open(operator.email, operator.id);
  const browser = new DashboardBrowser(testApp.app);
  browser.cookies.set('openibs_dashboard', sign(session.secret, DASHBOARD_COOKIE_SECRET));
  const overview = await browser.get('/dashboard');
  assert.equal(overview.statusCode, 200, overview.body);
  return browser;
}

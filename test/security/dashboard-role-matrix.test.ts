/**
 * The role matrix over every dashboard action (docs/operators.md): each form route the dashboard
 * serves behind sign-in is in its action table (src/dashboard/dashboard-actions.ts), and each is
 * posted by an operator signed in to the dashboard holding each role alone, and by one holding
 * none. The action is the admin route the table names, called with the operator's session, so
 * the role that route needs is the one the action needs: a holder of it gets the action done;
 * every other holder gets the dashboard's notice of the admin API's 403 ROLE_REQUIRED. Each
 * action's refusals come before its one allowed post, which then still finds its work to do (a
 * lien to release, a request to approve, a key to revoke): the refusals did none of it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminContract } from '../../src/admin/contract/index.ts';
import { OPERATOR_ROLES, type OperatorRole, rolesAllow } from '../../src/auth/operator-roles.ts';
import { DASHBOARD_ACTIONS, type DashboardActionRoute } from '../../src/dashboard/index.ts';
import type { DashboardBrowser } from '../dashboard-browser.ts';
import { operatorBrowser } from '../four-eyes.ts';
import { buildTestApp, type TestApp } from '../harness.ts';
import { operatorWithRoles } from '../operators.ts';
import {
  buildMatrixWorld,
  HELD_ACTION,
  type MatrixWorld,
  outcomeOf,
  postedRoutes,
} from './dashboard-matrix-world.ts';

/** Form routes that are no operator action: signing in and out, and a new operator's setup. */
const NOT_ACTIONS = [
  'POST /dashboard/login',
  'POST /dashboard/login/operator',
  'POST /dashboard/logout',
  'POST /dashboard/setup/:ticket',
];

interface Case {
  readonly route: DashboardActionRoute;
  /** The `:action` value, for a route that picks its admin route by it. */
  readonly action?: string;
  /**
   * The form reads the client's page through the admin API before it acts: an operator without
   * any role is refused that read (it needs `viewer`) before the action.
   */
  readonly readsFirst?: true;
  readonly post: (world: MatrixWorld) => Promise<{ url: string; form: Record<string, string> }>;
  /** The success notice (or answer page) an allowed holder's post ends in. */
  readonly done: RegExp;
}

const form = (url: string, fields: Record<string, string> = {}) =>
  Promise.resolve({ url, form: fields });

/** One case per action of the table (and per `:action` value), in an order that keeps each valid. */
const CASES: readonly Case[] = [
  {
    route: 'POST /dashboard/clients',
    post: () => form('/dashboard/clients', { name: 'Matrix Onboarded Ltd' }),
    done: /^Client Matrix Onboarded Ltd onboarded\.$/,
  },
  {
    route: 'POST /dashboard/clients/:id/apps',
    post: (w) => form(`${w.access.base}/apps`, { name: 'Matrix app', publicKey: w.newPublicKey }),
    done: /^App registered: its OAuth client id is /,
  },
  {
    route: 'POST /dashboard/clients/:id/apps/:appId/keys',
    post: (w) =>
      form(`${w.access.base}/apps/${w.access.appId}/keys`, { publicKey: w.nextPublicKey }),
    done: /^Key added\.$/,
  },
  {
    route: 'POST /dashboard/clients/:id/apps/:appId/keys/:keyId/revoke',
    post: (w) => form(`${w.access.base}/apps/${w.access.appId}/keys/${w.access.keyId}/revoke`),
    done: /^Key revoked/,
  },
  {
    route: 'POST /dashboard/clients/:id/apps/:appId/revoke',
    post: (w) => form(`${w.access.base}/apps/${w.access.appId}/revoke`),
    done: /^App revoked/,
  },
  ...(
    [
      ['disable', /^Client disabled: its apps get no token/],
      ['enable', /^Client enabled\.$/],
      ['revoke-tokens', /^Every token of the client's apps is revoked\.$/],
    ] as const
  ).map(
    ([action, done]): Case => ({
      route: 'POST /dashboard/clients/:id/access/:action',
      action,
      post: (w) => form(`${w.access.base}/access/${action}`),
      done,
    }),
  ),
  {
    route: 'POST /dashboard/clients/:id/checkout-settings',
    post: (w) =>
      form(`${w.access.base}/checkout-settings`, {
        allowedOrigins: 'https://shop.example',
        webhookUrls: '',
      }),
    done: /^Checkout origins saved\.$/,
  },
  {
    route: 'POST /dashboard/clients/:id/webhook',
    post: (w) => form(`${w.access.base}/webhook`, { url: 'https://hooks.example/openibs' }),
    // The signing secret is shown on the answer page itself, never in a notice.
    done: /Webhook URL: https:\/\/hooks\.example\/openibs\./,
  },
  {
    route: 'POST /dashboard/clients/:id/webhooks/:eventId/replay',
    post: (w) => form(`${w.acme.base}/webhooks/${w.acme.webhookEventId}/replay`),
    done: /queued to be sent now\.$/,
  },
  ...(['freeze', 'unfreeze'] as const).map(
    (action): Case => ({
      route: 'POST /dashboard/clients/:id/accounts/:accountNumber/:action',
      action,
      readsFirst: true,
      post: (w) => form(`${w.frozen.base}/accounts/${w.frozen.accountNumber}/${action}`),
      // Unfreezing is under four eyes here: asked for, held for a second operator.
      done:
        action === 'freeze'
          ? /frozen: it takes no debit and no credit\.$/
          : /^Sent for approval \(apr_\S+\): another operator with the support role must approve/,
    }),
  ),
  {
    route: 'POST /dashboard/clients/:id/accounts/credit',
    post: (w) =>
      form(`${w.acme.base}/accounts/credit`, {
        accountNumber: w.acme.accountNumber,
        amount: '1,000.00',
        narration: 'Matrix credit',
      }),
    done: /credited to \d{10}\.$/,
  },
  {
    route: 'POST /dashboard/clients/:id/accounts/:accountNumber/liens/:lienId/release',
    readsFirst: true,
    post: (w) =>
      form(`${w.rival.base}/accounts/${w.rival.accountNumber}/liens/${w.rival.lienId}/release`, {
        reason: 'Goodwill',
      }),
    done: /^Lien released: /,
  },
  {
    route: 'POST /dashboard/clients/:id/transfers/:transferId/reversal',
    readsFirst: true,
    post: (w) =>
      form(`${w.acme.base}/transfers/${w.acme.intraTransferId}/reversal`, {
        reason: 'Sent in error',
      }),
    done: / reversed: /,
  },
  {
    route: 'POST /dashboard/clients/:id/transfers/:transferId/return',
    readsFirst: true,
    post: (w) => form(`${w.acme.base}/transfers/${w.acme.nipTransferId}/return`),
    done: / returned: the customer has it back/,
  },
  {
    route: 'POST /dashboard/clients/:id/transfers/:transferId/recall',
    readsFirst: true,
    post: (w) => form(`${w.acme.base}/transfers/${w.acme.creditId}/recall`),
    done: / recalled: /,
  },
  {
    route: 'POST /dashboard/clients/:id/bulk-transfers/upload',
    post: (w) => form(`${w.acme.base}/bulk-transfers/upload`, { csv: w.bulkCsv }),
    done: /^Batch \S+ accepted: /,
  },
  {
    route: 'POST /dashboard/clients/:id/virtual-accounts/pay',
    post: (w) =>
      form(`${w.acme.base}/virtual-accounts/pay`, {
        accountNumber: w.acme.virtualAccountNumber,
        amount: '2500',
      }),
    done: /^Virtual account payment received successfully\.$/,
  },
  {
    route: 'POST /dashboard/clients/:id/ussd/dial',
    post: (w) => form(`${w.acme.base}/ussd/dial`, { reference: w.acme.ussdReference }),
    done: /^The customer paid the reference\.$/,
  },
  {
    route: 'POST /dashboard/approvals/:approvalId/approve',
    post: (w) => form(`/dashboard/approvals/${w.approvals.toApprove}/approve`),
    done: /^Approved \S+: POST \/admin\/accounts\/:accountNumber\/unfreeze applied\.$/,
  },
  {
    route: 'POST /dashboard/approvals/:approvalId/reject',
    post: (w) => form(`/dashboard/approvals/${w.approvals.toReject}/reject`),
    done: /^Rejected \S+: it will not run\.$/,
  },
  {
    route: 'POST /dashboard/sandbox/nip-next-outcome',
    post: () => form('/dashboard/sandbox/nip-next-outcome', { responseCode: '00' }),
    done: /^The next NIP transfer will be answered 00\.$/,
  },
  {
    route: 'POST /dashboard/sandbox/clock',
    post: () => form('/dashboard/sandbox/clock', { advance: 'PT1S' }),
    done: /^The bank's clock now reads /,
  },
  {
    route: 'POST /dashboard/sandbox/faults',
    post: (w) =>
      form('/dashboard/sandbox/faults', {
        clientId: w.acme.clientId,
        route: 'POST /transfers',
        fault: '503',
        times: '1',
      }),
    done: /will fail: 503\.$/,
  },
  {
    route: 'POST /dashboard/sandbox/faults/:id/clear',
    post: async (w) => form(`/dashboard/sandbox/faults/${await w.waitingFaultId()}/clear`),
    done: /^The fault is cleared\.$/,
  },
  {
    route: 'POST /dashboard/sandbox/faults/clear',
    post: () => form('/dashboard/sandbox/faults/clear'),
    done: /^Every fault is cleared\.$/,
  },
];

/** The admin route a case's action performs, as the table names it. */
function adminRouteOf(testCase: Case): keyof typeof adminContract {
  const entry = DASHBOARD_ACTIONS[testCase.route];
  if (typeof entry === 'string') {
    return entry;
  }
  const picked = (entry as Readonly<Record<string, keyof typeof adminContract>>)[
    testCase.action ?? ''
  ];
  assert.ok(picked, `${testCase.route}: no admin route for ${testCase.action}`);
  return picked;
}

type Holder = OperatorRole | 'none';

/**
 * The refusal a holder meets, or undefined when it is let through: the admin route's own role
 * check, then, for a decision on a held action, the role of the action held.
 */
function refusalFor(holder: Holder, testCase: Case): string | undefined {
  const held = holder === 'none' ? [] : [holder];
  if (held.length === 0 && testCase.readsFirst) {
    return 'This action needs the viewer role. (HTTP 403)';
  }
  const adminRoute = adminRouteOf(testCase);
  const routeRole = adminContract[adminRoute].role;
  if (!rolesAllow(held, routeRole)) {
    return `This action needs the ${routeRole} role. (HTTP 403)`;
  }
  const decides = adminRoute.startsWith('POST /admin/approvals/');
  const heldRole = adminContract[HELD_ACTION].role;
  if (decides && !rolesAllow(held, heldRole)) {
    return `Deciding on this request needs the ${heldRole} role. (HTTP 403)`;
  }
  return undefined;
}

describe('security: the role matrix over every dashboard action', () => {
  let testApp: TestApp;
  let world: MatrixWorld;
  const browsers = new Map<Holder, DashboardBrowser>();
  before(async () => {
    testApp = await buildTestApp({ FOUR_EYES: HELD_ACTION });
    world = await buildMatrixWorld(testApp);
    for (const holder of [...OPERATOR_ROLES, 'none'] as const) {
      const operator = await operatorWithRoles(testApp, holder === 'none' ? [] : [holder]);
      browsers.set(holder, await operatorBrowser(testApp, operator));
    }
  });
  after(() => testApp?.close());

  it('every form route behind sign-in is an action of the table, and each action is served', () => {
    const every = postedRoutes(testApp.app);
    // The reading of the route tree finds the admin API's POST routes as its contract names them.
    const adminPosts = Object.keys(adminContract).filter((key) => key.startsWith('POST '));
    assert.deepEqual(
      every.filter((route) => route.startsWith('POST /admin/')).sort(),
      adminPosts.sort(),
    );
    const posted = every.filter((route) => route.startsWith('POST /dashboard/'));
    for (const route of NOT_ACTIONS) {
      assert.ok(posted.includes(route), `${route} is listed as no action, but not served`);
    }
    const actions = posted.filter((route) => !NOT_ACTIONS.includes(route));
    assert.deepEqual(actions.sort(), Object.keys(DASHBOARD_ACTIONS).sort());
  });

  it('the matrix has a case for every action of the table, and each admin route names a role', () => {
    const inTable = Object.entries(DASHBOARD_ACTIONS).flatMap(([route, entry]) =>
      typeof entry === 'string'
        ? [route]
        : Object.keys(entry).map((action) => `${route} ${action}`),
    );
    const inCases = CASES.map((each) => `${each.route}${each.action ? ` ${each.action}` : ''}`);
    assert.deepEqual([...inCases].sort(), inTable.sort());
    for (const testCase of CASES) {
      assert.ok(OPERATOR_ROLES.includes(adminContract[adminRouteOf(testCase)].role));
    }
  });

  for (const testCase of CASES) {
    const name = `${testCase.route}${testCase.action ? ` (${testCase.action})` : ''}`;
    it(name, async () => {
      const holders = [...browsers.keys()];
      const refused = holders.filter((holder) => refusalFor(holder, testCase) !== undefined);
      const allowed = holders.filter((holder) => refusalFor(holder, testCase) === undefined);
      assert.equal(allowed.length, 1, `${name}: allowed to ${allowed.join(', ')}`);
      // The refusals first: they change nothing, so the allowed post then finds the world whole.
      for (const holder of [...refused, ...allowed]) {
        const browser = browsers.get(holder) as DashboardBrowser;
        const { url, form: fields } = await testCase.post(world);
        const outcome = await outcomeOf(browser, await browser.post(url, fields));
        const refusal = refusalFor(holder, testCase);
        if (refusal !== undefined) {
          assert.deepEqual(outcome, { kind: 'error', text: refusal }, `${holder} on ${name}`);
        } else {
          assert.equal(outcome.kind, 'success', `${holder} on ${name}: ${outcome.text}`);
          assert.match(outcome.text, testCase.done, `${holder} on ${name}`);
        }
      }
    });
  }
});

import type { AdminRouteKey } from '../admin/contract/index.ts';

/**
 * Every action an operator takes in the dashboard, by its form route as registered, and the admin
 * route it performs. The dashboard acts only through that admin route, with the signed-in
 * operator's session as the credential, so the role the admin contract names for it is the role
 * the action needs (docs/operators.md); the dashboard role matrix
 * (test/security/dashboard-role-matrix.test.ts) fails on a form route missing here. A route whose
 * `:action` parameter picks among admin routes names each: the route takes no other `:action`.
 *
 * Approve and Reject (the approvals queue) take `viewer` at the admin route; deciding then needs
 * the held action's own role, which the approvals service checks.
 */
export const DASHBOARD_ACTIONS = {
  'POST /dashboard/clients': 'POST /admin/clients',
  'POST /dashboard/clients/:id/apps': 'POST /admin/clients/:id/apps',
  'POST /dashboard/clients/:id/apps/:appId/revoke': 'POST /admin/clients/:id/apps/:appId/revoke',
  'POST /dashboard/clients/:id/apps/:appId/keys': 'POST /admin/clients/:id/apps/:appId/keys',
  'POST /dashboard/clients/:id/apps/:appId/keys/:keyId/revoke':
    'POST /admin/clients/:id/apps/:appId/keys/:keyId/revoke',
  'POST /dashboard/clients/:id/access/:action': {
    disable: 'POST /admin/clients/:id/disable',
    enable: 'POST /admin/clients/:id/enable',
    'revoke-tokens': 'POST /admin/clients/:id/revoke-tokens',
  },
  'POST /dashboard/clients/:id/checkout-settings': 'PUT /admin/clients/:id/checkout-settings',
  'POST /dashboard/clients/:id/webhook': 'PUT /admin/clients/:id/webhook',
  'POST /dashboard/clients/:id/webhooks/:eventId/replay':
    'POST /admin/clients/:id/webhooks/deliveries/:eventId/replay',
  'POST /dashboard/clients/:id/accounts/:accountNumber/:action': {
    freeze: 'POST /admin/accounts/:accountNumber/freeze',
    unfreeze: 'POST /admin/accounts/:accountNumber/unfreeze',
  },
  'POST /dashboard/clients/:id/accounts/credit': 'POST /admin/sandbox/credits',
  'POST /dashboard/clients/:id/accounts/:accountNumber/liens/:lienId/release':
    'POST /admin/liens/:id/release',
  'POST /dashboard/clients/:id/transfers/:transferId/reversal':
    'POST /admin/transfers/:id/reversal',
  'POST /dashboard/clients/:id/transfers/:transferId/return': 'POST /admin/sandbox/nip/returns',
  'POST /dashboard/clients/:id/transfers/:transferId/recall': 'POST /admin/sandbox/nip/recalls',
  'POST /dashboard/clients/:id/bulk-transfers/upload': 'POST /admin/sandbox/bulk-transfers',
  'POST /dashboard/clients/:id/virtual-accounts/pay':
    'POST /admin/sandbox/virtual-account-payments',
  'POST /dashboard/clients/:id/ussd/dial': 'POST /admin/sandbox/ussd-dials',
  'POST /dashboard/approvals/:approvalId/approve': 'POST /admin/approvals/:id/approve',
  'POST /dashboard/approvals/:approvalId/reject': 'POST /admin/approvals/:id/reject',
  'POST /dashboard/sandbox/nip-next-outcome': 'POST /admin/sandbox/nip/next-outcome',
  'POST /dashboard/sandbox/clock': 'POST /admin/sandbox/clock',
  'POST /dashboard/sandbox/faults': 'POST /admin/sandbox/faults',
  'POST /dashboard/sandbox/faults/:id/clear': 'DELETE /admin/sandbox/faults/:id',
  'POST /dashboard/sandbox/faults/clear': 'DELETE /admin/sandbox/faults',
} as const satisfies Readonly<
  Record<string, AdminRouteKey | Readonly<Record<string, AdminRouteKey>>>
>;

export type DashboardActionRoute = keyof typeof DASHBOARD_ACTIONS;

/** Whether `action` is one the table names for a route with an `:action` parameter. */
export function isActionOf<R extends Readonly<Record<string, AdminRouteKey>>>(
  routes: R,
  action: string,
): action is Extract<keyof R, string> {
  return Object.hasOwn(routes, action);
}

import { describeAdminArea } from '../../../test/admin-area-tests.ts';

describeAdminArea(
  'webhooks and the audit trail',
  [
    'GET /admin/clients/:id/webhook',
    'PUT /admin/clients/:id/webhook',
    'GET /admin/clients/:id/webhooks/deliveries',
    'POST /admin/clients/:id/webhooks/replay',
    'POST /admin/clients/:id/webhooks/deliveries/:eventId/replay',
    'GET /admin/audit-events',
    'GET /admin/audit/verify',
    'GET /admin/audit/export',
  ],
  () => ({ method: 'GET', url: '/admin/audit-events' }),
);

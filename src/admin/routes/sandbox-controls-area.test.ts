import { describeAdminArea } from '../../../test/admin-area-tests.ts';

describeAdminArea(
  'sandbox controls',
  [
    'POST /admin/sandbox/nip/next-outcome',
    'POST /admin/sandbox/nip/returns',
    'POST /admin/sandbox/nip/recalls',
    'POST /admin/sandbox/credits',
    'POST /admin/sandbox/virtual-account-payments',
    'POST /admin/sandbox/ussd-dials',
    'GET /admin/sandbox/clock',
    'POST /admin/sandbox/clock',
    'GET /admin/sandbox/webhooks',
    'GET /admin/sandbox/messages',
    'GET /admin/sandbox/messages/:id',
    'GET /admin/sandbox/faults',
    'POST /admin/sandbox/faults',
    'DELETE /admin/sandbox/faults',
    'DELETE /admin/sandbox/faults/:id',
    'GET /admin/sandbox/fixtures',
    'POST /admin/sandbox/fixtures',
    'POST /admin/sandbox/reset',
  ],
  () => ({ method: 'GET', url: '/admin/sandbox/clock' }),
);

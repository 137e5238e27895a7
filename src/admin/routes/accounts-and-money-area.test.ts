import { describeAdminArea } from '../../../test/admin-area-tests.ts';

describeAdminArea(
  'accounts and money',
  [
    'GET /admin/accounts/:accountNumber',
    'POST /admin/accounts/:accountNumber/freeze',
    'POST /admin/accounts/:accountNumber/unfreeze',
    'GET /admin/accounts/:accountNumber/liens',
    'POST /admin/liens/:id/release',
    'POST /admin/transfers/:id/reversal',
    'GET /admin/clients/:id/accounts',
    'GET /admin/clients/:id/accounts/:accountId/statement',
    'GET /admin/clients/:id/transfers',
    'GET /admin/clients/:id/transfers/:transferId/story',
    'GET /admin/ledger',
    'PUT /admin/vas/service-categories/:id',
    'PUT /admin/vas/service-categories/:id/products',
    'GET /admin/clients/:id/virtual-accounts',
    'GET /admin/clients/:id/vas-purchases',
    'GET /admin/clients/:id/ussd-references',
    'GET /admin/clients/:id/checkout-sessions',
  ],
  ({ ibsClientId }) => ({ method: 'GET', url: `/admin/clients/${ibsClientId}/accounts` }),
);

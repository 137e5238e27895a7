import { describeAdminArea } from '../../../test/admin-area-tests.ts';

describeAdminArea(
  'clients and access',
  [
    'GET /admin/clients',
    'POST /admin/clients',
    'GET /admin/clients/:id',
    'POST /admin/dashboard/login-links',
    'POST /admin/dashboard/sessions/end-all',
    'GET /admin/clients/:id/apps',
    'POST /admin/clients/:id/apps',
    'POST /admin/clients/:id/apps/:appId/keys',
    'POST /admin/clients/:id/apps/:appId/keys/:keyId/revoke',
    'POST /admin/clients/:id/apps/:appId/revoke',
    'GET /admin/clients/:id/access',
    'POST /admin/clients/:id/disable',
    'POST /admin/clients/:id/enable',
    'GET /admin/clients/:id/checkout-settings',
    'PUT /admin/clients/:id/checkout-settings',
    'GET /admin/clients/:id/identity-verifications',
  ],
  ({ ibsClientId }) => ({ method: 'GET', url: `/admin/clients/${ibsClientId}/access` }),
);

import { describeAdminArea } from '../../../test/admin-area-tests.ts';

describeAdminArea(
  "the bank's operators",
  [
    'GET /admin/operators',
    'POST /admin/operators',
    'GET /admin/operators/me',
    'GET /admin/operators/me/api-keys',
    'POST /admin/operators/me/api-keys',
    'POST /admin/operators/me/api-keys/:keyId/revoke',
    'POST /admin/operators/me/sign-out-everywhere',
    'GET /admin/operators/:id',
    'PUT /admin/operators/:id/roles',
    'POST /admin/operators/:id/disable',
    'POST /admin/operators/:id/enable',
    'POST /admin/operators/:id/api-keys',
    'POST /admin/operators/:id/api-keys/:keyId/revoke',
    'POST /admin/operators/:id/sessions/end',
  ],
  async () => ({ method: 'GET', url: '/admin/operators/me' }),
);

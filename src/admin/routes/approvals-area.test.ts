import { describeAdminArea } from '../../../test/admin-area-tests.ts';

describeAdminArea(
  'four eyes: approvals',
  [
    'GET /admin/approvals',
    'GET /admin/approvals/:id',
    'POST /admin/approvals/:id/approve',
    'POST /admin/approvals/:id/reject',
  ],
  () => ({ method: 'GET', url: '/admin/approvals?status=pending' }),
);

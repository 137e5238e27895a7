import { describeAdminArea } from '../../../test/admin-area-tests.ts';
import { newOperator } from '../../../test/operator-sign-in-helpers.ts';

describeAdminArea(
  "operators' local sign-in",
  [
    'POST /admin/operators/:id/setup-link',
    'POST /admin/operators/:id/reset-sign-in',
    'POST /admin/operators/:id/unlock',
  ],
  async ({ testApp }) => {
    const operator = await newOperator(testApp, 'area@bank.example');
    return { method: 'POST', url: `/admin/operators/${operator.id}/unlock` };
  },
);

import { registerResourceList } from '../resource-list.ts';
import type { DashboardPage } from '../route-kit.ts';

/** A client's identity checks, masked by the admin API (never a whole BVN, NIN or OTP). */
export const identityRoutes: DashboardPage = async (app, { tools }) => {
  registerResourceList(app, tools, {
    suffix: '/identity',
    title: 'Identity verifications',
    load: (admin, id, query) =>
      admin.get('/admin/clients/:id/identity-verifications', { params: { id }, query }),
    fields: [
      'type',
      'number',
      'status',
      'name',
      'accounts',
      'debitAccountNumber',
      'provider',
      'createdAt',
      'verifiedAt',
    ],
    empty: 'No identity check yet.',
  });
};

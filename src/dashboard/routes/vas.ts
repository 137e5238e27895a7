import { registerResourceList, statusFilter } from '../resource-list.ts';
import type { DashboardPage } from '../route-kit.ts';

/** A client's airtime, data, cable TV and electricity purchases. */
export const vasRoutes: DashboardPage = async (app, { tools }) => {
  registerResourceList(app, tools, {
    suffix: '/vas',
    title: 'VAS purchases',
    load: (admin, id, query) =>
      admin.get('/admin/clients/:id/vas-purchases', { params: { id }, query }),
    fields: [
      'createdAt',
      'serviceCategory',
      'beneficiary',
      'amount',
      'commission',
      'status',
      'debitAccountNumber',
      'reference',
      'utilityToken',
      'failureReason',
    ],
    filters: [
      statusFilter([
        ['pending', 'pending'],
        ['successful', 'successful'],
        ['failed', 'failed'],
      ]),
    ],
    empty: 'No purchase yet.',
  });
};

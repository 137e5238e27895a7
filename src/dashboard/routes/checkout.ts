import { registerResourceList, statusFilter } from '../resource-list.ts';
import type { DashboardPage } from '../route-kit.ts';

/** A client's checkout sessions, as verify answers them. */
export const checkoutRoutes: DashboardPage = async (app, { tools }) => {
  registerResourceList(app, tools, {
    suffix: '/checkout',
    title: 'Checkout sessions',
    load: (admin, id, query) =>
      admin.get('/admin/clients/:id/checkout-sessions', { params: { id }, query }),
    fields: [
      'referenceCode',
      'status',
      'amount',
      'amountPaid',
      'fees',
      'settledAmount',
      'feeBearer',
      'channel',
      'paidAt',
      'expiresAt',
      'createdAt',
    ],
    empty: 'No checkout session yet.',
    filters: [
      statusFilter(['Pending', 'Completed', 'Expired'].map((status) => [status, status] as const)),
    ],
  });
};

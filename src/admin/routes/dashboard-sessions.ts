import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DashboardSessions } from '../../auth/dashboard-sessions.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';

export interface DashboardSessionRouteOptions {
  /** Undefined when the dashboard is off: the route does not exist. */
  readonly dashboardSessions?: Pick<DashboardSessions, 'endAll'> | undefined;
}

/**
 * POST /admin/dashboard/sessions/end-all: signs every operator out of the dashboard at once, on
 * every server process (a lost laptop, a copied cookie, someone who left). Recorded in the audit
 * trail like every operator action.
 */
export const dashboardSessionRoute: FastifyPluginAsyncTypebox<
  DashboardSessionRouteOptions
> = async (app, { dashboardSessions }) => {
  if (dashboardSessions === undefined) {
    return;
  }
  app.post(
    '/admin/dashboard/sessions/end-all',
    {
      schema: {
        tags: ['Admin'],
        summary: 'End every dashboard session',
        response: {
          200: adminContract['POST /admin/dashboard/sessions/end-all'].answer,
          401: ErrorSchema,
        },
      },
    },
    async () => ok('Dashboard sessions ended.', { ended: await dashboardSessions.endAll() }),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';

export interface DashboardLoginLinkRouteOptions {
  /**
   * The dashboard's one-time sign-in tickets (its login links); undefined when the dashboard is
   * off: the route does not exist. The admin API never imports the dashboard, which is built on it.
   */
  readonly dashboardLoginLinks?: { issue(): { ticket: string; expiresAt: Date } } | undefined;
  readonly publicBaseUrl: string;
}

/**
 * POST /admin/dashboard/login-links: a one-time link that signs its opener in to the dashboard
 * (`npx openibs dashboard` prints one). It works once, within DASHBOARD_LOGIN_LINK_TTL_SECONDS,
 * on the server process that made it.
 */
export const dashboardLoginLinkRoute: FastifyPluginAsyncTypebox<
  DashboardLoginLinkRouteOptions
> = async (app, { dashboardLoginLinks, publicBaseUrl }) => {
  if (dashboardLoginLinks === undefined) {
    return;
  }
  app.post(
    '/admin/dashboard/login-links',
    {
      schema: {
        tags: ['Admin'],
        summary: 'A one-time dashboard sign-in link',
        response: {
          201: adminContract['POST /admin/dashboard/login-links'].answer,
          401: ErrorSchema,
        },
      },
    },
    async (_request, reply) => {
      const { ticket, expiresAt } = dashboardLoginLinks.issue();
      return reply.status(201).send(
        ok(
          'Dashboard sign-in link made.',
          {
            url: `${publicBaseUrl}/dashboard/login/${ticket}`,
            expiresAt: expiresAt.toISOString(),
          },
          201,
        ),
      );
    },
  );
};

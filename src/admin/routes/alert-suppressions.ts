import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import type { AlertSuppressions } from '../../modules/alerts/index.ts';
import { adminContract } from '../contract/index.ts';
import { suppressionView } from '../suppression-view.ts';

const list = adminContract['GET /admin/alerts/suppressed-destinations'];

export interface AlertSuppressionsRouteOptions {
  readonly alertSuppressions: Pick<AlertSuppressions, 'list'>;
}

/**
 * GET /admin/alerts/suppressed-destinations: the email addresses and phone numbers alerts are no
 * longer sent to, because a provider refused them for good; newest first (docs/alerts.md).
 */
export const alertSuppressionsRoute: FastifyPluginAsyncTypebox<
  AlertSuppressionsRouteOptions
> = async (app, { alertSuppressions }) => {
  app.get(
    '/admin/alerts/suppressed-destinations',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Destinations alerts are no longer sent to, and why',
        querystring: list.query,
        response: { 200: list.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const { page, limit } = request.query;
      const { destinations, total } = await alertSuppressions.list({ page, limit });
      return paged(
        'Suppressed destinations fetched successfully.',
        destinations.map(suppressionView),
        {
          page,
          limit,
          total,
        },
      );
    },
  );
};

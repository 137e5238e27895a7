import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { AlertSuppressions } from '../../modules/alerts/index.ts';
import { adminContract } from '../contract/index.ts';
import { suppressionView } from '../suppression-view.ts';

const lift = adminContract['POST /admin/alerts/suppressed-destinations/lift'];

export interface AlertSuppressionLiftRouteOptions {
  readonly alertSuppressions: Pick<AlertSuppressions, 'lift'>;
}

/**
 * POST /admin/alerts/suppressed-destinations/lift: alerts to this address or number are tried
 * again from the next one on (the customer has fixed it); answers the suppression as it was. One
 * not suppressed: 400 RECORD_NOT_FOUND.
 */
export const alertSuppressionLiftRoute: FastifyPluginAsyncTypebox<
  AlertSuppressionLiftRouteOptions
> = async (app, { alertSuppressions }) => {
  app.post(
    '/admin/alerts/suppressed-destinations/lift',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Send alerts to a suppressed destination again',
        body: lift.body,
        response: { 200: lift.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const lifted = await alertSuppressions.lift(request.body);
      return ok('Suppression lifted.', suppressionView(lifted));
    },
  );
};

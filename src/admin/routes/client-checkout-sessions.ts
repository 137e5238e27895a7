import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import { type CheckoutService, checkoutVerifyView } from '../../modules/checkout/index.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import type { Clock } from '../../shared/clock.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const listSessions = adminContract['GET /admin/clients/:id/checkout-sessions'];

export interface ClientCheckoutSessionsRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly checkoutService: Pick<CheckoutService, 'list'>;
  readonly institutionCode: string;
  readonly clock: Clock;
}

/**
 * GET /admin/clients/:id/checkout-sessions: the client's checkout sessions, newest first, each
 * as the merchant's verify call shows it. Read as stored: listing changes nothing (a payment
 * completes its session as it lands).
 */
export const clientCheckoutSessionsRoute: FastifyPluginAsyncTypebox<
  ClientCheckoutSessionsRouteOptions
> = async (app, { clientService, checkoutService, institutionCode, clock }) => {
  app.get(
    '/admin/clients/:id/checkout-sessions',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's checkout sessions, newest first",
        params: listSessions.params,
        querystring: listSessions.query,
        response: { 200: listSessions.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const { page, limit, status } = request.query;
      const { sessions, total } = await checkoutService.list(
        { clientId: client.id },
        { ...(status === undefined ? {} : { status }), page, limit },
      );
      const now = clock.now();
      const data = sessions.map((session) => checkoutVerifyView(session, institutionCode, now));
      return paged('Checkout sessions fetched successfully.', data, { page, limit, total });
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { VirtualAccountTransferSchema } from '../virtual-account-schemas.ts';
import type { VirtualAccountService } from '../virtual-account-service.ts';
import { virtualAccountTransferView } from '../virtual-account-view.ts';

export interface GetVirtualAccountTransactionsRouteOptions {
  readonly virtualAccountService: Pick<VirtualAccountService, 'payments'>;
}

export const getVirtualAccountTransactionsRoute: FastifyPluginAsyncTypebox<
  GetVirtualAccountTransactionsRouteOptions
> = async (app, { virtualAccountService }) => {
  app.get(
    '/virtual-accounts/:id/transaction',
    {
      schema: {
        tags: ['Virtual accounts'],
        summary: 'The payments one of your virtual accounts received, oldest first',
        params: IdParams,
        response: {
          200: envelopeSchema(Type.Array(VirtualAccountTransferSchema)),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const payments = await virtualAccountService.payments(request.principal, request.params.id);
      return ok(
        'Virtual account transactions fetched successfully.',
        payments.map(({ transfer, account }) => virtualAccountTransferView(transfer, account)),
      );
    },
  );
};

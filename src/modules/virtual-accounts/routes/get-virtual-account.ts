import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, IdParams } from '../../../http/common-schemas.ts';
import { VirtualAccountEnvelopeSchema } from '../virtual-account-schemas.ts';
import type { VirtualAccountService } from '../virtual-account-service.ts';
import {
  okVirtualAccount,
  type VirtualAccountViewContext,
  virtualAccountView,
} from '../virtual-account-view.ts';

export interface GetVirtualAccountRouteOptions {
  readonly virtualAccountService: Pick<VirtualAccountService, 'get'>;
  readonly viewContext: () => VirtualAccountViewContext;
}

export const getVirtualAccountRoute: FastifyPluginAsyncTypebox<
  GetVirtualAccountRouteOptions
> = async (app, { virtualAccountService, viewContext }) => {
  app.get(
    '/virtual-accounts/:id',
    {
      schema: {
        tags: ['Virtual accounts'],
        summary: 'Get one of your virtual accounts',
        params: IdParams,
        response: { 200: VirtualAccountEnvelopeSchema, ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const account = await virtualAccountService.get(request.principal, request.params.id);
      return okVirtualAccount(
        'Virtual account fetched successfully.',
        virtualAccountView(account, viewContext()),
      );
    },
  );
};

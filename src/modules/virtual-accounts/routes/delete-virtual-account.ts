import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { VirtualAccountSchema } from '../virtual-account-schemas.ts';
import type { VirtualAccountService } from '../virtual-account-service.ts';
import { type VirtualAccountViewContext, virtualAccountView } from '../virtual-account-view.ts';

export interface DeleteVirtualAccountRouteOptions {
  readonly virtualAccountService: Pick<VirtualAccountService, 'remove'>;
  readonly viewContext: () => VirtualAccountViewContext;
}

export const deleteVirtualAccountRoute: FastifyPluginAsyncTypebox<
  DeleteVirtualAccountRouteOptions
> = async (app, { virtualAccountService, viewContext }) => {
  app.delete(
    '/virtual-accounts/:id',
    {
      schema: {
        tags: ['Virtual accounts'],
        summary: 'Delete a virtual account: it takes no more payments and reads as unknown',
        params: IdParams,
        response: { 200: envelopeSchema(VirtualAccountSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const account = await virtualAccountService.remove(request.principal, request.params.id);
      return ok(
        'Virtual account deleted successfully.',
        virtualAccountView(account, viewContext()),
      );
    },
  );
};

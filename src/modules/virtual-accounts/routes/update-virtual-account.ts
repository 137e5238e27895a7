import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { UpdateVirtualAccountBody, VirtualAccountSchema } from '../virtual-account-schemas.ts';
import type { VirtualAccountService } from '../virtual-account-service.ts';
import { type VirtualAccountViewContext, virtualAccountView } from '../virtual-account-view.ts';

export interface UpdateVirtualAccountRouteOptions {
  readonly virtualAccountService: Pick<VirtualAccountService, 'update'>;
  readonly viewContext: () => VirtualAccountViewContext;
}

export const updateVirtualAccountRoute: FastifyPluginAsyncTypebox<
  UpdateVirtualAccountRouteOptions
> = async (app, { virtualAccountService, viewContext }) => {
  app.put(
    '/virtual-accounts/:id',
    {
      schema: {
        tags: ['Virtual accounts'],
        summary: "Change a virtual account's callbackUrl (an empty body or [] changes nothing)",
        params: IdParams,
        body: UpdateVirtualAccountBody,
        response: { 200: envelopeSchema(VirtualAccountSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { callbackUrl } = request.body;
      const account = await virtualAccountService.update(
        request.principal,
        request.params.id,
        callbackUrl === undefined ? {} : { callbackUrl },
      );
      return ok(
        'Virtual account updated successfully.',
        virtualAccountView(account, viewContext()),
      );
    },
  );
};

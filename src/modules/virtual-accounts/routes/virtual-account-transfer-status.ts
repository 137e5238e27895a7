import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  nibssEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { okNibss } from '../../../http/envelope.ts';
import {
  VirtualAccountStatusBody,
  VirtualAccountTransferSchema,
} from '../virtual-account-schemas.ts';
import type { VirtualAccountService } from '../virtual-account-service.ts';
import { virtualAccountTransferView } from '../virtual-account-view.ts';

export interface VirtualAccountTransferStatusRouteOptions {
  readonly virtualAccountService: Pick<VirtualAccountService, 'paymentStatus'>;
}

export const virtualAccountTransferStatusRoute: FastifyPluginAsyncTypebox<
  VirtualAccountTransferStatusRouteOptions
> = async (app, { virtualAccountService }) => {
  app.post(
    '/virtual-accounts/status',
    {
      schema: {
        tags: ['Virtual accounts'],
        summary: 'A payment into one of your virtual accounts, by its session id',
        description:
          'Unknown, not yet arrived or another client\'s: 400 "Unable to locate record".',
        body: VirtualAccountStatusBody,
        response: {
          200: nibssEnvelopeSchema(VirtualAccountTransferSchema),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { transfer, account } = await virtualAccountService.paymentStatus(
        request.principal,
        request.body.sessionId,
      );
      return okNibss(
        'Virtual account transfer fetched successfully.',
        virtualAccountTransferView(transfer, account),
      );
    },
  );
};

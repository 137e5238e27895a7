import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../../errors/app-error.ts';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  nibssEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { okNibss } from '../../../http/envelope.ts';
import { TransferSchema, TransferStatusBody } from '../transfer-schemas.ts';
import type { TransferService } from '../transfer-service.ts';
import { transferView } from '../transfer-view.ts';

/** One handler at both published paths: /transfers/status and /transfers/tqs. */
export interface TransferStatusRouteOptions {
  readonly transferService: Pick<TransferService, 'status'>;
}

export const transferStatusRoute: FastifyPluginAsyncTypebox<TransferStatusRouteOptions> = async (
  app,
  { transferService },
) => {
  for (const url of ['/transfers/status', '/transfers/tqs']) {
    app.post(
      url,
      {
        schema: {
          tags: ['Transfers'],
          summary: 'Transfer status query (by sessionId or paymentReference)',
          body: TransferStatusBody,
          response: { 200: nibssEnvelopeSchema(TransferSchema), ...AUTHENTICATED_ERROR_RESPONSES },
        },
      },
      async (request) => {
        const { sessionId, paymentReference } = request.body;
        if (sessionId === undefined && paymentReference === undefined) {
          throw new AppError('VALIDATION_ERROR', 'sessionId or paymentReference is required.', {
            details: [{ field: 'sessionId', message: 'is required' }],
          });
        }
        const transfer = await transferService.status(request.principal, {
          ...(sessionId === undefined ? {} : { sessionId }),
          ...(paymentReference === undefined ? {} : { paymentReference }),
        });
        return okNibss('Transfer fetched successfully.', transferView(transfer));
      },
    );
  }
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { parseAmount } from '../../../http/amount.ts';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  ErrorSchema,
  nibssEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { okNibss } from '../../../http/envelope.ts';
import { readIdempotencyKey } from '../../../idempotency/idempotency.ts';
import type { Kobo } from '../../../shared/money.ts';
import type { OutboundTransferService } from '../outbound/outbound-transfer-service.ts';
import { CreateTransferBody, TransferSchema } from '../transfer-schemas.ts';
import { transferView } from '../transfer-view.ts';

export interface CreateTransferRouteOptions {
  readonly outboundTransfers: Pick<OutboundTransferService, 'createTransfer'>;
  readonly maxAmountKobo: Kobo;
}

export const createTransferRoute: FastifyPluginAsyncTypebox<CreateTransferRouteOptions> = async (
  app,
  { outboundTransfers, maxAmountKobo },
) => {
  app.post(
    '/transfers',
    {
      schema: {
        tags: ['Transfers'],
        summary: 'Transfer to an account here (intra-bank) or at another bank (NIP)',
        description:
          'Intra-bank transfers complete at once. NIP transfers hold the funds, go to the rail, and ' +
          'answer Completed, Failed, or Processing (settled later by status query). The same ' +
          'paymentReference (or Idempotency-Key) with the same body replays the first answer.',
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: CreateTransferBody,
        response: {
          200: nibssEnvelopeSchema(TransferSchema),
          402: ErrorSchema,
          409: ErrorSchema,
          422: ErrorSchema,
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const key = readIdempotencyKey(request.headers['idempotency-key']);
      const { amount, ...body } = request.body;
      const transfer = await outboundTransfers.createTransfer(
        request.principal,
        { ...body, amountKobo: parseAmount(amount, maxAmountKobo) },
        key,
      );
      return okNibss('Transfer processed.', transferView(transfer));
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../../errors/app-error.ts';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  ErrorSchema,
  envelopeSchema,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { readIdempotencyKey } from '../../../idempotency/idempotency.ts';
import type { BulkPayoutService } from '../bulk/bulk-payout-service.ts';
import { BulkBatchSchema, CreateBulkBody } from '../bulk/bulk-schemas.ts';
import { bulkBatchView } from '../bulk/bulk-view.ts';

export interface CreateBulkTransferRouteOptions {
  readonly bulkPayouts: Pick<BulkPayoutService, 'accept'>;
}

/**
 * 1,000 transfers of about 400 bytes each, with room to spare; the rest of the API keeps the
 * app's own limit (app.ts).
 */
const BULK_BODY_LIMIT = 2 * 1024 * 1024;

export const createBulkTransferRoute: FastifyPluginAsyncTypebox<
  CreateBulkTransferRouteOptions
> = async (app, { bulkPayouts }) => {
  app.post(
    '/transfers/bulk',
    {
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags: ['Transfers'],
        summary: 'Bulk payouts: up to 1,000 transfers in one request (an OpenIBS extension)',
        description:
          'Accepted at once (202) with the batch id and its counts; the items are placed in the ' +
          'background, each Placed or Refused once (GET /transfers/bulk/{id}). Invalid items are ' +
          'refused alone, unless allOrNothing, which refuses the whole batch (400) and holds the ' +
          'total first (402 when it cannot). The Idempotency-Key header is required: the same key ' +
          'and body replay the batch (docs/bulk-payouts.md).',
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: CreateBulkBody,
        response: {
          202: envelopeSchema(BulkBatchSchema),
          402: ErrorSchema,
          409: ErrorSchema,
          413: ErrorSchema,
          422: ErrorSchema,
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const key = readIdempotencyKey(request.headers['idempotency-key']);
      if (key === undefined) {
        throw new AppError('VALIDATION_ERROR', 'A bulk request needs an Idempotency-Key header.');
      }
      const batch = await bulkPayouts.accept(request.principal, request.body, key);
      reply.code(202);
      return ok('Bulk transfer accepted.', bulkBatchView(batch), 202);
    },
  );
};

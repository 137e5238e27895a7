import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { type BulkPayoutService, bulkBatchView } from '../../modules/transfers/index.ts';
import type { NipSimulator } from '../../rails/nip/nip-simulator.ts';
import { adminContract } from '../contract/index.ts';

const sendBatch = adminContract['POST /admin/sandbox/bulk-transfers'];

export interface SandboxBulkTransferRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly bulkPayouts: Pick<BulkPayoutService, 'accept'>;
  /** The simulated NIP network in sandbox; undefined in production. */
  readonly sandboxNetwork: Pick<NipSimulator, 'returnTransfer'> | undefined;
}

/** 1,000 transfers, as POST /transfers/bulk takes them. */
const BULK_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * POST /admin/sandbox/bulk-transfers: a bulk batch sent for a client, as the client's own
 * POST /transfers/bulk would send it (the same checks, the same answer: 202 with the batch).
 * The dashboard's CSV upload calls it. Sandbox only: in production, only a client moves its
 * money.
 */
export const sandboxBulkTransferRoute: FastifyPluginAsyncTypebox<
  SandboxBulkTransferRouteOptions
> = async (app, { clientService, bulkPayouts, sandboxNetwork }) => {
  app.post(
    '/admin/sandbox/bulk-transfers',
    {
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: send a bulk transfer batch for a client',
        body: sendBatch.body,
        response: {
          202: sendBatch.answer,
          400: ErrorSchema,
          401: ErrorSchema,
          402: ErrorSchema,
          403: ErrorSchema,
          422: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (sandboxNetwork === undefined) {
        throw new AppError('SANDBOX_ONLY');
      }
      const { clientId, idempotencyKey, ...body } = request.body;
      const client = await clientService.getClient(clientId);
      const batch = await bulkPayouts.accept({ clientId: client.id }, body, idempotencyKey);
      reply.code(202);
      return ok('Bulk transfer accepted.', bulkBatchView(batch), 202);
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors/app-error.ts';
import { parseAmount } from '../../http/amount.ts';
import { ErrorSchema, envelopeSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { transferView } from '../../modules/transfers/transfer-view.ts';
import { SandboxCreditBody } from '../admin-schemas.ts';
import type { AdminRoutesOptions } from './index.ts';

const SANDBOX_SENDER = {
  name: 'SANDBOX SENDER',
  accountNumber: '0123456789',
  bankCode: '000013',
};

/** POST /admin/sandbox/credits: money arrives from another bank over (simulated) NIP. */
export const sandboxCreditRoute: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (
  app,
  { inboundCredits, sandbox, maxAmountKobo },
) => {
  app.post(
    '/admin/sandbox/credits',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: credit an account as an inbound NIP transfer from another bank',
        body: SandboxCreditBody,
        response: {
          201: envelopeSchema(Type.Record(Type.String(), Type.Unknown())),
          400: ErrorSchema,
          401: ErrorSchema,
          402: ErrorSchema,
          403: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (!sandbox) {
        throw new AppError('SANDBOX_ONLY');
      }
      const body = request.body;
      const transfer = await inboundCredits.receive({
        accountNumber: body.accountNumber,
        amountKobo: parseAmount(body.amount, maxAmountKobo),
        ...(body.narration === undefined ? {} : { narration: body.narration }),
        senderName: body.senderName ?? SANDBOX_SENDER.name,
        senderAccountNumber: body.senderAccountNumber ?? SANDBOX_SENDER.accountNumber,
        senderBankCode: body.senderBankCode ?? SANDBOX_SENDER.bankCode,
      });
      return reply
        .status(201)
        .send(ok('Credit received successfully.', transferView(transfer), 201));
    },
  );
};

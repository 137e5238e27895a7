import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { VirtualAccountConfig } from '../../../config/virtual-account-config.ts';
import { parseAmount } from '../../../http/amount.ts';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { requestFingerprint } from '../../../idempotency/idempotency.ts';
import type { Kobo } from '../../../shared/money.ts';
import { CreateVirtualAccountBody, VirtualAccountSchema } from '../virtual-account-schemas.ts';
import type { VirtualAccountService } from '../virtual-account-service.ts';
import { type VirtualAccountViewContext, virtualAccountView } from '../virtual-account-view.ts';

export interface CreateVirtualAccountRouteOptions {
  readonly virtualAccountService: Pick<VirtualAccountService, 'create'>;
  readonly virtualAccountConfig: VirtualAccountConfig;
  readonly maxAmountKobo: Kobo;
  readonly viewContext: () => VirtualAccountViewContext;
}

export const createVirtualAccountRoute: FastifyPluginAsyncTypebox<
  CreateVirtualAccountRouteOptions
> = async (app, { virtualAccountService, virtualAccountConfig, maxAmountKobo, viewContext }) => {
  app.post(
    '/virtual-accounts',
    {
      schema: {
        tags: ['Virtual accounts'],
        summary: 'Create a time-bound account that collects one payment for one of your accounts',
        body: CreateVirtualAccountBody,
        response: { 200: envelopeSchema(VirtualAccountSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const body = request.body;
      const account = await virtualAccountService.create(
        request.principal,
        {
          validForSeconds: body.validFor ?? virtualAccountConfig.defaultValidForSeconds,
          callbackUrl: body.callbackUrl,
          settlementAccount: body.settlementAccount,
          amountControl: body.amountControl,
          amountKobo: parseAmount(body.amount, maxAmountKobo),
          externalReference: body.externalReference,
          accountName: body.accountName,
        },
        // The same externalReference with the same body, in any key order, replays.
        requestFingerprint(body),
      );
      return ok(
        'Virtual account created successfully.',
        virtualAccountView(account, viewContext()),
      );
    },
  );
};

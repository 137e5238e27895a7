import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { UssdBankSchema } from '../ussd-schemas.ts';
import type { UssdService } from '../ussd-service.ts';
import { ussdBankView } from '../ussd-view.ts';

export interface ListUssdBanksRouteOptions {
  readonly ussdService: Pick<UssdService, 'banks'>;
}

export const listUssdBanksRoute: FastifyPluginAsyncTypebox<ListUssdBanksRouteOptions> = async (
  app,
  { ussdService },
) => {
  app.get(
    '/ussd-payment/banks',
    {
      schema: {
        tags: ['USSD'],
        summary: 'The banks whose customers can pay a USSD reference, with their codes',
        response: {
          200: envelopeSchema(Type.Array(UssdBankSchema)),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    // The published message, capital S and no full stop.
    async () => ok('Banks fetched Successfully', ussdService.banks().map(ussdBankView)),
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { AccountSchema } from '../account-schemas.ts';
import type { AccountService } from '../account-service.ts';
import { accountView } from '../account-view.ts';

export interface GetAccountRouteOptions {
  readonly accountService: Pick<AccountService, 'getAccount'>;
  readonly institutionCode: string;
}

export const getAccountRoute: FastifyPluginAsyncTypebox<GetAccountRouteOptions> = async (
  app,
  { accountService, institutionCode },
) => {
  app.get(
    '/accounts/:id',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Get one of your accounts, with its balances',
        params: IdParams,
        response: { 200: envelopeSchema(AccountSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const account = await accountService.getAccount(request.principal, request.params.id);
      return ok('Account fetched successfully.', accountView(account, institutionCode));
    },
  );
};

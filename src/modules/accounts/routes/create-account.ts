import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { AccountSchema, CreateAccountBody } from '../account-schemas.ts';
import type { AccountService } from '../account-service.ts';
import { accountView } from '../account-view.ts';

export interface CreateAccountRouteOptions {
  readonly accountService: Pick<AccountService, 'createAccount'>;
  readonly institutionCode: string;
}

export const createAccountRoute: FastifyPluginAsyncTypebox<CreateAccountRouteOptions> = async (
  app,
  { accountService, institutionCode },
) => {
  app.post(
    '/accounts',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Create an account under your own profile',
        body: CreateAccountBody,
        response: { 200: envelopeSchema(AccountSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const account = await accountService.createAccount(request.principal, request.body);
      return ok('Account created successfully.', accountView(account, institutionCode));
    },
  );
};

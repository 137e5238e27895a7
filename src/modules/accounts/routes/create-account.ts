import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { AccountSchema, CreateAccountBody } from '../account-schemas.ts';
import { accountView } from '../account-view.ts';
import type { AccountRoutesOptions } from './index.ts';

export const createAccountRoute: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (
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

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  envelopeSchema,
  IdParams,
} from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import { AccountSchema, UpdateAccountBody } from '../account-schemas.ts';
import type { AccountService } from '../account-service.ts';
import { accountView } from '../account-view.ts';

export interface UpdateAccountRouteOptions {
  readonly accountService: Pick<AccountService, 'updateNotificationSettings'>;
  readonly institutionCode: string;
}

export const updateAccountRoute: FastifyPluginAsyncTypebox<UpdateAccountRouteOptions> = async (
  app,
  { accountService, institutionCode },
) => {
  app.put(
    '/accounts/:id',
    {
      schema: {
        tags: ['Accounts'],
        summary: "Update an account's notification settings",
        description:
          'Only notificationSettings can change; any other body field is ignored, and an empty body (or `[]`) changes nothing.',
        params: IdParams,
        body: UpdateAccountBody,
        response: { 200: envelopeSchema(AccountSchema), ...AUTHENTICATED_ERROR_RESPONSES },
      },
    },
    async (request) => {
      const account = await accountService.updateNotificationSettings(
        request.principal,
        request.params.id,
        request.body.notificationSettings ?? {},
      );
      return ok('Account updated successfully.', accountView(account, institutionCode));
    },
  );
};

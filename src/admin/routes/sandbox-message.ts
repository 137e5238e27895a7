import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { AlertInbox } from '../../modules/alerts/index.ts';
import { adminContract } from '../contract/index.ts';
import { sandboxMessageView } from '../sandbox-message-view.ts';

const one = adminContract['GET /admin/sandbox/messages/:id'];

export interface SandboxMessageRouteOptions {
  /** The alert messages' inbox; undefined in production. */
  readonly sandboxMessageInbox: Pick<AlertInbox, 'get'> | undefined;
}

/** GET /admin/sandbox/messages/:id: one alert message, its email's HTML too. */
export const sandboxMessageRoute: FastifyPluginAsyncTypebox<SandboxMessageRouteOptions> = async (
  app,
  { sandboxMessageInbox },
) => {
  app.get(
    '/admin/sandbox/messages/:id',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: one alert message',
        params: one.params,
        response: { 200: one.answer, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => {
      if (sandboxMessageInbox === undefined) {
        throw new AppError('SANDBOX_ONLY');
      }
      const message = await sandboxMessageInbox.get(request.params.id);
      return ok('Message fetched successfully.', sandboxMessageView(message));
    },
  );
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import type { AlertInbox } from '../../modules/alerts/index.ts';
import { adminContract } from '../contract/index.ts';
import { sandboxMessageView } from '../sandbox-message-view.ts';

const inbox = adminContract['GET /admin/sandbox/messages'];

export interface SandboxMessagesRouteOptions {
  /** The alert messages' inbox; undefined in production. */
  readonly sandboxMessageInbox: Pick<AlertInbox, 'list'> | undefined;
}

/**
 * GET /admin/sandbox/messages: every alert email and SMS the sandbox made, newest first, as the
 * holder would read it, with where it went and how sending it ended (docs/alerts.md).
 */
export const sandboxMessagesRoute: FastifyPluginAsyncTypebox<SandboxMessagesRouteOptions> = async (
  app,
  { sandboxMessageInbox },
) => {
  app.get(
    '/admin/sandbox/messages',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: the message inbox (every alert email and SMS, as the holder reads it)',
        querystring: inbox.query,
        response: { 200: inbox.answer, 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
    },
    async (request) => {
      if (sandboxMessageInbox === undefined) {
        throw new AppError('SANDBOX_ONLY');
      }
      const { accountNumber, channel, page, limit } = request.query;
      const { messages, total } = await sandboxMessageInbox.list({
        accountNumber,
        channel,
        page,
        limit,
      });
      return paged('Messages fetched successfully.', messages.map(sandboxMessageView), {
        page,
        limit,
        total,
      });
    },
  );
};

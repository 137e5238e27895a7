import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { paged } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import type { WebhookInbox } from '../../webhooks/inbox.ts';
import type { InboxEntry } from '../../webhooks/inbox-repository.ts';
import { adminContract } from '../contract/index.ts';

const inbox = adminContract['GET /admin/sandbox/webhooks'];

export interface SandboxWebhookRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  /** The sandbox's webhook inbox; undefined in production. */
  readonly sandboxWebhookInbox: WebhookInbox | undefined;
}

/**
 * GET /admin/sandbox/webhooks: every webhook delivery attempt the sandbox made (or would have
 * made, for a client with no URL), with the exact signed body and headers and the receiver's
 * answer, newest first. `wait` (seconds) holds the answer until one matches: a test waits for a
 * webhook without a receiver of its own.
 */
export const sandboxWebhookRoute: FastifyPluginAsyncTypebox<SandboxWebhookRouteOptions> = async (
  app,
  { clientService, sandboxWebhookInbox },
) => {
  // Waiting reads end when the server closes, instead of holding its shutdown up.
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());

  app.get(
    '/admin/sandbox/webhooks',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: the webhook inbox (every delivery attempt, as sent and answered)',
        querystring: inbox.query,
        response: {
          200: inbox.answer,
          400: ErrorSchema,
          401: ErrorSchema,
          403: ErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (sandboxWebhookInbox === undefined) {
        throw new AppError('SANDBOX_ONLY');
      }
      const { clientId, type, since, after, wait, page, limit } = request.query;
      if (clientId !== undefined) {
        await clientService.getClient(clientId);
      }
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const { entries, total } = await sandboxWebhookInbox.list(
        { clientId, type, since: sinceDate(since), after, offset: page * limit, limit },
        { waitMs: (wait ?? 0) * 1000, signal: AbortSignal.any([gone.signal, closing.signal]) },
      );
      return paged('Webhook attempts fetched successfully.', entries.map(inboxView), {
        page,
        limit,
        total,
      });
    },
  );
};

function sinceDate(since: string | undefined): Date | undefined {
  if (since === undefined) {
    return undefined;
  }
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(since) ? `${since}T00:00:00.000Z` : since);
  if (Number.isNaN(date.getTime())) {
    throw new AppError('VALIDATION_ERROR', 'since is not a valid date', {
      details: [{ field: 'since', message: 'is not a valid date' }],
    });
  }
  return date;
}

function inboxView(entry: InboxEntry) {
  return {
    _id: entry.id,
    eventId: entry.eventId,
    attempt: entry.attempt,
    clientId: entry.clientId,
    type: entry.type,
    url: entry.url,
    requestHeaders: entry.requestHeaders,
    requestBody: entry.requestBody,
    responseStatus: entry.responseStatus,
    responseBody: entry.responseBody,
    error: entry.error,
    attemptedAt: entry.attemptedAt.toISOString(),
  };
}

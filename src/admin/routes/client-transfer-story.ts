import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import {
  storyWindow,
  type TransferService,
  type TransferStory,
  transferView,
} from '../../modules/transfers/index.ts';
import { koboToNaira } from '../../shared/money.ts';
import type { WebhookEvent } from '../../webhooks/event-repository.ts';
import type { WebhookService } from '../../webhooks/webhook-service.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const readStory = adminContract['GET /admin/clients/:id/transfers/:transferId/story'];

export interface ClientTransferStoryRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly transferService: Pick<TransferService, 'story'>;
  readonly webhookService: Pick<WebhookService, 'eventsAbout'>;
}

/**
 * GET /admin/clients/:id/transfers/:transferId/story: one transfer of the client with what is
 * stored about it: its ledger entries, what the NIP network answered, its webhook events.
 * Another client's transfer answers as an unknown one.
 */
export const clientTransferStoryRoute: FastifyPluginAsyncTypebox<
  ClientTransferStoryRouteOptions
> = async (app, { clientService, transferService, webhookService }) => {
  app.get(
    '/admin/clients/:id/transfers/:transferId/story',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's transfer with its ledger entries, NIP answers and webhook events",
        params: readStory.params,
        response: { 200: readStory.answer, ...errors },
      },
    },
    async (request) => {
      const client = await clientService.getClient(request.params.id);
      const story = await transferService.story(client.id, request.params.transferId);
      const events = await webhookService.eventsAbout(client.id, {
        resourceId: story.transfer.id,
        ...storyWindow(story.transfer),
      });
      return ok('Transfer story fetched successfully.', transferStoryView(story, events));
    },
  );
};

function transferStoryView(story: TransferStory, events: readonly WebhookEvent[]) {
  const { nip } = story;
  return {
    transfer: transferView(story.transfer),
    ledgerEntries: story.ledgerEntries.map((entry) => {
      const credit = entry.amountKobo > 0n;
      return {
        journalId: entry.journalId,
        journalKind: entry.journalKind,
        accountId: entry.accountId,
        accountNumber: entry.accountNumber,
        accountName: entry.accountName,
        isGlAccount: entry.accountKind === 'internal',
        type: credit ? ('Credit' as const) : ('Debit' as const),
        amount: koboToNaira(credit ? entry.amountKobo : -entry.amountKobo),
        balanceAfter: koboToNaira(entry.balanceAfterKobo),
        narration: entry.narration,
        createdAt: entry.createdAt.toISOString(),
      };
    }),
    nip:
      nip === null
        ? null
        : {
            sessionId: nip.sessionId,
            responseCode: nip.responseCode,
            responseMessage: nip.responseMessage,
            statusQueries: nip.statusQueries,
            nextStatusQueryAt: nip.nextStatusQueryAt?.toISOString() ?? null,
          },
    webhookEvents: events.map((event) => ({
      _id: event.id,
      type: event.type,
      status: event.status,
      attempts: event.attempts,
      lastError: event.lastError,
      createdAt: event.createdAt.toISOString(),
      deliveredAt: event.deliveredAt?.toISOString() ?? null,
    })),
  };
}

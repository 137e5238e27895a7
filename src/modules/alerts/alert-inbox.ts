import type { Db } from '../../db/db.ts';
import { recordNotFound } from '../../errors/app-error.ts';
import type { AlertChannel, AlertMessage } from './alert-message.ts';
import { findMessage, listMessages } from './alert-repository.ts';

/**
 * The sandbox's message inbox (GET /admin/sandbox/messages): every email and SMS the alerts
 * made, as rendered, with where it went and how its sending ended. None in production.
 */
export function createAlertInbox(deps: { readonly db: Db }) {
  return {
    list(filter: {
      accountNumber?: string | undefined;
      channel?: AlertChannel | undefined;
      page: number;
      limit: number;
    }) {
      return listMessages(deps.db, {
        accountNumber: filter.accountNumber,
        channel: filter.channel,
        offset: filter.page * filter.limit,
        limit: filter.limit,
      });
    },
    async get(id: string): Promise<AlertMessage> {
      const message = await findMessage(deps.db, id);
      if (message === undefined) {
        throw recordNotFound();
      }
      return message;
    },
  };
}

export type AlertInbox = ReturnType<typeof createAlertInbox>;

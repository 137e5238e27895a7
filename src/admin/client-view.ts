import type { Static } from 'typebox';
import { type Account, accountView } from '../modules/accounts/index.ts';
import type { ClientRecord } from '../modules/clients/index.ts';
import type { ClientSchema } from './contract/index.ts';

/** A client as the admin API shows it: with its main account in the published account view. */
export function clientView(
  result: { client: ClientRecord; mainAccount: Account },
  institutionCode: string,
): Static<typeof ClientSchema> {
  return {
    _id: result.client.id,
    name: result.client.name,
    emailAddress: result.client.emailAddress,
    mainAccount: accountView(result.mainAccount, institutionCode),
    createdAt: result.client.createdAt.toISOString(),
  };
}

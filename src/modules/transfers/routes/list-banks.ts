import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { AUTHENTICATED_ERROR_RESPONSES, envelopeSchema } from '../../../http/common-schemas.ts';
import { ok } from '../../../http/envelope.ts';
import {
  type Bank,
  type BankCategory,
  listBanks,
  ownInstitutionName,
} from '../name-enquiry/bank-directory.ts';

const NipCode = Type.String({ pattern: '^\\d{6}$', examples: ['000013'] });

/**
 * One institution, in the shape Safe Haven's own bank list has in the copies its integrators keep
 * (the published docs show no fields). `bankCode` is the NIP code that name enquiry and
 * transfers take as `bankCode` / `beneficiaryBankCode`.
 */
export const BankSchema = Type.Object({
  name: Type.String({ examples: ['Guaranty Trust Bank'] }),
  alias: Type.Array(Type.String(), {
    description: 'Names the institution goes by: `name` first, then its short name if any.',
    examples: [['Guaranty Trust Bank', 'GTBank']],
  }),
  routingKey: Type.String({ ...NipCode, description: 'Same as `bankCode`.' }),
  logoImage: Type.Union([Type.String(), Type.Null()], { description: 'Always null here.' }),
  bankCode: Type.String({ ...NipCode, description: 'The 6-digit NIBSS NIP institution code.' }),
  categoryId: Type.String({
    description:
      'NIBSS institution category: 2 commercial and non-interest, 6 merchant, 7 mortgage, ' +
      '9 microfinance, 10 mobile money operator, 12 payment service bank.',
    examples: ['2'],
  }),
  nubanCode: Type.Union([Type.String(), Type.Null()], { description: 'Always null here.' }),
});
export type BankView = Static<typeof BankSchema>;

const NIBSS_CATEGORY: Record<BankCategory, string> = {
  commercial: '2',
  'non-interest': '2',
  merchant: '6',
  other: '7',
  microfinance: '9',
  'mobile-money': '10',
};

/** NIBSS numbers payment service banks 12xxxx and files them apart from mobile money operators. */
function categoryId(bank: Bank): string {
  return bank.category === 'mobile-money' && bank.bankCode.startsWith('12')
    ? '12'
    : NIBSS_CATEGORY[bank.category];
}

export function bankView(bank: Bank): BankView {
  return {
    name: bank.name,
    alias: bank.shortName === undefined ? [bank.name] : [bank.name, bank.shortName],
    routingKey: bank.bankCode,
    logoImage: null,
    bankCode: bank.bankCode,
    categoryId: categoryId(bank),
    nubanCode: null,
  };
}

export interface ListBanksRouteOptions {
  readonly institutionCode: string;
  /** Our own entry's name; by default "Safe Haven Sandbox Bank" for 999240. */
  readonly institutionName?: string;
}

export const listBanksRoute: FastifyPluginAsyncTypebox<ListBanksRouteOptions> = async (
  app,
  { institutionCode, institutionName },
) => {
  // The directory is fixed for the life of the process: build the answer once, at start-up,
  // where a clash between our name and a listed bank's fails the boot instead of a request.
  const banks = listBanks(institutionCode, institutionName ?? ownInstitutionName(institutionCode));
  const data = banks.map(bankView);
  app.get(
    '/transfers/banks',
    {
      schema: {
        tags: ['Transfers'],
        summary: 'List the banks you can transfer to',
        description:
          'Every institution that takes NIP transfers, ours included, sorted by name. One ' +
          'envelope with the whole list: not paginated, so there is no `pagination` field.',
        response: {
          200: envelopeSchema(Type.Array(BankSchema)),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async () => ok('Banks fetched successfully.', data),
  );
};

import { type Static, Type } from 'typebox';

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

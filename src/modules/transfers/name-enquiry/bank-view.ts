import type { Bank, BankCategory } from './bank-directory.ts';
import type { BankView } from './bank-schemas.ts';

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

/**
 * The institutions a transfer can be sent to, keyed by their 6-digit NIBSS NIP institution code
 * (the code NIP messages and NUBAN check digits use, not the older 3-digit CBN sort code).
 *
 * Where the codes come from. NIBSS does not publish its participant list openly, so every entry
 * below was cross-checked in at least two independent public copies of it:
 * - a March 2021 NIBSS `FinancialInstitutionListRequest` answer (316 records, with NIBSS
 *   category numbers) kept in github.com/crypticwisdom/up-exchange-platform,
 *   dashboard-backend/core/modules/nip_list.py;
 * - a later NIP list with the 2021–2023 licensees (Lotus, Parallex, PremiumTrust, Signature,
 *   Optimus, the payment service banks, Moniepoint, FairMoney) in
 *   github.com/clinton-lynx/MansaPay_FE, src/utils/bank.js;
 * - copies of Safe Haven's own bank list (items `name`, `alias`, `routingKey`, `logoImage`,
 *   `bankCode`, `categoryId`, `nubanCode`, with NIBSS category ids) that integrators keep in their
 *   code, e.g. the type in github.com/KizitoNaanma/MS_VAS, src/common/types/payment/index.ts;
 * - Paystack-derived and app bank lists found by code search, for the newer codes only.
 * Codes seen in one source only, or with conflicting values (e.g. The Alternative Bank, Money
 * Master PSB), are left out until someone confirms them.
 *
 * Left out on purpose: Heritage Bank (000020; its licence was revoked in June 2024 and the bank is
 * in liquidation, so a credit to it cannot complete), Enterprise Bank (000019; absorbed by
 * Heritage in 2018), the Central Bank (000028) and NIBSS's own test institution (999999), which
 * are not customer destinations, and the switches and payment-solution providers (110xxx) that
 * NIBSS told banks in December 2023 to stop offering as transfer beneficiaries.
 *
 * The list is a snapshot: docs/banks.md says how to add or retire an institution.
 */

export type BankCategory =
  | 'commercial'
  | 'microfinance'
  | 'mobile-money'
  | 'merchant'
  | 'non-interest'
  | 'other';

export interface Bank {
  readonly name: string;
  /** The 6-digit NIBSS NIP institution code. */
  readonly bankCode: string;
  /** The name people use day to day, when it differs from the registered one. */
  readonly shortName?: string;
  /** `mobile-money` also holds the payment service banks; `other` is the mortgage banks. */
  readonly category: BankCategory;
}

export const SANDBOX_INSTITUTION_CODE = '999240';
export const SANDBOX_INSTITUTION_NAME = 'Safe Haven Sandbox Bank';

const NIP_CODE = /^\d{6}$/;

function bank(bankCode: string, name: string, category: BankCategory, shortName?: string): Bank {
  return shortName === undefined
    ? { name, bankCode, category }
    : { name, bankCode, category, shortName };
}

const DIRECTORY: readonly Bank[] = [
  // Commercial banks.
  bank('000014', 'Access Bank', 'commercial'),
  // Diamond Bank merged into Access in 2019; its old account numbers still route on this code.
  bank('000005', 'Access Bank (Diamond)', 'commercial'),
  bank('000009', 'Citibank Nigeria', 'commercial', 'Citibank'),
  bank('000010', 'Ecobank Nigeria', 'commercial', 'Ecobank'),
  bank('000007', 'Fidelity Bank', 'commercial'),
  bank('000016', 'First Bank of Nigeria', 'commercial', 'First Bank'),
  bank('000003', 'First City Monument Bank', 'commercial', 'FCMB'),
  bank('000027', 'Globus Bank', 'commercial'),
  bank('000013', 'Guaranty Trust Bank', 'commercial', 'GTBank'),
  bank('000002', 'Keystone Bank', 'commercial'),
  bank('000036', 'Optimus Bank', 'commercial'),
  bank('000030', 'Parallex Bank', 'commercial'),
  bank('000008', 'Polaris Bank', 'commercial'),
  bank('000031', 'PremiumTrust Bank', 'commercial'),
  bank('000023', 'Providus Bank', 'commercial'),
  bank('000034', 'Signature Bank', 'commercial'),
  bank('000012', 'Stanbic IBTC Bank', 'commercial', 'Stanbic IBTC'),
  bank('000021', 'Standard Chartered Bank', 'commercial', 'Standard Chartered'),
  bank('000001', 'Sterling Bank', 'commercial'),
  bank('000022', 'SunTrust Bank', 'commercial'),
  bank('000025', 'Titan Trust Bank', 'commercial'),
  bank('000018', 'Union Bank of Nigeria', 'commercial', 'Union Bank'),
  bank('000004', 'United Bank for Africa', 'commercial', 'UBA'),
  bank('000011', 'Unity Bank', 'commercial'),
  bank('000017', 'Wema Bank', 'commercial'),
  bank('000015', 'Zenith Bank', 'commercial'),

  // Non-interest (Islamic) banks.
  bank('000006', 'Jaiz Bank', 'non-interest'),
  bank('000029', 'Lotus Bank', 'non-interest'),
  bank('000026', 'TAJBank', 'non-interest'),

  // Merchant banks.
  bank('060001', 'Coronation Merchant Bank', 'merchant'),
  bank('060002', 'FBNQuest Merchant Bank', 'merchant'),
  bank('400001', 'FSDH Merchant Bank', 'merchant'),
  bank('060004', 'Greenwich Merchant Bank', 'merchant'),
  bank('060003', 'Nova Merchant Bank', 'merchant'),
  bank('000024', 'Rand Merchant Bank', 'merchant'),

  // Microfinance banks: the digital banks most transfers go to, then large long-standing ones.
  bank('090270', 'AB Microfinance Bank', 'microfinance'),
  bank('090134', 'Accion Microfinance Bank', 'microfinance'),
  bank('090160', 'Addosser Microfinance Bank', 'microfinance'),
  bank('090155', 'Advans La Fayette Microfinance Bank', 'microfinance'),
  bank('090117', 'Boctrust Microfinance Bank', 'microfinance'),
  bank('100026', 'Carbon', 'microfinance'),
  bank('090328', 'Eyowo Microfinance Bank', 'microfinance', 'Eyowo'),
  bank('090551', 'FairMoney Microfinance Bank', 'microfinance', 'FairMoney'),
  bank('090111', 'FinaTrust Microfinance Bank', 'microfinance'),
  bank('090400', 'Finca Microfinance Bank', 'microfinance'),
  bank('070002', 'Fortis Microfinance Bank', 'microfinance'),
  bank('090121', 'Hasal Microfinance Bank', 'microfinance'),
  bank('090157', 'Infinity Microfinance Bank', 'microfinance'),
  bank('090267', 'Kuda Microfinance Bank', 'microfinance', 'Kuda'),
  bank('090177', 'LAPO Microfinance Bank', 'microfinance'),
  bank('090420', 'Letshego Microfinance Bank', 'microfinance'),
  bank('090281', 'Mint-Finex Microfinance Bank', 'microfinance', 'Mint'),
  // Moniepoint took over Rolez MFB's licence, and with it this code.
  bank('090405', 'Moniepoint Microfinance Bank', 'microfinance', 'Moniepoint'),
  bank('090194', 'NIRSAL Microfinance Bank', 'microfinance'),
  bank('070001', 'NPF Microfinance Bank', 'microfinance'),
  bank('090198', 'Renmoney Microfinance Bank', 'microfinance', 'Renmoney'),
  bank('090175', 'Rubies Microfinance Bank', 'microfinance', 'Rubies'),
  bank('090286', 'Safe Haven Microfinance Bank', 'microfinance', 'Safe Haven MFB'),
  bank('090112', 'Seed Capital Microfinance Bank', 'microfinance'),
  bank('090325', 'Sparkle Microfinance Bank', 'microfinance', 'Sparkle'),
  bank('090110', 'VFD Microfinance Bank', 'microfinance', 'VFD'),

  // Mobile money operators and payment service banks.
  bank('120001', '9 Payment Service Bank', 'mobile-money', '9PSB'),
  bank('120002', 'Hope Payment Service Bank', 'mobile-money', 'HopePSB'),
  bank('120003', 'MoMo Payment Service Bank', 'mobile-money', 'MoMo PSB'),
  // NIBSS's 2021 list names 100004 after Paycom, the licensed company OPay operates through.
  bank('100004', 'OPay Digital Services', 'mobile-money', 'OPay'),
  bank('100002', 'Paga', 'mobile-money'),
  bank('100033', 'PalmPay', 'mobile-money'),
  bank('120004', 'SmartCash Payment Service Bank', 'mobile-money', 'SmartCash PSB'),

  // Primary mortgage banks.
  bank('070010', 'Abbey Mortgage Bank', 'other'),
  bank('100028', 'AG Mortgage Bank', 'other'),
  bank('070009', 'Gateway Mortgage Bank', 'other'),
  bank('070016', 'Infinity Trust Mortgage Bank', 'other'),
  bank('070013', 'Platinum Mortgage Bank', 'other'),
];

const BY_CODE = new Map(DIRECTORY.map((entry) => [entry.bankCode, entry]));

/** Names and codes are the keys clients match on, so each must appear once. */
function assertWellFormed(banks: readonly Bank[]): void {
  const codes = new Set<string>();
  const names = new Set<string>();
  for (const entry of banks) {
    if (!NIP_CODE.test(entry.bankCode) || codes.has(entry.bankCode)) {
      throw new Error(`bank directory: bad or repeated code ${entry.bankCode}`);
    }
    if (names.has(entry.name)) {
      throw new Error(`bank directory: repeated name ${entry.name}`);
    }
    codes.add(entry.bankCode);
    names.add(entry.name);
  }
}
assertWellFormed(DIRECTORY);

/** Case-insensitive, locale-independent, so the order never depends on the host's ICU data. */
export function compareBankNames(a: string, b: string): number {
  const left = a.toUpperCase();
  const right = b.toUpperCase();
  if (left === right) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return left < right ? -1 : 1;
}

/** What we call ourselves when the operator has not named the institution. */
export function ownInstitutionName(ownInstitutionCode: string): string {
  if (ownInstitutionCode === SANDBOX_INSTITUTION_CODE) {
    return SANDBOX_INSTITUTION_NAME;
  }
  return BY_CODE.get(ownInstitutionCode)?.name ?? 'OpenIBS Bank';
}

function ownBank(ownInstitutionCode: string, ownName: string): Bank {
  const listed = BY_CODE.get(ownInstitutionCode);
  return listed === undefined
    ? { name: ownName, bankCode: ownInstitutionCode, category: 'microfinance' }
    : { ...listed, name: ownName };
}

/**
 * Every institution a client can send to, ours included (intra-bank transfers use our code),
 * sorted by name. Our own entry replaces a directory entry with the same code, so a production
 * deployment configured as 090286 lists itself once, under its configured name.
 */
export function listBanks(ownInstitutionCode: string, ownName: string): Bank[] {
  const banks = DIRECTORY.filter((entry) => entry.bankCode !== ownInstitutionCode);
  banks.push(ownBank(ownInstitutionCode, ownName));
  assertWellFormed(banks);
  return banks.sort((a, b) => compareBankNames(a.name, b.name));
}

/** The institution with that NIP code, ours included; undefined for a code nobody holds. */
export function findBank(
  code: string,
  ownInstitutionCode: string,
  ownName: string = ownInstitutionName(ownInstitutionCode),
): Bank | undefined {
  if (code === ownInstitutionCode) {
    return ownBank(ownInstitutionCode, ownName);
  }
  return BY_CODE.get(code);
}

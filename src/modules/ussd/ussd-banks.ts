/**
 * The banks whose customers can pay a USSD reference: each bank's USSD code (what a customer
 * dials, `*737#` for GTBank) and its NIBSS NIP institution code (the same code the transfers
 * bank list uses, so a payment's payer bank reads the same everywhere).
 *
 * Where the codes come from: a bank's short code is printed by the bank itself, but no single
 * official list exists, so every code below was found with the same value in at least two
 * independent public copies: a June 2026 directory of Nigerian bank USSD codes
 * (momocalc.com/codes/ussd/nigeria), a 2021 list of the banks' USSD deactivation codes, which
 * start with the same short code (businesspost.ng, "USSD Deactivation Codes of Major Banks in
 * Nigeria"), and the bank-code maps of open-source USSD merchant-payment apps found by code
 * search. A code seen in one copy only is left out: Globus Bank (*989#); so is Heritage Bank
 * (licence revoked in 2024). Where copies disagree, the value two of them agree on is kept:
 * Keystone is *7111# in two, while one older app map still has *777#. docs/ussd.md keeps the
 * table and says how to change it.
 */
export interface UssdBank {
  /** The name the transfers bank list uses for the same NIP code. */
  readonly bankName: string;
  /** The digits of the bank's short code, as a reference names its bank: `737`. */
  readonly ussdBankCode: string;
  /** The 6-digit NIBSS NIP institution code. */
  readonly bankCode: string;
}

const bank = (bankName: string, ussdBankCode: string, bankCode: string): UssdBank =>
  Object.freeze({ bankName, ussdBankCode, bankCode });

/** Sorted by name, as the list answers. */
export const USSD_BANKS: readonly UssdBank[] = Object.freeze([
  bank('Access Bank', '901', '000014'),
  bank('Ecobank Nigeria', '326', '000010'),
  bank('Fidelity Bank', '770', '000007'),
  bank('First Bank of Nigeria', '894', '000016'),
  bank('First City Monument Bank', '329', '000003'),
  bank('Guaranty Trust Bank', '737', '000013'),
  bank('Keystone Bank', '7111', '000002'),
  bank('Polaris Bank', '833', '000008'),
  bank('Stanbic IBTC Bank', '909', '000012'),
  bank('Sterling Bank', '822', '000001'),
  bank('Union Bank of Nigeria', '826', '000018'),
  bank('United Bank for Africa', '919', '000004'),
  bank('Unity Bank', '7799', '000011'),
  bank('Wema Bank', '945', '000017'),
  bank('Zenith Bank', '966', '000015'),
]);

const BY_USSD_CODE = new Map(USSD_BANKS.map((entry) => [entry.ussdBankCode, entry]));

/** The bank with this USSD code (`737`, or written as dialled, `*737#`). */
export function findUssdBank(code: string): UssdBank | undefined {
  return BY_USSD_CODE.get(code.replace(/^\*|#$/g, ''));
}

/** The bank's short code as a customer dials it: `*737#`. */
export function shortCode(bank: UssdBank): string {
  return `*${bank.ussdBankCode}#`;
}

/**
 * What a customer of this bank dials to pay a reference: the merchant-payment form every listed
 * bank takes, `*737*000*REFERENCE#`.
 */
export function dialString(bank: UssdBank, reference: string): string {
  return `*${bank.ussdBankCode}*000*${reference}#`;
}

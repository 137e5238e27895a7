import { koboToNaira } from '../../shared/money.ts';
import type { Transfer } from '../transfers/index.ts';
import { dialString, findUssdBank, shortCode, type UssdBank } from './ussd-banks.ts';
import { statusAt, type UssdReference } from './ussd-reference.ts';

/** A bank in `GET /ussd-payment/banks`. */
export function ussdBankView(bank: UssdBank) {
  return {
    bankName: bank.bankName,
    ussdBankCode: bank.ussdBankCode,
    ussdCode: shortCode(bank),
    bankCode: bank.bankCode,
  };
}

/**
 * The reference object on the wire (docs/ussd.md lists every field). `payment` is the accepted
 * payment, with the charges taken from it, read from the settlement account's Inwards transfer.
 */
export function ussdReferenceView(
  reference: UssdReference,
  context: { readonly institutionCode: string; readonly now: Date },
  paidBy?: Transfer,
) {
  const bank = findUssdBank(reference.ussdBankCode);
  return {
    _id: reference.id,
    reference: reference.reference,
    ussdString: bank === undefined ? null : dialString(bank, reference.reference),
    ussdBankCode: reference.ussdBankCode,
    bankName: bank?.bankName ?? null,
    merchantName: reference.merchantName,
    amount: koboToNaira(reference.amountKobo),
    currencyCode: 'NGN',
    status: statusAt(reference, context.now),
    expiresAt: reference.expiresAt.toISOString(),
    callbackUrl: reference.callbackUrl,
    settlementAccount: {
      bankCode: context.institutionCode,
      accountNumber: reference.settlementAccountNumber,
    },
    payment:
      reference.payment === null || paidBy === undefined
        ? null
        : {
            sessionId: reference.payment.sessionId,
            amount: koboToNaira(reference.payment.amountKobo),
            fees: koboToNaira(paidBy.feeKobo),
            vat: koboToNaira(paidBy.vatKobo),
            stampDuty: koboToNaira(paidBy.stampDutyKobo),
            ussdBankCode: reference.payment.ussdBankCode,
            bankName: findUssdBank(reference.payment.ussdBankCode)?.bankName ?? null,
            bankCode: paidBy.debit.bankCode,
            payerAccountName: paidBy.debit.accountName,
            payerAccountNumber: paidBy.debit.accountNumber,
            transferId: paidBy.id,
            paidAt: reference.payment.paidAt.toISOString(),
          },
    createdAt: reference.createdAt.toISOString(),
    updatedAt: reference.updatedAt.toISOString(),
  };
}

import { koboToNaira } from '../../shared/money.ts';
import type { Transfer } from './transfer.ts';

/**
 * The transfer object as the published API and its `transfer` webhook show it, field for field.
 * One function serves the API and webhooks, so the two cannot drift.
 */
export function transferView(transfer: Transfer) {
  return {
    _id: transfer.id,
    client: transfer.clientId,
    account: transfer.accountId,
    type: transfer.type,
    sessionId: transfer.sessionId,
    nameEnquiryReference: transfer.nameEnquiryReference,
    paymentReference: transfer.paymentReference,
    mandateReference: null,
    isReversed: transfer.isReversed,
    reversalReference: transfer.reversalReference,
    provider: transfer.provider,
    providerChannel: transfer.providerChannel,
    providerChannelCode: transfer.providerChannelCode,
    destinationInstitutionCode: transfer.destinationInstitutionCode,
    creditAccountName: transfer.credit.accountName,
    creditAccountNumber: transfer.credit.accountNumber,
    creditBankVerificationNumber: null,
    creditKYCLevel: transfer.credit.kycLevel,
    debitAccountName: transfer.debit.accountName,
    debitAccountNumber: transfer.debit.accountNumber,
    debitBankVerificationNumber: null,
    debitKYCLevel: transfer.debit.kycLevel,
    transactionLocation: transfer.transactionLocation,
    narration: transfer.narration,
    amount: koboToNaira(transfer.amountKobo),
    fees: koboToNaira(transfer.feeKobo),
    vat: koboToNaira(transfer.vatKobo),
    stampDuty: koboToNaira(transfer.stampDutyKobo),
    responseCode: transfer.responseCode,
    responseMessage: transfer.responseMessage,
    status: transfer.status,
    isDeleted: false,
    createdAt: transfer.createdAt.toISOString(),
    updatedAt: transfer.updatedAt.toISOString(),
    __v: 0,
    ...(transfer.approvedAt === null ? {} : { approvedAt: transfer.approvedAt.toISOString() }),
    ...(transfer.declinedAt === null ? {} : { declinedAt: transfer.declinedAt.toISOString() }),
  };
}

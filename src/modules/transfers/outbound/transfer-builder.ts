import type { Clock } from '../../../shared/clock.ts';
import { newObjectId } from '../../../shared/ids.ts';
import type { Kobo } from '../../../shared/money.ts';
import type { Account } from '../../accounts/account.ts';
import type { TransferCharges } from '../fee-schedule.ts';
import type { NameEnquiry } from '../name-enquiry/name-enquiry-repository.ts';
import { NIP_APPROVED, type Transfer } from '../transfer.ts';

export interface OutwardInput {
  readonly id: string;
  readonly sessionId: string;
  readonly paymentReference: string;
  readonly debitAccount: Account;
  readonly enquiry: NameEnquiry;
  readonly amountKobo: Kobo;
  readonly charges: TransferCharges;
  readonly narration: string;
  readonly intraBank: boolean;
  readonly institutionCode: string;
}

/** Intra-bank transfers are BANK/TRANSFER/IBS and complete at once; NIP ones start Processing. */
export function buildOutward(input: OutwardInput, clock: Clock): Transfer {
  const now = clock.now();
  const channel = input.intraBank
    ? { provider: 'BANK', providerChannel: 'TRANSFER', providerChannelCode: 'IBS' }
    : { provider: 'NIBSS', providerChannel: 'NIP', providerChannelCode: '3' };
  return {
    id: input.id,
    clientId: input.debitAccount.clientId,
    accountId: input.debitAccount.id,
    type: 'Outwards',
    sessionId: input.sessionId,
    nameEnquiryReference: input.enquiry.sessionId,
    paymentReference: input.paymentReference,
    ...channel,
    destinationInstitutionCode: input.enquiry.bankCode,
    credit: {
      accountName: input.enquiry.accountName,
      accountNumber: input.enquiry.accountNumber,
      bankCode: input.enquiry.bankCode,
      kycLevel: input.enquiry.kycLevel,
    },
    debit: {
      accountName: input.debitAccount.accountName,
      accountNumber: input.debitAccount.accountNumber,
      bankCode: input.institutionCode,
      kycLevel: input.debitAccount.kycLevel,
    },
    transactionLocation: '',
    narration: input.narration,
    amountKobo: input.amountKobo,
    feeKobo: input.charges.feeKobo,
    vatKobo: input.charges.vatKobo,
    stampDutyKobo: 0n,
    responseCode: input.intraBank ? NIP_APPROVED.code : null,
    responseMessage: input.intraBank ? NIP_APPROVED.message : 'Transfer is being processed',
    status: input.intraBank ? 'Completed' : 'Processing',
    isReversed: false,
    reversalReference: null,
    createdAt: now,
    updatedAt: now,
    approvedAt: input.intraBank ? now : null,
    declinedAt: null,
  };
}

/** The recipient's side of an intra-bank transfer: same session, their account, Inwards. */
export function buildInwardTwin(outward: Transfer, beneficiary: Account, clock: Clock): Transfer {
  return {
    ...outward,
    id: newObjectId(clock),
    clientId: beneficiary.clientId,
    accountId: beneficiary.id,
    type: 'Inwards',
    feeKobo: 0n,
    vatKobo: 0n,
  };
}

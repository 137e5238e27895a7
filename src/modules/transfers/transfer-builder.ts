import type { Charges } from '../../ledger/charges.ts';
import type { Clock } from '../../shared/clock.ts';
import { newObjectId } from '../../shared/ids.ts';
import type { Kobo } from '../../shared/money.ts';
import type { Account } from '../accounts/index.ts';
import { NIP_APPROVED, type Party, type Transfer } from './transfer.ts';
import { initialStatus } from './transfer-state.ts';

export interface OutwardInput {
  readonly id: string;
  readonly sessionId: string;
  readonly paymentReference: string;
  /** The name enquiry the client quoted (an auto-sweep quotes its own session id). */
  readonly nameEnquiryReference: string;
  readonly debitAccount: Account;
  /** Who receives it, as name enquiry or our own accounts know them. */
  readonly counterparty: Party;
  readonly amountKobo: Kobo;
  readonly charges: Charges;
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
    nameEnquiryReference: input.nameEnquiryReference,
    paymentReference: input.paymentReference,
    ...channel,
    destinationInstitutionCode: input.counterparty.bankCode,
    credit: input.counterparty,
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
    status: initialStatus(input.intraBank ? 'intraBank' : 'nip'),
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

import type { Kobo } from '../../shared/money.ts';

export type TransferDirection = 'Inwards' | 'Outwards';
export type TransferStatus = 'Created' | 'Processing' | 'Completed' | 'Failed' | 'Reversed';

export interface Party {
  readonly accountName: string;
  readonly accountNumber: string;
  readonly bankCode: string;
  readonly kycLevel: string | null;
}

export interface Transfer {
  readonly id: string;
  readonly clientId: string;
  readonly accountId: string;
  readonly type: TransferDirection;
  readonly sessionId: string;
  readonly nameEnquiryReference: string | null;
  readonly paymentReference: string;
  readonly provider: string;
  readonly providerChannel: string;
  readonly providerChannelCode: string;
  readonly destinationInstitutionCode: string;
  readonly credit: Party;
  readonly debit: Party;
  readonly transactionLocation: string;
  readonly narration: string;
  readonly amountKobo: Kobo;
  readonly feeKobo: Kobo;
  readonly vatKobo: Kobo;
  readonly stampDutyKobo: Kobo;
  readonly responseCode: string | null;
  readonly responseMessage: string | null;
  readonly status: TransferStatus;
  readonly isReversed: boolean;
  readonly reversalReference: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly approvedAt: Date | null;
  readonly declinedAt: Date | null;
}

export const NIP_APPROVED = { code: '00', message: 'Approved or completed successfully' } as const;

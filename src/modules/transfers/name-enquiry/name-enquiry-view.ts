import { NIP_APPROVED } from '../transfer.ts';
import type { NameEnquiry } from './name-enquiry-repository.ts';

export function nameEnquiryView(enquiry: NameEnquiry & { bankName: string }) {
  return {
    sessionId: enquiry.sessionId,
    bankCode: enquiry.bankCode,
    bankName: enquiry.bankName,
    accountNumber: enquiry.accountNumber,
    accountName: enquiry.accountName,
    kycLevel: enquiry.kycLevel,
    responseCode: NIP_APPROVED.code,
    responseMessage: NIP_APPROVED.message,
    expiresAt: enquiry.expiresAt.toISOString(),
  };
}

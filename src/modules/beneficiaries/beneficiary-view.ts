import type { Beneficiary } from './beneficiary-repository.ts';

export function beneficiaryView(beneficiary: Beneficiary) {
  return {
    _id: beneficiary.id,
    client: beneficiary.clientId,
    bankCode: beneficiary.bankCode,
    bankName: beneficiary.bankName,
    accountNumber: beneficiary.accountNumber,
    accountName: beneficiary.accountName,
    createdAt: beneficiary.createdAt.toISOString(),
    updatedAt: beneficiary.updatedAt.toISOString(),
  };
}

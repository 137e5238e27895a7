/** Internal (GL) ledger accounts, created by the baseline migration. */
export const GL_ACCOUNTS = {
  nipSettlement: 'gl.nip_settlement',
  feeIncome: 'gl.fee_income',
  vatPayable: 'gl.vat_payable',
  stampDutyPayable: 'gl.stamp_duty_payable',
  sandboxExternalFloat: 'gl.sandbox_external_float',
  /** VAS purchases owed to the biller, and its commission. */
  vasBillerSettlement: 'gl.vas_biller_settlement',
  vasCommissionReceivable: 'gl.vas_commission_receivable',
} as const;

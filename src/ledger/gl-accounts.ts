/** Internal (GL) ledger accounts, created by migration 0002. */
export const GL_ACCOUNTS = {
  nipSettlement: 'gl.nip_settlement',
  feeIncome: 'gl.fee_income',
  vatPayable: 'gl.vat_payable',
  stampDutyPayable: 'gl.stamp_duty_payable',
  sandboxExternalFloat: 'gl.sandbox_external_float',
} as const;

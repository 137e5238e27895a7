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
  /** What customers owe the bank under liens (docs/ledger.md, "Liens"; runs negative). */
  lienReceivable: 'gl.lien_receivable',
  /** Liens an operator released: what the bank gave up (runs negative). */
  lienWriteOff: 'gl.lien_write_off',
} as const;

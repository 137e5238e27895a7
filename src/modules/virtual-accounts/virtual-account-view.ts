import type { Envelope } from '../../http/envelope.ts';
import { koboToNaira } from '../../shared/money.ts';
import { type Transfer, transferView } from '../transfers/index.ts';
import {
  statusAt,
  type VirtualAccount,
  type VirtualAccountWithPayments,
} from './virtual-account.ts';

export interface VirtualAccountViewContext {
  readonly institutionCode: string;
  readonly bankName: string;
  /** Decides Expired: an Active account read after its expiry. */
  readonly now: Date;
}

/** The virtual account object on the wire (docs/virtual-accounts.md lists every field). */
export function virtualAccountView(account: VirtualAccount, context: VirtualAccountViewContext) {
  return {
    _id: account.id,
    client: account.clientId,
    accountNumber: account.accountNumber,
    accountName: account.accountName,
    bankCode: context.institutionCode,
    bank: { name: context.bankName, nipCode: context.institutionCode },
    currencyCode: 'NGN',
    validFor: account.validForSeconds,
    amountControl: account.amountControl,
    amount: koboToNaira(account.amountKobo),
    amountPaid: koboToNaira(account.paidKobo),
    expiryDate: account.expiresAt.toISOString(),
    callbackUrl: account.callbackUrl,
    settlementAccount: {
      bankCode: context.institutionCode,
      accountNumber: account.settlementAccountNumber,
    },
    externalReference: account.externalReference,
    status: statusAt(account, context.now),
    isDeleted: account.status === 'Deleted',
    createdAt: account.createdAt.toISOString(),
    updatedAt: account.updatedAt.toISOString(),
    __v: 0,
  };
}

type VirtualAccountView = ReturnType<typeof virtualAccountView>;

/** The envelope of GET /virtual-accounts/:id: the account's name, number and bank also at the top. */
export interface VirtualAccountEnvelope extends Envelope<VirtualAccountView> {
  accountName: string;
  accountNumber: string;
  bank: VirtualAccountView['bank'];
}

/**
 * GET /virtual-accounts/:id repeats `accountName`, `accountNumber` and `bank` beside `data`, as
 * NIBSS answers repeat `responseCode`: a production client reads them from the top level of this
 * one answer (docs/virtual-accounts.md).
 */
export function okVirtualAccount(
  message: string,
  view: VirtualAccountView,
): VirtualAccountEnvelope {
  return {
    statusCode: 200,
    message,
    accountName: view.accountName,
    accountNumber: view.accountNumber,
    bank: view.bank,
    data: view,
  };
}

/**
 * A payment into a virtual account as the published `virtualAccount.transfer` object: the
 * transfer object with `virtualAccount` in place of `account`, and the account's
 * externalReference. One function serves the webhook, the status call and the history.
 */
export function virtualAccountTransferView(payment: Transfer, account: VirtualAccount) {
  const {
    _id,
    client,
    account: _settlement,
    type: _type,
    mandateReference: _none,
    ...transfer
  } = transferView(payment);
  return {
    _id,
    client,
    virtualAccount: account.id,
    ...transfer,
    externalReference: account.externalReference,
  };
}

/**
 * The operator's view (GET /admin/clients/:id/virtual-accounts): the virtual account object
 * with every payment it received as a `virtualAccount.transfer` object, oldest first.
 */
export function virtualAccountWithPaymentsView(
  { account, payments }: VirtualAccountWithPayments,
  context: VirtualAccountViewContext,
) {
  return {
    ...virtualAccountView(account, context),
    payments: payments.map((payment) => virtualAccountTransferView(payment, account)),
  };
}

import { koboToNaira } from '../../shared/money.ts';
import type { Category, Product, Service } from './catalogue.ts';
import type { CardCustomer, MeterCustomer } from './providers/biller.ts';
import type { Purchase } from './vas-purchase.ts';

/** The catalogue objects as published (ibs-api-reference §4.4): `_id`, ISO times, `__v`. */
export function serviceView(service: Service) {
  return {
    _id: service.id,
    name: service.name,
    identifier: service.identifier,
    description: service.description,
    createdAt: service.createdAt.toISOString(),
    updatedAt: service.updatedAt.toISOString(),
    __v: 0,
  };
}

export function categoryView(category: Category) {
  return {
    _id: category.id,
    name: category.name,
    identifier: category.identifier,
    service: category.serviceId,
    vendor: category.vendor,
    isFixedAmount: category.isFixedAmount,
    description: category.description,
    logoUrl: category.logoUrl,
    providerCommission: category.providerCommission,
    minAmount: koboToNaira(category.minAmountKobo),
    maxAmount: koboToNaira(category.maxAmountKobo),
    createdAt: category.createdAt.toISOString(),
    updatedAt: category.updatedAt.toISOString(),
    __v: 0,
  };
}

export function productView(product: Product) {
  return {
    name: product.name,
    bundleCode: product.bundleCode,
    amount: product.amountKobo === null ? null : koboToNaira(product.amountKobo),
    duration: product.duration,
    isAmountFixed: product.isAmountFixed,
  };
}

/** The published verification answers: a meter's details, or a smart card's holder. */
export function verificationView(customer: MeterCustomer | CardCustomer) {
  if (customer.kind === 'card') {
    return { name: customer.name };
  }
  return {
    discoCode: customer.discoCode,
    vendType: customer.vendType,
    meterNo: customer.meterNo,
    minVendAmount: koboToNaira(customer.minVendKobo),
    maxVendAmount: koboToNaira(customer.maxVendKobo),
    outstanding: koboToNaira(customer.outstandingKobo),
    debtRepayment: koboToNaira(customer.debtRepaymentKobo),
    name: customer.name,
    address: customer.address,
    orderId: customer.orderId,
  };
}

/**
 * A purchase as the published purchase answers show it: `clientId, serviceCategoryId,
 * reference, status, amount, id`, plus `receiver` for cable TV and `utilityToken` for
 * electricity.
 */
export function purchaseView(purchase: Purchase) {
  return {
    clientId: purchase.clientId,
    serviceCategoryId: purchase.categoryId,
    reference: purchase.reference,
    status: purchase.status,
    amount: koboToNaira(purchase.amountKobo),
    id: purchase.id,
    ...(purchase.service === 'CABLETV'
      ? {
          receiver: {
            number: purchase.beneficiary,
            name: purchase.receiverName,
            customerNumber: null,
            distribution: purchase.categoryIdentifier,
            vendType: '',
          },
        }
      : {}),
    ...(purchase.service === 'UTILITY' ? { utilityToken: purchase.utilityToken } : {}),
  };
}

/**
 * A purchase in the history and the `vas.transaction` webhook: the published answer's fields,
 * then what the purchase was for and how it ended.
 */
export function purchaseTransactionView(purchase: Purchase) {
  return {
    ...purchaseView(purchase),
    _id: purchase.id,
    service: purchase.service,
    serviceCategory: purchase.categoryIdentifier,
    debitAccountNumber: purchase.debitAccountNumber,
    beneficiary: purchase.beneficiary,
    bundleCode: purchase.bundleCode,
    channel: purchase.channel,
    // Credited only when the purchase succeeds (or may still).
    commission: purchase.status === 'failed' ? 0 : koboToNaira(purchase.commissionKobo),
    utilityToken: purchase.utilityToken,
    failureReason: purchase.failureMessage,
    statusUrl: purchase.statusUrl,
    createdAt: purchase.createdAt.toISOString(),
    updatedAt: purchase.updatedAt.toISOString(),
    completedAt: purchase.completedAt?.toISOString() ?? null,
  };
}

import type { Kobo } from '../../shared/money.ts';
import type { VasService } from './providers/biller.ts';

export interface Service {
  readonly id: string;
  readonly name: string;
  readonly identifier: VasService;
  readonly description: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What the biller pays on a sale, passed on to the client: naira and percent, as published. */
export interface ProviderCommission {
  readonly flatAmount: number;
  readonly percentageAmount: number;
  readonly minCap: number | null;
  readonly maxCap: number | null;
}

export interface Category {
  readonly id: string;
  readonly serviceId: string;
  /** The service's identifier, so a purchase path can tell a category of the wrong service. */
  readonly service: VasService;
  readonly name: string;
  readonly identifier: string;
  readonly vendor: string;
  readonly isFixedAmount: boolean;
  readonly description: string;
  readonly logoUrl: string;
  readonly providerCommission: ProviderCommission | null;
  readonly minAmountKobo: Kobo;
  readonly maxAmountKobo: Kobo;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface Product {
  readonly categoryId: string;
  readonly bundleCode: string;
  readonly name: string;
  /** Null for a product whose amount the buyer chooses (a cable "Top Up"). */
  readonly amountKobo: Kobo | null;
  readonly duration: string;
  readonly isAmountFixed: boolean;
}

/**
 * The commission on a sale of `amountKobo`: the flat amount plus the percentage, within the
 * caps, half up to the kobo; never more than the sale.
 */
export function commissionOn(commission: ProviderCommission | null, amountKobo: Kobo): Kobo {
  if (commission === null) {
    return 0n;
  }
  const basisPoints = BigInt(Math.round(commission.percentageAmount * 100));
  let kobo =
    BigInt(Math.round(commission.flatAmount * 100)) + (amountKobo * basisPoints + 5_000n) / 10_000n;
  if (commission.minCap !== null) {
    const min = BigInt(Math.round(commission.minCap * 100));
    kobo = kobo < min ? min : kobo;
  }
  if (commission.maxCap !== null) {
    const max = BigInt(Math.round(commission.maxCap * 100));
    kobo = kobo > max ? max : kobo;
  }
  return kobo > amountKobo ? amountKobo : kobo < 0n ? 0n : kobo;
}

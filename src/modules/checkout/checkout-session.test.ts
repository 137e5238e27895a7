import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Charges, cappedShareCharges, NO_CHARGES } from '../../ledger/charges.ts';
import type { Kobo } from '../../shared/money.ts';
import { amountToPay, type CheckoutSession, statusAt } from './checkout-session.ts';

/** The default collection charges of both methods: 0.5%, at most ₦300, VAT 7.5% on the fee. */
const defaultCharges = (paidKobo: Kobo): Charges =>
  cappedShareCharges(paidKobo, { basisPoints: 50n, capKobo: 30_000n }, 750n);

/** What the merchant keeps of `paid` once a method's charges are taken from it. */
const netOf = (paid: Kobo, charges: (paidKobo: Kobo) => Charges = defaultCharges) => {
  const { feeKobo, vatKobo } = charges(paid);
  return paid - feeKobo - vatKobo;
};

/** 1 kobo to ₦10m: every kobo to ₦200, dense around the ₦300 cap, and spread samples above. */
function sampleAmounts(): Kobo[] {
  const amounts: Kobo[] = [];
  for (let kobo = 1n; kobo <= 20_000n; kobo++) {
    amounts.push(kobo);
  }
  // The fee reaches ₦300 on a payment of ₦60,000, that is on an amount of ₦59,677.50 net.
  for (const centre of [5_967_750n, 6_000_000n]) {
    for (let kobo = centre - 3_000n; kobo <= centre + 3_000n; kobo++) {
      amounts.push(kobo);
    }
  }
  // A fixed pseudo-random spread (the same every run) up to ₦10,000,000.
  let seed = 20_260_302n;
  for (let index = 0; index < 5_000; index++) {
    seed = (seed * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) % 2n ** 64n;
    amounts.push((seed % 1_000_000_000n) + 1n);
  }
  amounts.push(999_999_999n, 1_000_000_000n);
  return amounts;
}

describe('amountToPay', () => {
  const amounts = sampleAmounts();

  describe("feeBearer 'account': the merchant bears the fee", () => {
    it('is the amount itself, whatever the charges', () => {
      for (const amount of [1n, 99n, 250_000n, 6_000_000n, 1_000_000_000n]) {
        assert.equal(amountToPay(amount, 'account', defaultCharges), amount);
        assert.equal(
          amountToPay(amount, 'account', () => ({ feeKobo: amount, vatKobo: amount })),
          amount,
        );
      }
    });
  });

  describe("feeBearer 'customer': the least sum whose proceeds cover the amount", () => {
    it('covers the amount once the charges are taken from it, over 1 kobo to ₦10m', () => {
      for (const amount of amounts) {
        const paid = amountToPay(amount, 'customer', defaultCharges);
        assert.ok(paid >= amount, `${amount}: ${paid} is less than the amount`);
        assert.ok(netOf(paid) >= amount, `${amount}: ${paid} nets ${netOf(paid)}`);
      }
    });

    it('is minimal: one kobo less would not cover it (nor would any smaller sum near it)', () => {
      for (const amount of amounts) {
        const paid = amountToPay(amount, 'customer', defaultCharges);
        assert.ok(netOf(paid - 1n) < amount, `${amount}: ${paid - 1n} covers it already`);
        // Charges do not fall as the sum grows, but VAT and the fee can step up together: no
        // smaller sum may cover the amount either (looked at over the last 300 kobo).
        for (let smaller = paid - 2n; smaller >= amount && smaller >= paid - 300n; smaller--) {
          assert.ok(netOf(smaller) < amount, `${amount}: ${smaller} covers it, below ${paid}`);
        }
      }
    });

    it('leaves the merchant exactly the amount with the default charges (never a kobo over)', () => {
      for (const amount of amounts) {
        const paid = amountToPay(amount, 'customer', defaultCharges);
        assert.equal(netOf(paid), amount, `${amount}: ${paid} nets ${netOf(paid)}`);
      }
    });

    it('adds nothing where the fee rounds to zero (below ₦1)', () => {
      for (const amount of [1n, 50n, 99n]) {
        assert.equal(amountToPay(amount, 'customer', defaultCharges), amount);
      }
      // ₦1 takes ₦1.01: its fee rounds to a kobo, and VAT on a kobo to nothing.
      assert.equal(amountToPay(100n, 'customer', defaultCharges), 101n);
    });

    it('adds the capped fee and its VAT, ₦322.50, once the payment reaches ₦60,000', () => {
      for (const amount of [5_967_750n, 10_000_000n, 1_000_000_000n]) {
        assert.equal(amountToPay(amount, 'customer', defaultCharges), amount + 32_250n);
      }
      // Just below the cap the fee is still a share: 0.5% of ₦59,999.99 is ₦300.00 (half up).
      assert.equal(amountToPay(5_967_749n, 'customer', defaultCharges), 5_999_999n);
    });

    it('works out the published examples: ₦2,500 and ₦100,000', () => {
      // ₦2,500 takes ₦2,513.51: fee ₦12.57 and VAT ₦0.94 leave ₦2,500.00.
      assert.equal(amountToPay(250_000n, 'customer', defaultCharges), 251_351n);
      assert.deepEqual(defaultCharges(251_351n), { feeKobo: 1_257n, vatKobo: 94n });
      assert.equal(amountToPay(10_000_000n, 'customer', defaultCharges), 10_032_250n);
    });

    it('is the amount when the method charges nothing', () => {
      assert.equal(
        amountToPay(123_456n, 'customer', () => NO_CHARGES),
        123_456n,
      );
    });

    it('ends, covers and is minimal under steep or flat charges too', () => {
      const steep = (paid: Kobo): Charges => ({ feeKobo: (paid * 3n) / 10n, vatKobo: 0n });
      const flat = (paid: Kobo): Charges => ({
        feeKobo: paid >= 500_000n ? 5_000n : 1_000n,
        vatKobo: 75n,
      });
      for (const charges of [steep, flat]) {
        for (const amount of [1n, 7n, 9_999n, 490_000n, 499_000n, 500_000n, 123_456_789n]) {
          const paid = amountToPay(amount, 'customer', charges);
          assert.ok(netOf(paid, charges) >= amount, `${amount}: ${paid}`);
          assert.ok(netOf(paid - 1n, charges) < amount, `${amount}: ${paid - 1n} covers it`);
        }
      }
    });
  });
});

describe('statusAt', () => {
  const session = {
    status: 'Pending',
    expiresAt: new Date('2026-03-02T10:00:00.000Z'),
  } as CheckoutSession;

  it('reads a Pending session as Expired from its expiresAt on, never a Completed one', () => {
    assert.equal(statusAt(session, new Date('2026-03-02T09:59:59.999Z')), 'Pending');
    assert.equal(statusAt(session, new Date('2026-03-02T10:00:00.000Z')), 'Expired');
    const completed = { ...session, status: 'Completed' } as CheckoutSession;
    assert.equal(statusAt(completed, new Date('2026-03-03T00:00:00.000Z')), 'Completed');
  });
});

import type { Db, Queryable } from '../../db/db.ts';
import type { Clock } from '../../shared/clock.ts';
import { outboxEventsJson } from '../../webhooks/outbox.ts';
import type {
  CollectionAccount,
  CollectionPayment,
  Collections,
  InboundCreditService,
} from '../transfers/index.ts';
import { type CheckoutSessionClaim, checkoutOrderLock } from './checkout-claim.ts';
import { findByMethods } from './checkout-repository.ts';
import type { CheckoutChannel, CheckoutSession } from './checkout-session.ts';
import { checkoutVerifyView } from './checkout-view.ts';

export interface CheckoutCollectionsDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly institutionCode: string;
}

type InboundCredits = Pick<InboundCreditService, 'receive'>;

/**
 * How checkout is told of its payments: the virtual accounts and USSD references a session
 * opens are collections of their own modules, which accept a payment inside the payment's batch
 * item; checkout adds its own claim to theirs (checkout_session_pay, sql/), which completes the
 * session in the same item. The composition root (services.ts) wraps what the transfers and USSD
 * modules pay collections through, so neither they nor the methods' modules know of checkout:
 * checkout depends on them, not they on it. A payment to a collection looks up its session
 * once; a payment to anything else costs nothing.
 */
export function createCheckoutCollections(deps: CheckoutCollectionsDeps) {
  /** The collections, each paying a checkout session with that session's claim added. */
  async function withSessions(
    db: Queryable,
    collections: readonly CollectionAccount[],
  ): Promise<CollectionAccount[]> {
    if (collections.length === 0) {
      return [];
    }
    const sessions = await findByMethods(
      db,
      collections.map((collection) => collection.id),
    );
    return collections.map((collection) => {
      const session = sessions.find(
        (candidate) =>
          candidate.virtualAccountId === collection.id ||
          candidate.ussdReferenceId === collection.id,
      );
      return session === undefined ? collection : paying(collection, session);
    });
  }

  function paying(collection: CollectionAccount, session: CheckoutSession): CollectionAccount {
    const channel: CheckoutChannel =
      session.virtualAccountId === collection.id ? 'BANK_TRANSFER' : 'USSD';
    return {
      ...collection,
      // After the method's own: its owner accepts the payment before the session is completed.
      claims: (payment) => [...collection.claims(payment), claim(session, channel, payment)],
    };
  }

  function claim(
    session: CheckoutSession,
    channel: CheckoutChannel,
    payment: CollectionPayment,
  ): CheckoutSessionClaim {
    const at = deps.clock.now();
    const paid = {
      channel,
      transferId: payment.id,
      paidKobo: payment.amountKobo,
      feesKobo: payment.feeKobo + payment.vatKobo + payment.stampDutyKobo,
      paidAt: payment.createdAt,
    };
    // The session as it will be stored, rendered as verify will answer it.
    const completed: CheckoutSession = {
      ...session,
      status: 'Completed',
      payment: paid,
      updatedAt: at,
    };
    const [event] = outboxEventsJson(deps.clock, [
      {
        clientId: session.clientId,
        type: 'checkout.payment',
        data: checkoutVerifyView(completed, deps.institutionCode, at),
        callbackUrl: session.webhookUrl,
      },
    ]);
    return {
      handler: 'checkout_session_pay',
      lock: checkoutOrderLock(session),
      sessionId: session.id,
      channel,
      transferId: paid.transferId,
      paidKobo: paid.paidKobo.toString(),
      feesKobo: paid.feesKobo.toString(),
      paidAt: paid.paidAt.toISOString(),
      at: at.toISOString(),
      event: event as NonNullable<typeof event>,
    };
  }

  return {
    /** The transfers module's collections (virtual accounts), paying sessions too. */
    collections(inner: Collections): Collections {
      return {
        async findByNumbers(db, accountNumbers) {
          const found = await inner.findByNumbers(db, accountNumbers);
          const numbers = [...found.keys()];
          const paid = await withSessions(db, [...found.values()]);
          return new Map(numbers.map((number, i) => [number, paid[i] as CollectionAccount]));
        },
      };
    },
    /** The inbound credits a USSD payment is received through, paying sessions too. */
    inboundCredits(inner: InboundCredits): InboundCredits {
      return {
        async receive(credit, collectedBy) {
          const [paid] =
            collectedBy === undefined ? [] : await withSessions(deps.db, [collectedBy]);
          return inner.receive(credit, paid);
        },
      };
    },
  };
}

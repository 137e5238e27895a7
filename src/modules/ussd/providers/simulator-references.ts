import type { Queryable } from '../../../db/db.ts';
import type { Kobo } from '../../../shared/money.ts';

/** A reference the simulated gateway issued, with the payment it knows of (if any). */
export interface SimulatedReference {
  readonly reference: string;
  readonly amountKobo: Kobo;
  readonly merchantName: string;
  readonly expiresAt: Date;
  readonly createdAt: Date;
  readonly payment: SimulatedPayment | null;
}

export interface SimulatedPayment {
  readonly sessionId: string;
  readonly ussdBankCode: string;
  readonly amountKobo: Kobo;
  readonly paidAt: Date;
}

/** Where the simulated gateway keeps its references: in memory, or in the database. */
export interface SimulatorReferenceStore {
  /** Records a new reference; false when the digits are taken (nothing changes). */
  add(reference: Omit<SimulatedReference, 'payment'>): Promise<boolean>;
  find(reference: string): Promise<SimulatedReference | undefined>;
  /** Records the payment the reference settled with; the first one stays. */
  recordPayment(reference: string, payment: SimulatedPayment): Promise<void>;
}

export function createMemoryReferenceStore(): SimulatorReferenceStore {
  const references = new Map<string, SimulatedReference>();
  return {
    async add(reference) {
      if (references.has(reference.reference)) {
        return false;
      }
      references.set(reference.reference, { ...reference, payment: null });
      return true;
    },
    async find(reference) {
      return references.get(reference);
    },
    async recordPayment(reference, payment) {
      const found = references.get(reference);
      if (found !== undefined && found.payment === null) {
        references.set(reference, { ...found, payment });
      }
    },
  };
}

interface ReferenceRow {
  reference: string;
  amount_kobo: bigint;
  merchant_name: string;
  expires_at: Date;
  created_at: Date;
  session_id: string | null;
  paid_ussd_bank_code: string | null;
  paid_kobo: bigint | null;
  paid_at: Date | null;
}

/** Survives restarts and is shared by every process on the database (server and workers). */
export function createDatabaseReferenceStore(db: Queryable): SimulatorReferenceStore {
  return {
    async add(reference) {
      const inserted = await db.query(
        `INSERT INTO ussd_simulator_references
           (reference, amount_kobo, merchant_name, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (reference) DO NOTHING RETURNING reference`,
        [
          reference.reference,
          reference.amountKobo,
          reference.merchantName,
          reference.expiresAt,
          reference.createdAt,
        ],
      );
      return inserted.length === 1;
    },
    async find(reference) {
      const rows = await db.query<ReferenceRow>(
        'SELECT * FROM ussd_simulator_references WHERE reference = $1',
        [reference],
      );
      return rows[0] === undefined ? undefined : toReference(rows[0]);
    },
    async recordPayment(reference, payment) {
      await db.query(
        `UPDATE ussd_simulator_references
            SET session_id = $2, paid_ussd_bank_code = $3, paid_kobo = $4, paid_at = $5
          WHERE reference = $1 AND session_id IS NULL`,
        [reference, payment.sessionId, payment.ussdBankCode, payment.amountKobo, payment.paidAt],
      );
    },
  };
}

function toReference(row: ReferenceRow): SimulatedReference {
  return {
    reference: row.reference,
    amountKobo: BigInt(row.amount_kobo),
    merchantName: row.merchant_name,
    expiresAt: new Date(row.expires_at),
    createdAt: new Date(row.created_at),
    payment:
      row.session_id === null
        ? null
        : {
            sessionId: row.session_id,
            ussdBankCode: row.paid_ussd_bank_code ?? '',
            amountKobo: BigInt(row.paid_kobo ?? 0n),
            paidAt: new Date(row.paid_at ?? row.created_at),
          },
  };
}

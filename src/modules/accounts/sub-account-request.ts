import type { Static } from 'typebox';
import { parseAmount } from '../../http/amount.ts';
import type { Kobo } from '../../shared/money.ts';
import type { IdentityClaim } from './ports.ts';
import type { CreateSubAccountBody, UpdateSubAccountBody } from './sub-account-schemas.ts';

/** Auto-sweep settings as the service takes them: kobo, not wire naira. */
export interface AutoSweepRequest {
  readonly destinationAccountNumber: string;
  readonly retainKobo: Kobo;
  readonly minimumKobo: Kobo;
}

export interface CreateSubAccountRequest extends IdentityClaim {
  readonly phoneNumber: string;
  readonly emailAddress: string;
  readonly externalReference: string;
  readonly metadata?: Record<string, unknown>;
  readonly autoSweep?: boolean;
  readonly autoSweepDetails?: AutoSweepRequest;
  readonly callbackUrl?: string;
}

export interface UpdateSubAccountRequest {
  readonly phoneNumber?: string;
  readonly emailAddress?: string;
  readonly externalReference?: string;
  readonly identityType?: string;
  readonly identityId?: string;
  readonly metadata?: Record<string, unknown>;
  readonly autoSweep?: boolean;
  readonly autoSweepDetails?: AutoSweepRequest;
  /** null clears it. */
  readonly callbackUrl?: string | null;
}

type WireAutoSweep = NonNullable<Static<typeof UpdateSubAccountBody>['autoSweepDetails']>;

/** The wire body as the service's request: naira amounts become kobo here, at the edge. */
export function createSubAccountRequest(
  body: Static<typeof CreateSubAccountBody>,
  maxAmountKobo: Kobo,
): CreateSubAccountRequest {
  const { autoSweepDetails, ...rest } = body;
  return {
    ...rest,
    ...(autoSweepDetails === undefined
      ? {}
      : { autoSweepDetails: autoSweepRequest(autoSweepDetails, maxAmountKobo) }),
  };
}

export function updateSubAccountRequest(
  body: Static<typeof UpdateSubAccountBody>,
  maxAmountKobo: Kobo,
): UpdateSubAccountRequest {
  const { autoSweepDetails, otp: _otp, identityNumber: _number, ...rest } = body;
  return {
    ...rest,
    ...(autoSweepDetails === undefined
      ? {}
      : { autoSweepDetails: autoSweepRequest(autoSweepDetails, maxAmountKobo) }),
  };
}

/** retainAmount defaults to ₦0 (and may be 0); minimumAmount to ₦1. */
function autoSweepRequest(details: WireAutoSweep, maxAmountKobo: Kobo): AutoSweepRequest {
  const retain = details.retainAmount ?? 0;
  return {
    destinationAccountNumber: details.destinationAccountNumber,
    retainKobo:
      retain === 0 ? 0n : parseAmount(retain, maxAmountKobo, 'autoSweepDetails.retainAmount'),
    minimumKobo: parseAmount(
      details.minimumAmount ?? 1,
      maxAmountKobo,
      'autoSweepDetails.minimumAmount',
    ),
  };
}

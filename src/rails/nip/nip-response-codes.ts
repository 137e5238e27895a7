import type { TransferOutcome } from '../rail.ts';

/**
 * The NIBSS NIP response codes OpenIBS knows, with the messages it shows for them.
 * Anything else a rail answers is treated as ambiguous (see `classifyResponseCode`).
 */
export const NIP_RESPONSE_CODES = {
  '00': 'Approved or completed successfully',
  '01': 'Status unknown, please wait for settlement report',
  '03': 'Invalid sender',
  '05': 'Do not honor',
  '06': 'Dormant account',
  '07': 'Invalid account',
  '08': 'Account name mismatch',
  '09': 'Request processing in progress',
  '12': 'Invalid transaction',
  '13': 'Invalid amount',
  '16': 'Unknown bank code',
  '25': 'Unable to locate record',
  '51': 'No sufficient funds',
  '57': 'Transaction not permitted to sender',
  '58': 'Transaction not permitted on channel',
  '61': 'Transfer limit exceeded',
  '63': 'Security violation',
  '65': 'Exceeds withdrawal frequency',
  '68': 'Response received too late',
  '69': 'Unsuccessful account/amount block',
  '70': 'Unsuccessful account/amount unblock',
  '91': 'Beneficiary bank not available',
  '92': 'Routing error',
  '94': 'Duplicate transaction',
  '96': 'System malfunction',
  '97': 'Timeout waiting for response from destination',
} as const;

export type NipResponseCode = keyof typeof NIP_RESPONSE_CODES;

export type ResponseCodeClass = 'success' | 'failed' | 'unknown';

/**
 * Codes that do not say whether the money moved. PSP tables disagree on 91/94/96/97, so we
 * never reverse on them: only a status query (TSQ) may settle such a transfer.
 */
const AMBIGUOUS_CODES: ReadonlySet<string> = new Set(['01', '09', '68', '91', '94', '96', '97']);

/** What an `unknown` outcome says when the rail gave no code at all (our side timed out). */
export const NO_RESPONSE_MESSAGE = 'No response from NIBSS before the timeout';

export function isKnownResponseCode(code: string): code is NipResponseCode {
  return Object.hasOwn(NIP_RESPONSE_CODES, code);
}

/** The message for a code; an unrecognised code still gets a message that names it. */
export function responseMessageFor(code: string | null): string {
  if (code === null) {
    return NO_RESPONSE_MESSAGE;
  }
  return isKnownResponseCode(code)
    ? NIP_RESPONSE_CODES[code]
    : `Unrecognised response code ${code}`;
}

/**
 * Sorts a code into what the caller may do with the hold. `null` (no answer) and any code we do
 * not recognise are `unknown`: reversing on a code we cannot read could pay the customer twice.
 * `25` from a status query is a definitive "this session never reached NIBSS", hence `failed`.
 */
export function classifyResponseCode(code: string | null): ResponseCodeClass {
  if (code === '00') {
    return 'success';
  }
  if (code === null || !isKnownResponseCode(code) || AMBIGUOUS_CODES.has(code)) {
    return 'unknown';
  }
  return 'failed';
}

/** The TransferOutcome a rail answers for a code (`null`: no answer before the timeout). */
export function outcomeFor(code: string | null): TransferOutcome {
  if (code === null) {
    return { kind: 'unknown', responseCode: null, responseMessage: NO_RESPONSE_MESSAGE };
  }
  const responseMessage = responseMessageFor(code);
  const kind = classifyResponseCode(code);
  if (kind === 'success') {
    return { kind, responseCode: '00', responseMessage };
  }
  return { kind, responseCode: code, responseMessage };
}

/**
 * The one error catalogue. Every failure OpenIBS reports has a stable code here with exactly
 * one HTTP status and a default message; docs/errors.md lists them for integrators.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: { httpStatus: 400, message: 'Invalid request.' },
  INVALID_JSON: { httpStatus: 400, message: 'The request body is not valid JSON.' },
  INVALID_URL: { httpStatus: 400, message: 'The request URL is not valid.' },
  RECORD_NOT_FOUND: { httpStatus: 400, message: 'Unable to locate record' },
  INVALID_AMOUNT: { httpStatus: 400, message: 'Invalid amount.' },
  INVALID_DATE_RANGE: { httpStatus: 400, message: 'fromDate must not be after toDate.' },
  UNKNOWN_BANK: { httpStatus: 400, message: 'Unknown bank code.' },
  NAME_ENQUIRY_FAILED: { httpStatus: 400, message: 'Name enquiry failed.' },
  NAME_ENQUIRY_INVALID: {
    httpStatus: 400,
    message: 'The name enquiry reference is invalid, expired or for another account.',
  },
  VIRTUAL_ACCOUNT_CLOSED: {
    httpStatus: 400,
    message: 'The virtual account does not take payments any more.',
  },
  VIRTUAL_ACCOUNT_AMOUNT_REFUSED: {
    httpStatus: 400,
    message: 'The amount does not match what the virtual account takes.',
  },
  USSD_REFERENCE_CLOSED: {
    httpStatus: 400,
    message: 'The USSD reference does not take payments any more.',
  },
  USSD_AMOUNT_MISMATCH: {
    httpStatus: 400,
    message: 'The amount does not match what the USSD reference takes.',
  },
  VAS_PURCHASE_FAILED: {
    httpStatus: 400,
    message: 'The biller declined the purchase; nothing was charged.',
  },
  VAS_CUSTOMER_NOT_FOUND: {
    httpStatus: 400,
    message: 'No meter or smart card was found for this number.',
  },
  SAME_ACCOUNT: { httpStatus: 400, message: 'An account cannot transfer to itself.' },
  TRANSFER_NOT_RETURNABLE: {
    httpStatus: 400,
    message: 'Only a Completed NIP transfer to another bank can be returned.',
  },
  TRANSFER_NOT_RECALLABLE: {
    httpStatus: 400,
    message: 'Only a Completed credit received from another bank can be recalled.',
  },
  TRANSFER_NOT_REVERSIBLE: {
    httpStatus: 400,
    message: 'Only a Completed intra-bank transfer can be reversed.',
  },
  LIEN_NOT_ACTIVE: {
    httpStatus: 400,
    message: 'Only an active lien can be released: this one is paid or released already.',
  },
  IDENTITY_NOT_FOUND: { httpStatus: 400, message: 'No identity was found for this number.' },
  IDENTITY_MISMATCH: {
    httpStatus: 400,
    message: 'The identity on record does not match the request.',
  },
  OTP_INVALID: { httpStatus: 400, message: 'Invalid OTP.' },
  OTP_EXPIRED: { httpStatus: 400, message: 'The OTP has expired. Initiate a new verification.' },
  OTP_ATTEMPTS_EXCEEDED: {
    httpStatus: 400,
    message: 'Too many wrong OTPs. Initiate a new verification.',
  },
  IDENTITY_NOT_VERIFIED: {
    httpStatus: 400,
    message: 'The identity verification is not validated, or is for another identity.',
  },
  UNAUTHORIZED: { httpStatus: 401, message: 'Unauthorized' },
  INSUFFICIENT_FUNDS: { httpStatus: 402, message: 'Insufficient funds.' },
  ACCOUNT_NOT_ACTIVE: { httpStatus: 402, message: 'Account is not active.' },
  TRANSFER_LIMIT_EXCEEDED: { httpStatus: 402, message: 'Transfer limit exceeded.' },
  RAIL_UNAVAILABLE: { httpStatus: 402, message: 'The beneficiary bank is not available.' },
  CHECKOUT_CLOSED: {
    httpStatus: 400,
    message: 'The checkout session takes no payment any more.',
  },
  USSD_GATEWAY_UNAVAILABLE: {
    httpStatus: 402,
    message: 'The USSD gateway is not available. Try again later.',
  },
  BILLER_UNAVAILABLE: {
    httpStatus: 402,
    message: 'The biller is not available. Try again later.',
  },
  IDENTITY_BUREAU_UNAVAILABLE: {
    httpStatus: 402,
    message: 'The identity bureau is not available. Try again later.',
  },
  FORBIDDEN: { httpStatus: 403, message: 'Forbidden resource' },
  CHECKOUT_ORIGIN_NOT_ALLOWED: {
    httpStatus: 403,
    message: 'This page is not on an origin the merchant registered for checkout.',
  },
  CHECKOUT_NOT_CONFIGURED: {
    httpStatus: 403,
    message: 'The merchant has not registered the origins of its checkout pages.',
  },
  ROLE_REQUIRED: {
    httpStatus: 403,
    message: 'Your operator roles do not allow this action.',
  },
  OPERATOR_SELF_SERVICE: {
    httpStatus: 403,
    message: 'Another admin must set up, reset or unlock your sign-in.',
  },
  APPROVAL_OWN_REQUEST: {
    httpStatus: 403,
    message: 'You asked for this action: another operator must approve it.',
  },
  APPROVAL_NEEDS_OPERATOR: {
    httpStatus: 403,
    message:
      'Break-glass cannot approve or reject: a decision under four eyes is taken by a named operator.',
  },
  APPROVAL_EXECUTION_REFUSED: {
    httpStatus: 403,
    message: 'This approval does not open this request.',
  },
  SANDBOX_ONLY: { httpStatus: 403, message: 'This operation is only available in sandbox.' },
  ROUTE_NOT_FOUND: { httpStatus: 404, message: 'Route not found.' },
  APPROVAL_NOT_FOUND: { httpStatus: 404, message: 'No approval request has this id.' },
  BULK_BATCH_NOT_FOUND: { httpStatus: 404, message: 'No bulk transfer batch has this id.' },
  CONFLICT: { httpStatus: 409, message: 'The request conflicts with another request.' },
  SANDBOX_RESET: {
    httpStatus: 409,
    message:
      'The sandbox was reset while this request was being handled: what it did before the reset is gone. Send it again.',
  },
  OPERATOR_EXISTS: {
    httpStatus: 409,
    message: 'An operator with this email address exists already.',
  },
  OPERATOR_DISABLED: {
    httpStatus: 409,
    message: 'This operator is disabled: enable them before setting up their sign-in.',
  },
  OPERATOR_NOT_LOCAL: {
    httpStatus: 409,
    message: "This operator signs in through the organisation's identity provider, not a password.",
  },
  OPERATOR_ALREADY_SET_UP: {
    httpStatus: 409,
    message: 'This operator has set up their sign-in already: reset it to send a new setup link.',
  },
  APPROVAL_EXPIRED: {
    httpStatus: 409,
    message: 'This request expired before anyone approved it: ask for the action again.',
  },
  APPROVAL_NOT_PENDING: {
    httpStatus: 409,
    message: 'This request was decided already.',
  },
  DUPLICATE_REFERENCE: {
    httpStatus: 409,
    message: 'This paymentReference was already used for a different transfer.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    httpStatus: 422,
    message: 'This Idempotency-Key was already used with a different request.',
  },
  REQUEST_TIMEOUT: { httpStatus: 408, message: 'The request did not arrive in time.' },
  PAYLOAD_TOO_LARGE: { httpStatus: 413, message: 'Request body is too large.' },
  HEADERS_TOO_LARGE: { httpStatus: 431, message: 'The request headers are too large.' },
  UNSUPPORTED_MEDIA_TYPE: { httpStatus: 415, message: 'Unsupported content type.' },
  RATE_LIMITED: { httpStatus: 429, message: 'Too many requests.' },
  INTERNAL_ERROR: { httpStatus: 500, message: 'Something went wrong.' },
  SERVICE_UNAVAILABLE: { httpStatus: 503, message: 'Service temporarily unavailable.' },
  GATEWAY_TIMEOUT: {
    httpStatus: 504,
    message: 'The request timed out before an answer came; it may have been completed.',
  },
  DATABASE_UNAVAILABLE: {
    httpStatus: 503,
    message: 'The database is not reachable right now. Try again shortly.',
  },
  SERVER_BUSY: {
    httpStatus: 503,
    message:
      'Too many requests like this one are waiting for the database; nothing was done. Try again shortly.',
  },
  AUDIT_TRAIL_UNAVAILABLE: {
    httpStatus: 503,
    message:
      'The audit trail cannot record this action right now, so nothing was done. Try again shortly.',
  },
  // OAuth token endpoint (RFC 6749 section 5.2): rendered with the OAuth code as `error`.
  OAUTH_INVALID_REQUEST: { httpStatus: 400, message: 'The request is missing a parameter.' },
  OAUTH_INVALID_CLIENT: { httpStatus: 401, message: 'Client authentication failed.' },
  OAUTH_INVALID_GRANT: { httpStatus: 400, message: 'The grant is invalid or expired.' },
  OAUTH_UNSUPPORTED_GRANT_TYPE: { httpStatus: 400, message: 'Unsupported grant type.' },
} as const satisfies Record<string, { httpStatus: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The `error` field of OAuth errors, per RFC 6749. */
export const OAUTH_ERROR_NAMES: Partial<Record<ErrorCode, string>> = {
  OAUTH_INVALID_REQUEST: 'invalid_request',
  OAUTH_INVALID_CLIENT: 'invalid_client',
  OAUTH_INVALID_GRANT: 'invalid_grant',
  OAUTH_UNSUPPORTED_GRANT_TYPE: 'unsupported_grant_type',
};

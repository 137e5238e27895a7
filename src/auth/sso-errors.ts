import * as oidc from 'openid-client';

/** Why a sign-in was refused; the caller answers 401 for each and records the reason. */
export type SingleSignOnRefusal =
  /** The identity provider could not be reached or described itself wrongly. */
  | 'discovery_failed'
  /** The pending sign-in is older than ten minutes, from the future, or not one at all. */
  | 'expired'
  /** The callback's state is missing or not the one this browser started with (CSRF). */
  | 'state_mismatch'
  /** The identity provider answered with an error (the operator cancelled, or was refused). */
  | 'denied'
  | 'no_code'
  /** The token endpoint refused the code: replayed, expired, for another client, wrong verifier. */
  | 'exchange_failed'
  | 'issuer'
  /** The ID token was issued for another client. */
  | 'audience'
  | 'nonce'
  | 'signature'
  /** Any other fault in the ID token (timestamps, hashes, claims missing). */
  | 'id_token_invalid'
  | 'userinfo_failed'
  | 'no_email'
  | 'email_unverified';

/**
 * A refused sign-in. The message says why in words safe to log: it never carries a token, a
 * code or the claims, and the library's error (which may) is not attached as the cause.
 */
export class SingleSignOnError extends Error {
  override readonly name = 'SingleSignOnError';
  constructor(
    readonly reason: SingleSignOnRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** The refusal for what openid-client threw while exchanging the code or checking the ID token. */
export function refusalFromExchange(error: unknown): SingleSignOnError {
  if (error instanceof SingleSignOnError) {
    return error;
  }
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
    return new SingleSignOnError('exchange_failed', `the identity provider said ${error.error}`);
  }
  if (!(error instanceof oidc.ClientError)) {
    return new SingleSignOnError('exchange_failed', 'the token endpoint could not be used');
  }
  const claim = claimCompared(error);
  if (claim === 'aud' || claim === 'azp') {
    return new SingleSignOnError('audience', 'the ID token was issued for another client');
  }
  // The ID token's `iss`, or the callback's (RFC 9207: which provider answered, against mix-up).
  if (claim === 'iss' || /"iss"/.test(causeMessage(error))) {
    return new SingleSignOnError('issuer', 'the ID token comes from another issuer');
  }
  if (claim === 'nonce') {
    return new SingleSignOnError('nonce', 'the ID token answers another sign-in');
  }
  if (error.code === 'OAUTH_KEY_SELECTION_FAILED' || /signature/i.test(causeMessage(error))) {
    return new SingleSignOnError(
      'signature',
      'the ID token is not signed by the identity provider',
    );
  }
  return new SingleSignOnError(
    'id_token_invalid',
    `the token response was refused: ${error.message}`,
  );
}

/** openid-client wraps oauth4webapi's error, whose cause names the claim that did not match. */
function claimCompared(error: oidc.ClientError): unknown {
  if (error.code !== 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    return undefined;
  }
  const inner = error.cause instanceof Error ? error.cause.cause : undefined;
  return typeof inner === 'object' && inner !== null && 'claim' in inner ? inner.claim : undefined;
}

function causeMessage(error: oidc.ClientError): string {
  return error.cause instanceof Error ? error.cause.message : '';
}

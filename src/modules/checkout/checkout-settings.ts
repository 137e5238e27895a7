import { AppError } from '../../errors/app-error.ts';

/**
 * What a merchant registered for its checkout, through its authenticated API or an operator:
 * the origins its pages are served from, and the URLs its `checkout.payment` events may go to
 * besides its webhook URL. The widget's config is public (anyone can copy it), so where money's
 * notifications and customers go is decided here, never by whoever opens a session first.
 */
export interface CheckoutSettings {
  readonly clientId: string;
  readonly allowedOrigins: readonly string[];
  readonly webhookUrls: readonly string[];
  /** Null while nothing was registered. */
  readonly updatedAt: Date | null;
}

/** What one session's config asks for, checked against the settings. */
export interface CheckoutDestinations {
  readonly origin: string | null;
  readonly redirectUrl: string | undefined;
  readonly webhookUrl: string | undefined;
  /** The client's webhook URL (the default destination of its events). */
  readonly clientWebhookUrl: string | null;
}

/**
 * Bound checkout: the page's Origin must be registered, the customer is redirected only to a
 * registered origin, and events go only to a registered URL. It applies once a client registered
 * an origin, and always in production (where an unregistered client cannot open sessions). The
 * sandbox without settings accepts any page, as a developer's first try expects; a session there
 * is still never shared with a different config (see the service's `open`).
 */
export function checkDestinations(
  settings: CheckoutSettings,
  asked: CheckoutDestinations,
  environment: 'sandbox' | 'production',
): void {
  if (settings.allowedOrigins.length === 0) {
    if (environment === 'production') {
      throw new AppError('CHECKOUT_NOT_CONFIGURED');
    }
    return;
  }
  if (asked.origin === null || !settings.allowedOrigins.includes(asked.origin)) {
    throw new AppError('CHECKOUT_ORIGIN_NOT_ALLOWED');
  }
  if (
    asked.redirectUrl !== undefined &&
    !settings.allowedOrigins.includes(originOf(asked.redirectUrl))
  ) {
    throw invalidField('redirectUrl', 'must be on one of your registered checkout origins');
  }
  if (
    asked.webhookUrl !== undefined &&
    asked.webhookUrl !== asked.clientWebhookUrl &&
    !settings.webhookUrls.includes(asked.webhookUrl)
  ) {
    throw invalidField(
      'webhookUrl',
      'must be your webhook URL or one of your checkout webhook URLs',
    );
  }
}

/**
 * An origin as browsers send it: scheme, host and port, nothing else (no path, no trailing
 * slash, no credentials). Refused otherwise, so a registered origin always compares exactly.
 */
export function parseOrigin(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidField(field, `"${value}" is not an origin such as https://shop.example.com`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== value) {
    throw invalidField(field, `"${value}" is not an origin such as https://shop.example.com`);
  }
  return url.origin;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

export function invalidField(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field} ${message}.`, {
    details: [{ field, message }],
  });
}

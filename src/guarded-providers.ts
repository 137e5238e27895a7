import type { Config } from './config/config.ts';
import type { DeliveryOutcome, EmailSender, SmsProvider } from './modules/alerts/index.ts';
import type { IdentityBureau } from './modules/identity/index.ts';
import type { UssdGateway } from './modules/ussd/index.ts';
import type { Biller } from './modules/vas/index.ts';
import type { Rail } from './rails/rail.ts';
import { guardProvider, type ProviderGuardOptions } from './shared/provider-guard.ts';

/**
 * Every vendor call has a deadline and a circuit breaker (src/shared/provider-guard.ts). What a
 * call answers when the vendor is slow or down follows each interface's own rules: an
 * unanswered call that may have acted is an outcome settled later by a status query (never a
 * refund on a timeout alone); a call not made because the breaker is open is definitively not
 * done.
 */
export function guardRail(rail: Rail, config: Config): Rail {
  const unknown = (reason: string) =>
    ({
      kind: 'unknown',
      responseCode: null,
      responseMessage: `No answer from the rail: ${reason}`,
    }) as const;
  return guardProvider(
    rail,
    {
      nameEnquiry: {
        // 91: beneficiary bank not available; an enquiry moves nothing, so it may be asked again.
        unanswered: (reason) => ({
          kind: 'unavailable',
          responseCode: '91',
          responseMessage: reason,
        }),
        isFailure: (outcome) => outcome.kind === 'unavailable',
      },
      sendTransfer: {
        unanswered: unknown,
        notCalled: (reason) => ({
          kind: 'failed',
          responseCode: '91',
          responseMessage: `The rail is unavailable (${reason}).`,
        }),
      },
      queryStatus: { unanswered: unknown },
    },
    options(config, 'rail', config.providers.railTimeoutMs),
  );
}

export function guardBiller(biller: Biller, config: Config): Biller {
  const down = (reason: string) =>
    ({ kind: 'unavailable', message: `No answer from the biller: ${reason}` }) as const;
  return guardProvider(
    biller,
    {
      verify: { unanswered: down, isFailure: (outcome) => outcome.kind === 'unavailable' },
      purchase: {
        unanswered: down,
        notCalled: (reason) => ({
          kind: 'failed',
          message: `The biller is unavailable (${reason}).`,
        }),
        isFailure: (outcome) => outcome.kind === 'unavailable',
      },
      queryStatus: { unanswered: down },
    },
    options(config, 'biller', config.providers.billerTimeoutMs),
  );
}

export function guardIdentityBureau(bureau: IdentityBureau, config: Config): IdentityBureau {
  return guardProvider(
    bureau,
    {
      lookup: {
        unanswered: (reason) => ({
          kind: 'unavailable',
          message: `No answer from the identity bureau: ${reason}`,
        }),
        isFailure: (outcome) => outcome.kind === 'unavailable',
      },
      deliverOtp: { unanswered: () => false },
    },
    options(config, 'identity-bureau', config.providers.identityBureauTimeoutMs),
  );
}

export function guardUssdGateway(gateway: UssdGateway, config: Config): UssdGateway {
  const down = (reason: string) =>
    ({ kind: 'unavailable', message: `No answer from the USSD gateway: ${reason}` }) as const;
  return guardProvider(
    gateway,
    {
      issueReference: { unanswered: down, isFailure: (outcome) => outcome.kind === 'unavailable' },
      queryPayment: { unanswered: down, isFailure: (outcome) => outcome.kind === 'unavailable' },
    },
    options(config, 'ussd-gateway', config.providers.ussdGatewayTimeoutMs),
  );
}

/**
 * An unanswered send may have been accepted: it is a temporary failure, tried again under the
 * same Message-ID or de-duplication key, which the provider de-duplicates (docs/alerts.md).
 */
const sendPolicy = (what: string) => ({
  unanswered: (reason: string): DeliveryOutcome => ({
    kind: 'temporary',
    error: `No answer from the ${what}: ${reason}`,
  }),
  isFailure: (outcome: DeliveryOutcome) => outcome.kind === 'temporary',
});

/**
 * Alerts' email, or (`statements`) monthly statements' email: the same server, whose messages
 * carry a PDF that may take minutes to write, so under a deadline and a breaker of their own.
 */
export function guardEmailSender(
  sender: EmailSender,
  config: Config,
  use: 'alerts' | 'statements' = 'alerts',
): EmailSender {
  return guardProvider(
    sender,
    { send: sendPolicy('mail server') },
    use === 'alerts'
      ? options(config, 'email', config.alerts.sendTimeoutMs)
      : options(config, 'statementEmail', config.alerts.statements.sendTimeoutMs),
  );
}

export function guardSmsProvider(provider: SmsProvider, config: Config): SmsProvider {
  return guardProvider(
    provider,
    { send: sendPolicy('SMS provider') },
    options(config, 'sms', config.alerts.sendTimeoutMs),
  );
}

function options(config: Config, name: string, timeoutMs: number): ProviderGuardOptions {
  const { providers } = config;
  return {
    name,
    timeoutMs,
    breakerEnabled: providers.breakerEnabled,
    errorThresholdPercent: providers.breakerErrorThresholdPercent,
    minimumCalls: providers.breakerMinimumCalls,
    resetTimeoutMs: providers.breakerResetTimeoutMs,
  };
}

import type { Config } from '../../config/config.ts';
import type { CoreParts, ModuleDescriptor, WorkerParts } from '../../http/module-descriptor.ts';
import { createAlertComposer } from './alert-composer.ts';
import { createAlertDelivery } from './alert-delivery.ts';
import { createAlertInbox } from './alert-inbox.ts';
import { loadAlertTemplates } from './alert-templates.ts';
import { createAlertWorker } from './alert-worker.ts';
import type { EmailSender } from './providers/email-sender.ts';
import {
  createSandboxEmailSender,
  createUnconfiguredEmailSender,
} from './providers/sandbox-email-sender.ts';
import type { SmsProvider } from './providers/sms-provider.ts';
import { createSmsSimulator, createUnconfiguredSmsProvider } from './providers/sms-simulator.ts';
import { createSmtpEmailSender } from './providers/smtp-email-sender.ts';

/** SMTP when SMTP_URL is set; else the sandbox's keeper, or in production a sender that waits. */
export function createEmailSender(config: Config): EmailSender {
  const { alerts } = config;
  if (alerts.smtpUrl !== undefined) {
    return createSmtpEmailSender({ url: alerts.smtpUrl, timeoutMs: alerts.sendTimeoutMs });
  }
  return config.ibsEnv === 'sandbox' ? createSandboxEmailSender() : createUnconfiguredEmailSender();
}

/** The sandbox's SMS simulator, or in production a provider that refuses (no adapter yet). */
export function createSmsProvider(config: Config): SmsProvider {
  return config.ibsEnv === 'sandbox' ? createSmsSimulator() : createUnconfiguredSmsProvider();
}

interface AlertsModuleDeps extends CoreParts {
  readonly emailSender: EmailSender;
  readonly smsProvider: SmsProvider;
}

/**
 * The alerts' services: the templates (checked at start), the composer and the sender the
 * worker drives, and in the sandbox the message inbox.
 */
function createAlertsServices(deps: AlertsModuleDeps) {
  const { config, db, clock } = deps;
  const { alerts } = config;
  const templates = loadAlertTemplates(alerts.templatesDir);
  const alertComposer = createAlertComposer({
    db,
    clock,
    brand: { bankName: alerts.bankName, logoUrl: alerts.logoUrl },
    templates,
    batchSize: alerts.batchSize,
  });
  const alertDelivery = createAlertDelivery({
    db,
    clock,
    email: deps.emailSender,
    sms: deps.smsProvider,
    emailFrom: alerts.emailFrom,
    retryScheduleSeconds: alerts.retryScheduleSeconds,
    perAccountPerMinute: alerts.perAccountPerMinute,
    sendTimeoutMs: alerts.sendTimeoutMs,
    batchSize: alerts.batchSize,
  });
  return {
    alertComposer,
    alertDelivery,
    emailSender: deps.emailSender,
    alertInbox: config.ibsEnv === 'sandbox' ? createAlertInbox({ db }) : undefined,
  };
}

type AlertsServices = ReturnType<typeof createAlertsServices>;

function createAlertsLoop({ config, services, reporting }: WorkerParts<AlertsServices>) {
  const worker = createAlertWorker(
    {
      composeBatch: services.alertComposer.composeBatch,
      sendBatch: services.alertDelivery.sendBatch,
    },
    {
      batchSize: config.alerts.batchSize,
      pollIntervalMs: config.alerts.pollIntervalMs,
      ...reporting,
    },
  );
  return {
    start: worker.start,
    wake: worker.wake,
    async stop() {
      await worker.stop();
      services.emailSender.close();
    },
  };
}

export const alertsModule = {
  name: 'alerts',
  createServices: createAlertsServices,
  workers: [
    {
      name: 'alerts',
      inServer: (config) => config.alerts.workerEnabled,
      create: createAlertsLoop,
    },
  ],
} satisfies ModuleDescriptor<AlertsServices, AlertsModuleDeps, AlertsServices>;

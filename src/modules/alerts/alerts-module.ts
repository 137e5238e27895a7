import type { Config } from '../../config/config.ts';
import type { CoreParts, ModuleDescriptor, WorkerParts } from '../../http/module-descriptor.ts';
import { createAlertComposer } from './alert-composer.ts';
import { createAlertDelivery, type StatementFiles } from './alert-delivery.ts';
import { createAlertInbox } from './alert-inbox.ts';
import { createAlertSuppressions } from './alert-suppressions.ts';
import { loadAlertTemplates, loadStatementTemplates } from './alert-templates.ts';
import { createAlertWorker, createMonthlyStatementsWorker } from './alert-worker.ts';
import { createMonthlyStatements } from './monthly-statements.ts';
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
  /** The same mail server, guarded with the monthly statements' longer deadline. */
  readonly statementEmailSender: EmailSender;
  readonly smsProvider: SmsProvider;
  /** The PDF statements monthly statements carry (the accounts module's, plugged by services.ts). */
  readonly statementFiles: StatementFiles;
}

/**
 * The alerts' services: the templates (checked at start), the composer and the sender the
 * worker drives, and in the sandbox the message inbox.
 */
function createAlertsServices(deps: AlertsModuleDeps) {
  const { config, db, clock } = deps;
  const { alerts } = config;
  const brand = { bankName: alerts.bankName, logoUrl: alerts.logoUrl };
  const alertComposer = createAlertComposer({
    db,
    clock,
    brand,
    templates: loadAlertTemplates(alerts.templatesDir),
    batchSize: alerts.batchSize,
  });
  const monthlyStatements = createMonthlyStatements({
    db,
    clock,
    brand,
    templates: loadStatementTemplates(alerts.templatesDir),
    batchSize: alerts.statements.batchSize,
    catchUpMonths: alerts.statements.catchUpMonths,
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
    statements: {
      files: deps.statementFiles,
      email: deps.statementEmailSender,
      batchSize: alerts.statements.sendBatchSize,
      sendTimeoutMs: alerts.statements.sendTimeoutMs,
    },
  });
  return {
    alertComposer,
    alertDelivery,
    monthlyStatements,
    statementFiles: deps.statementFiles,
    emailSender: deps.emailSender,
    alertInbox: config.ibsEnv === 'sandbox' ? createAlertInbox({ db }) : undefined,
    alertSuppressions: createAlertSuppressions({ db }),
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

/** Monthly statements: queued once a month has ended, their emails (with the PDF) sent. */
function createMonthlyStatementsLoop({ config, services, reporting }: WorkerParts<AlertsServices>) {
  const worker = createMonthlyStatementsWorker(
    {
      composeBatch: services.monthlyStatements.composeBatch,
      sendBatch: services.alertDelivery.sendStatementBatch,
      sendBatchSize: config.alerts.statements.sendBatchSize,
    },
    { pollIntervalMs: config.alerts.statements.pollIntervalMs, ...reporting },
  );
  return { start: worker.start, wake: worker.wake, stop: worker.stop };
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
    {
      name: 'monthlyStatements',
      inServer: (config) => config.alerts.statements.workerEnabled,
      create: createMonthlyStatementsLoop,
    },
  ],
} satisfies ModuleDescriptor<AlertsServices, AlertsModuleDeps, AlertsServices>;

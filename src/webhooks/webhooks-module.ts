import type { AuditLog } from '../audit/index.ts';
import {
  type CoreParts,
  type ModuleDescriptor,
  moduleRoutes,
  type RouteParts,
  type WorkerParts,
} from '../http/module-descriptor.ts';
import type { DeliveryFence } from './delivery-fence.ts';
import { createDeliveryWorker } from './delivery-worker.ts';
import { destinationPolicy } from './destination-guard.ts';
import { createHttpSender } from './http-sender.ts';
import { createWebhookInbox } from './inbox.ts';
import { webhookRoutes } from './routes/index.ts';
import { createWebhookService } from './webhook-service.ts';

/** Webhook settings and history, and in the sandbox the record of every delivery attempt. */
function createWebhookServices({ config, db, clock }: CoreParts) {
  const webhookService = createWebhookService({
    db,
    clock,
    policy: destinationPolicy(config),
    secretRotationGraceSeconds: config.webhooks.secretRotationGraceSeconds,
  });
  // GET /admin/sandbox/webhooks reads it; none in production.
  const webhookInbox = config.ibsEnv === 'sandbox' ? createWebhookInbox({ db }) : undefined;
  return { webhookService, webhookInbox };
}

interface WebhookServices extends ReturnType<typeof createWebhookServices> {
  readonly auditLog: AuditLog;
  /** What a sandbox reset moves on, so a delivery claimed before it is not sent after it. */
  readonly deliveryFence: DeliveryFence;
}

/** Delivers the outbox; stopping it lets go of the sender's connections too. */
function createDeliveries({
  config,
  db,
  clock,
  services,
  reporting,
}: WorkerParts<WebhookServices>) {
  const sender = createHttpSender({
    timeoutMs: config.webhooks.timeoutMs,
    policy: destinationPolicy(config),
  });
  const worker = createDeliveryWorker({
    db,
    clock,
    sender,
    retryScheduleSeconds: config.webhooks.retryScheduleSeconds,
    timeoutMs: config.webhooks.timeoutMs,
    batchSize: config.webhooks.batchSize,
    pollIntervalMs: config.webhooks.pollIntervalMs,
    roundsInFlight: config.webhooks.roundsInFlight,
    // The sandbox keeps what each attempt sent and got (GET /admin/sandbox/webhooks).
    inbox: config.ibsEnv === 'sandbox',
    fence: services.deliveryFence,
    ...reporting,
  });
  return {
    start: worker.start,
    wake: worker.wake,
    async stop() {
      await worker.stop();
      sender.close();
    },
  };
}

export const webhooksModule = {
  name: 'webhooks',
  createServices: createWebhookServices,
  routes: [
    moduleRoutes('api', webhookRoutes, ({ clock, services }: RouteParts<WebhookServices>) => ({
      webhookService: services.webhookService,
      auditLog: services.auditLog,
      clock,
    })),
  ],
  workers: [
    {
      name: 'webhookDeliveries',
      inServer: (config) => config.webhooks.workerEnabled,
      wakesLast: true,
      create: createDeliveries,
    },
  ],
} satisfies ModuleDescriptor<WebhookServices, CoreParts, ReturnType<typeof createWebhookServices>>;

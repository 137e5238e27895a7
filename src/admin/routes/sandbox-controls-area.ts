import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type SandboxBulkTransferRouteOptions,
  sandboxBulkTransferRoute,
} from './sandbox-bulk-transfers.ts';
import { type SandboxClockRouteOptions, sandboxClockRoutes } from './sandbox-clock.ts';
import { type SandboxCreditRouteOptions, sandboxCreditRoute } from './sandbox-credits.ts';
import { type SandboxFaultRoutesOptions, sandboxFaultRoutes } from './sandbox-faults.ts';
import { type SandboxFixturesRouteOptions, sandboxFixturesRoutes } from './sandbox-fixtures.ts';
import { type SandboxMessageRouteOptions, sandboxMessageRoute } from './sandbox-message.ts';
import { type SandboxMessagesRouteOptions, sandboxMessagesRoute } from './sandbox-messages.ts';
import {
  type SandboxNipOutcomeRouteOptions,
  sandboxNipOutcomeRoute,
} from './sandbox-nip-outcomes.ts';
import { type SandboxNipRecallRouteOptions, sandboxNipRecallRoute } from './sandbox-nip-recalls.ts';
import { type SandboxNipReturnRouteOptions, sandboxNipReturnRoute } from './sandbox-nip-returns.ts';
import { type SandboxResetRouteOptions, sandboxResetRoute } from './sandbox-reset.ts';
import { type SandboxUssdDialRouteOptions, sandboxUssdDialRoute } from './sandbox-ussd-dials.ts';
import {
  type SandboxVirtualAccountPaymentRouteOptions,
  sandboxVirtualAccountPaymentRoute,
} from './sandbox-virtual-account-payments.ts';
import { type SandboxWebhookRouteOptions, sandboxWebhookRoute } from './sandbox-webhooks.ts';

export type SandboxControlRoutesOptions = SandboxNipOutcomeRouteOptions &
  SandboxNipReturnRouteOptions &
  SandboxNipRecallRouteOptions &
  SandboxBulkTransferRouteOptions &
  SandboxCreditRouteOptions &
  SandboxVirtualAccountPaymentRouteOptions &
  SandboxUssdDialRouteOptions &
  SandboxClockRouteOptions &
  SandboxWebhookRouteOptions &
  SandboxMessagesRouteOptions &
  SandboxMessageRouteOptions &
  SandboxFaultRoutesOptions &
  SandboxFixturesRouteOptions &
  SandboxResetRouteOptions;

/**
 * The sandbox's controls (docs/sandbox-testing-controls.md): the simulated networks' next
 * outcomes, payments, returns and recalls, the test clock, the webhook and message inboxes, faults, fixtures and the reset. In
 * production each answers SANDBOX_ONLY.
 */
export const sandboxControlRoutes: FastifyPluginAsyncTypebox<SandboxControlRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(sandboxNipOutcomeRoute, options);
  await app.register(sandboxNipReturnRoute, options);
  await app.register(sandboxNipRecallRoute, options);
  await app.register(sandboxBulkTransferRoute, options);
  await app.register(sandboxCreditRoute, options);
  await app.register(sandboxVirtualAccountPaymentRoute, options);
  await app.register(sandboxUssdDialRoute, options);
  await app.register(sandboxClockRoutes, options);
  await app.register(sandboxWebhookRoute, options);
  await app.register(sandboxMessagesRoute, options);
  await app.register(sandboxMessageRoute, options);
  await app.register(sandboxFaultRoutes, options);
  await app.register(sandboxFixturesRoutes, options);
  await app.register(sandboxResetRoute, options);
};

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AppRoutesOptions, appRoutes } from './apps.ts';
import { type ClientAccessRoutesOptions, clientAccessRoutes } from './client-access.ts';
import {
  type ClientCheckoutSettingsRoutesOptions,
  clientCheckoutSettingsRoutes,
} from './client-checkout-settings.ts';
import {
  type ClientIdentityVerificationsRouteOptions,
  clientIdentityVerificationsRoute,
} from './client-identity-verifications.ts';
import { type ClientRoutesOptions, clientRoutes } from './clients.ts';
import {
  type DashboardLoginLinkRouteOptions,
  dashboardLoginLinkRoute,
} from './dashboard-login-links.ts';
import { type DashboardSessionRouteOptions, dashboardSessionRoute } from './dashboard-sessions.ts';
import { type ListClientsRouteOptions, listClientsRoute } from './list-clients.ts';

export type ClientsAndAccessRoutesOptions = ClientRoutesOptions &
  ListClientsRouteOptions &
  AppRoutesOptions &
  ClientAccessRoutesOptions &
  DashboardLoginLinkRouteOptions &
  DashboardSessionRouteOptions &
  ClientIdentityVerificationsRouteOptions &
  ClientCheckoutSettingsRoutesOptions;

/**
 * Clients and who may act for them: onboarding, their apps and keys, their access, the
 * dashboard's sign-in links and sessions, their identity checks and checkout settings.
 */
export const clientsAndAccessRoutes: FastifyPluginAsyncTypebox<
  ClientsAndAccessRoutesOptions
> = async (app, options) => {
  await app.register(clientRoutes, options);
  await app.register(dashboardLoginLinkRoute, options);
  await app.register(dashboardSessionRoute, options);
  await app.register(listClientsRoute, options);
  await app.register(appRoutes, options);
  await app.register(clientAccessRoutes, options);
  await app.register(clientCheckoutSettingsRoutes, options);
  await app.register(clientIdentityVerificationsRoute, options);
};

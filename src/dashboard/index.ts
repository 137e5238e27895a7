/** The operator dashboard (/dashboard): server-rendered pages over the admin API. */

export { DASHBOARD_ACTIONS, type DashboardActionRoute } from './dashboard-actions.ts';
export { type DashboardOptions, dashboardRoutes } from './dashboard-routes.ts';
export { createLoginLinks, type LoginLinks } from './login-links.ts';

/** The operator dashboard (/dashboard): server-rendered pages over the admin API. */
export { type DashboardOptions, dashboardRoutes } from './dashboard-routes.ts';
export { createLoginLinks, type LoginLinks } from './login-links.ts';

import type { FastifyPluginAsync } from 'fastify';
import type { AdminAnswer, AdminApi } from './admin-call.ts';
import type { ToolsFor } from './page-tools.ts';
import { DASHBOARD_PATH } from './session.ts';

/** Every page file is a plugin handed the tools. */
export type DashboardPage = FastifyPluginAsync<{ readonly tools: ToolsFor }>;

export const clientPath = (clientId: string, suffix = '') =>
  `${DASHBOARD_PATH}/clients/${encodeURIComponent(clientId)}${suffix}`;

/** The route pattern of a client's page: `/dashboard/clients/:id<suffix>`. */
export const clientRoute = (suffix: string) => `${DASHBOARD_PATH}/clients/:id${suffix}`;

/** The client a page is about (its name heads the page). */
export function loadClient(
  admin: AdminApi,
  clientId: string,
): Promise<AdminAnswer<'GET /admin/clients/:id'>> {
  return admin.get('/admin/clients/:id', { params: { id: clientId } });
}

/** The query string of a list page, kept to the names it knows and to short values. */
export function listQuery(query: unknown, names: readonly string[]): Record<string, string> {
  const source = (query ?? {}) as Record<string, unknown>;
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = source[name];
    if (typeof value === 'string' && value !== '' && value.length <= 64) {
      kept[name] = value;
    }
  }
  return kept;
}

/** A form's string fields (formbody gives strings; anything else is dropped). */
export function formFields(body: unknown): Record<string, string> {
  const source = (body ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(source).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/** Naira typed in a form, as the admin API takes it; NaN when it is not a number. */
export function nairaField(value: string | undefined): number {
  const cleaned = (value ?? '').replace(/[,\s₦]/g, '');
  return /^\d+(\.\d{1,2})?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

export const PAGE_SIZE = '20';

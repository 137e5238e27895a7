import type { AdminData } from './admin-call.ts';
import { table, when } from './components.ts';
import type { Html } from './html.ts';

/** Audit events as the admin API answers them, newest first. */
export function auditTable(rows: AdminData<'GET /admin/audit-events'>, empty: string): Html {
  return table({
    caption: 'Audit events, newest first',
    columns: [
      { label: 'When', cell: (event) => when(event.at) },
      { label: 'Who', cell: (event) => event.actor },
      { label: 'What', cell: (event) => event.action },
      { label: 'Target', cell: (event) => event.target ?? '' },
      { label: 'Outcome', cell: (event) => event.outcome },
      { label: 'From', cell: (event) => event.sourceIp ?? '' },
    ],
    rows,
    empty,
  });
}

import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AuditLog } from '../../audit/index.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { parseDateRange } from '../../http/date-range.ts';
import { adminContract } from '../contract/index.ts';

export interface AuditExportRouteOptions {
  readonly auditLog: Pick<AuditLog, 'export'>;
}

const exportRows = adminContract['GET /admin/audit/export'];

/**
 * GET /admin/audit/export: the audit rows of a time range for an auditor, with each row's
 * prev_hash and hash, as CSV or JSON, streamed (docs/operations.md, "Exporting the trail").
 */
export const auditExportRoute: FastifyPluginAsyncTypebox<AuditExportRouteOptions> = async (
  app,
  { auditLog },
) => {
  app.get(
    '/admin/audit/export',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Export the audit trail with its hash chain (CSV or JSON, streamed)',
        querystring: exportRows.query,
        response: { 200: exportRows.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'json';
      const range = parseDateRange(request.query.from, request.query.to);
      return sendExport(reply, format, auditLog.export(range, format));
    },
  );
};

/** The stream as an attachment: its schema describes the rows, the stream is sent as it is. */
function sendExport(reply: FastifyReply, format: 'csv' | 'json', rows: Readable) {
  return reply
    .header('content-disposition', `attachment; filename="audit-events.${format}"`)
    .header('cache-control', 'no-store')
    .type(
      format === 'csv'
        ? 'text/csv; charset=utf-8; header=present'
        : 'application/json; charset=utf-8',
    )
    .send(rows);
}

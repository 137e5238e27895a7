import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuditLog, StoredAuditEvent } from '../../audit/index.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { parseDateRange } from '../../http/date-range.ts';
import { paged } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';

export interface AuditEventRoutesOptions {
  readonly auditLog: Pick<AuditLog, 'list'>;
}

const listEvents = adminContract['GET /admin/audit-events'];

/** GET /admin/audit-events: the audit trail, newest first, filtered. Read-only by design. */
export const auditEventRoutes: FastifyPluginAsyncTypebox<AuditEventRoutesOptions> = async (
  app,
  { auditLog },
) => {
  app.get(
    '/admin/audit-events',
    {
      schema: {
        tags: ['Admin'],
        summary: 'The audit trail: operator actions and security events',
        querystring: listEvents.query,
        response: {
          200: listEvents.answer,
          400: ErrorSchema,
          401: ErrorSchema,
        },
      },
    },
    async (request) => {
      const { page, limit, action, actor, target } = request.query;
      const { from, to } = parseDateRange(request.query.from, request.query.to);
      const { events, total } = await auditLog.list({
        action,
        actor,
        target,
        from,
        to,
        offset: page * limit,
        limit,
      });
      return paged('Audit events fetched successfully.', events.map(auditEventView), {
        page,
        limit,
        total,
      });
    },
  );
};

function auditEventView(event: StoredAuditEvent) {
  return {
    _id: event.id,
    at: event.at.toISOString(),
    actor: event.actor,
    action: event.action,
    target: event.target,
    outcome: event.outcome,
    sourceIp: event.sourceIp,
    requestId: event.requestId,
    details: { ...event.details },
  };
}

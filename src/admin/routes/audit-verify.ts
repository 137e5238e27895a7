import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type AuditLog, type ChainVerdict, parseRecordedHead } from '../../audit/index.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';

export interface AuditVerifyRouteOptions {
  readonly auditLog: Pick<AuditLog, 'verify'>;
}

const verifyChain = adminContract['GET /admin/audit/verify'];

/**
 * GET /admin/audit/verify: walks the audit trail's hash chain (as `openibs audit:verify`) and
 * answers the first break, or the row count and the head to copy out. It reads every row: for
 * an operator's check, not for polling.
 */
export const auditVerifyRoute: FastifyPluginAsyncTypebox<AuditVerifyRouteOptions> = async (
  app,
  { auditLog },
) => {
  app.get(
    '/admin/audit/verify',
    {
      schema: {
        tags: ['Admin'],
        summary: "Verify the audit trail's hash chain",
        querystring: verifyChain.query,
        response: { 200: verifyChain.answer, 400: ErrorSchema, 401: ErrorSchema },
      },
    },
    async (request) => {
      const { head } = request.query;
      const verdict = await auditLog.verify(
        head === undefined ? undefined : parseRecordedHead(head),
      );
      return ok(
        verdict.ok ? 'The audit chain is intact.' : 'The audit chain is broken.',
        verdictView(verdict),
      );
    },
  );
};

function verdictView(verdict: ChainVerdict) {
  if (!verdict.ok) {
    return { ok: false, rows: verdict.rows, head: null, broken: { ...verdict.broken } };
  }
  const head = verdict.head === null ? null : { _id: verdict.head.id, hash: verdict.head.hash };
  return { ok: true, rows: verdict.rows, head, broken: null };
}

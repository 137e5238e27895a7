import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  IdParams,
  pagedEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { parseDateRange } from '../../../http/date-range.ts';
import { paged } from '../../../http/envelope.ts';
import type { Limiter } from '../../../http/plugins/rate-limits.ts';
import { StatementDocumentQuery, StatementRowSchema } from '../account-schemas.ts';
import type { AccountService } from '../account-service.ts';
import { refuseTypeFilter, sendStatementDocument, statementFormat } from '../statement-document.ts';
import type { StatementBank } from '../statement-pdf.ts';
import { statementRowView } from '../statement-view.ts';

export interface GetStatementRouteOptions {
  readonly accountService: Pick<AccountService, 'statement' | 'statementExport'>;
  readonly institutionCode: string;
  readonly statementBank: StatementBank;
  /** Statement documents per client (each reads a whole range); the JSON page is not counted. */
  readonly statementExportLimit: Limiter;
}

export const getStatementRoute: FastifyPluginAsyncTypebox<GetStatementRouteOptions> = async (
  app,
  { accountService, statementBank, statementExportLimit },
) => {
  app.get(
    '/accounts/:id/statement',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Account statement, newest entry first, with the running balance',
        description:
          'A page of rows as JSON; or, with format=pdf|csv (or Accept: application/pdf|text/csv), every entry of the range as a streamed document, oldest first (docs/statements.md).',
        params: IdParams,
        querystring: StatementDocumentQuery,
        response: {
          200: pagedEnvelopeSchema(StatementRowSchema),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const { page, limit, fromDate, toDate, type, format } = request.query;
      const document = statementFormat(format, request.headers.accept);
      if (document !== 'json') {
        refuseTypeFilter(type);
        const range = parseDateRange(fromDate, toDate, 'Africa/Lagos');
        await statementExportLimit(request);
        const statement = await accountService.statementExport(
          request.principal,
          request.params.id,
          range,
        );
        return sendStatementDocument(reply, statement, document, statementBank);
      }
      const range = parseDateRange(fromDate, toDate);
      const { entries, total } = await accountService.statement(
        request.principal,
        request.params.id,
        {
          range,
          page,
          limit,
          ...(type === undefined ? {} : { type }),
        },
      );
      return paged('Statement fetched successfully.', entries.map(statementRowView), {
        page,
        limit,
        total,
      });
    },
  );
};

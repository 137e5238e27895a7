import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { parseDateRange } from '../../http/date-range.ts';
import { paged } from '../../http/envelope.ts';
import {
  type AccountService,
  refuseTypeFilter,
  type StatementBank,
  sendStatementDocument,
  statementFormat,
  statementRowView,
} from '../../modules/accounts/index.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import { adminContract } from '../contract/index.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema };
const statement = adminContract['GET /admin/clients/:id/accounts/:accountId/statement'];

export interface ClientAccountStatementRouteOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  readonly accountService: Pick<AccountService, 'statement' | 'statementExport'>;
  readonly statementBank: StatementBank;
}

/**
 * GET /admin/clients/:id/accounts/:accountId/statement: the statement the client reads at
 * GET /accounts/:id/statement, as a JSON page or a PDF or CSV document (the dashboard's
 * downloads). Another client's account answers as an unknown one.
 */
export const clientAccountStatementRoute: FastifyPluginAsyncTypebox<
  ClientAccountStatementRouteOptions
> = async (app, { clientService, accountService, statementBank }) => {
  app.get(
    '/admin/clients/:id/accounts/:accountId/statement',
    {
      schema: {
        tags: ['Admin'],
        summary: "A client's account statement, newest entry first, with the running balance",
        params: statement.params,
        querystring: statement.query,
        response: { 200: statement.answer, ...errors },
      },
    },
    async (request, reply) => {
      const client = await clientService.getClient(request.params.id);
      const { page, limit, fromDate, toDate, type, format } = request.query;
      const document = statementFormat(format, request.headers.accept);
      if (document !== 'json') {
        refuseTypeFilter(type);
        const range = parseDateRange(fromDate, toDate, 'Africa/Lagos');
        const exported = await accountService.statementExport(
          { clientId: client.id },
          request.params.accountId,
          range,
        );
        return sendStatementDocument(reply, exported, document, statementBank);
      }
      const range = parseDateRange(fromDate, toDate);
      const { entries, total } = await accountService.statement(
        { clientId: client.id },
        request.params.accountId,
        { range, page, limit, ...(type === undefined ? {} : { type }) },
      );
      return paged('Statement fetched successfully.', entries.map(statementRowView), {
        page,
        limit,
        total,
      });
    },
  );
};

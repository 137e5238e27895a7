import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  IdParams,
  pagedEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { parseDateRange } from '../../../http/date-range.ts';
import { paged } from '../../../http/envelope.ts';
import { StatementQuery, StatementRowSchema } from '../account-schemas.ts';
import type { AccountService } from '../account-service.ts';
import { statementRowView } from '../statement-view.ts';

export interface GetStatementRouteOptions {
  readonly accountService: Pick<AccountService, 'statement'>;
  readonly institutionCode: string;
}

export const getStatementRoute: FastifyPluginAsyncTypebox<GetStatementRouteOptions> = async (
  app,
  { accountService },
) => {
  app.get(
    '/accounts/:id/statement',
    {
      schema: {
        tags: ['Accounts'],
        summary: 'Account statement, newest entry first, with the running balance',
        params: IdParams,
        querystring: StatementQuery,
        response: {
          200: pagedEnvelopeSchema(StatementRowSchema),
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { page, limit, fromDate, toDate, type } = request.query;
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

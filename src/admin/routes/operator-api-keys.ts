import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorDirectory } from '../../auth/operator-directory.ts';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import { adminContract } from '../contract/index.ts';
import { callerOf, personalOperatorId } from '../operator-audit.ts';
import { operatorApiKeyView } from '../operator-view.ts';

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };
const mine = adminContract['GET /admin/operators/me/api-keys'];
const issueMine = adminContract['POST /admin/operators/me/api-keys'];
const revokeMine = adminContract['POST /admin/operators/me/api-keys/:keyId/revoke'];
const issueFirst = adminContract['POST /admin/operators/:id/api-keys'];
const revokeTheirs = adminContract['POST /admin/operators/:id/api-keys/:keyId/revoke'];

export interface OperatorApiKeyRoutesOptions {
  readonly operators: Pick<
    OperatorDirectory,
    'find' | 'issueApiKey' | 'listApiKeys' | 'revokeApiKey'
  >;
}

/**
 * Personal API keys for the admin API (docs/operators.md): each operator issues, lists and
 * revokes their own; the key is shown once. A key is personal, so nobody issues one for someone
 * else, with one exception: the break-glass caller issues the first admin's, to bootstrap a bank
 * that has no operator yet. Security revokes anyone's key (an incident).
 */
export const operatorApiKeyRoutes: FastifyPluginAsyncTypebox<OperatorApiKeyRoutesOptions> = async (
  app,
  { operators },
) => {
  app.get(
    '/admin/operators/me/api-keys',
    {
      schema: {
        tags: ['Admin'],
        summary: "The caller's API keys (never the keys themselves)",
        response: { 200: mine.answer, ...errors },
      },
    },
    async (request) => {
      const keys = await operators.listApiKeys(personalOperatorId(request));
      return ok('API keys fetched successfully.', keys.map(operatorApiKeyView));
    },
  );
  app.post(
    '/admin/operators/me/api-keys',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Issue an API key for the caller (shown once)',
        body: issueMine.body,
        response: { 201: issueMine.answer, ...errors },
      },
    },
    async (request, reply) => {
      const issued = await operators.issueApiKey(personalOperatorId(request), {
        name: request.body.name,
        days: request.body.expiresInDays,
      });
      const data = { key: operatorApiKeyView(issued.key), token: issued.token };
      return reply.status(201).send(ok('API key issued: keep it, it is shown once.', data, 201));
    },
  );
  app.post(
    '/admin/operators/me/api-keys/:keyId/revoke',
    {
      schema: {
        tags: ['Admin'],
        summary: "Revoke one of the caller's API keys",
        params: revokeMine.params,
        response: { 200: revokeMine.answer, ...errors },
      },
    },
    async (request) => {
      const key = await operators.revokeApiKey(personalOperatorId(request), request.params.keyId);
      if (key === undefined) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      return ok('API key revoked.', operatorApiKeyView(key));
    },
  );
  bootstrapAndIncidentRoutes(app, operators);
};

function bootstrapAndIncidentRoutes(
  app: Parameters<FastifyPluginAsyncTypebox>[0],
  operators: OperatorApiKeyRoutesOptions['operators'],
): void {
  app.post(
    '/admin/operators/:id/api-keys',
    {
      schema: {
        tags: ['Admin'],
        summary: "Break-glass only: issue an operator's first API key (bootstrap)",
        params: issueFirst.params,
        body: issueFirst.body,
        response: { 201: issueFirst.answer, ...errors },
      },
    },
    async (request, reply) => {
      if (callerOf(request).kind !== 'break-glass') {
        throw new AppError('FORBIDDEN', 'An API key is issued to its owner: they ask for it.');
      }
      if ((await operators.find(request.params.id)) === undefined) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      const issued = await operators.issueApiKey(request.params.id, {
        name: request.body.name,
        days: request.body.expiresInDays,
      });
      const data = { key: operatorApiKeyView(issued.key), token: issued.token };
      return reply
        .status(201)
        .send(ok('API key issued: hand it over, it is shown once.', data, 201));
    },
  );
  app.post(
    '/admin/operators/:id/api-keys/:keyId/revoke',
    {
      schema: {
        tags: ['Admin'],
        summary: "Revoke an operator's API key (role security)",
        params: revokeTheirs.params,
        response: { 200: revokeTheirs.answer, ...errors },
      },
    },
    async (request) => {
      const key = await operators.revokeApiKey(request.params.id, request.params.keyId);
      if (key === undefined) {
        throw new AppError('RECORD_NOT_FOUND');
      }
      return ok('API key revoked.', operatorApiKeyView(key));
    },
  );
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { byIp } from '../../http/plugins/rate-limits.ts';
import type { TokenService } from '../token-service.ts';

const TokenBody = Type.Object({
  grant_type: Type.Optional(
    Type.String({ examples: ['client_credentials', 'refresh_token'], maxLength: 64 }),
  ),
  client_id: Type.Optional(Type.String({ maxLength: 128 })),
  client_assertion: Type.Optional(Type.String({ maxLength: 16384 })),
  client_assertion_type: Type.Optional(Type.String({ maxLength: 128 })),
  refresh_token: Type.Optional(Type.String({ maxLength: 512 })),
});

const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  refresh_token: Type.String(),
  client_id: Type.String(),
  ibs_client_id: Type.String(),
  ibs_user_id: Type.String(),
});

/** POST /oauth2/token: JSON or form body, 201 on success, OAuth-shaped errors. */
export const tokenRoute: FastifyPluginAsyncTypebox<{
  tokenService: TokenService;
  /** Per IP address: every exchange and refresh counts (0: no limit). */
  tokenPerMinutePerIp: number;
}> = async (app, { tokenService, tokenPerMinutePerIp }) => {
  app.post(
    '/oauth2/token',
    {
      config: { limits: [{ name: 'token', max: tokenPerMinutePerIp, key: byIp }] },
      // Bad input on this route is an OAuth invalid_request, not the generic validation error.
      attachValidation: true,
      schema: {
        tags: ['Authentication'],
        summary: 'Exchange a client assertion for an access token, or refresh one',
        body: TokenBody,
        response: { 201: TokenResponse, 400: ErrorSchema, 401: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      if (request.validationError !== undefined) {
        throw new AppError('OAUTH_INVALID_REQUEST', request.validationError.message);
      }
      const tokens = await tokenService.exchange(request.body, { ip: request.ip, id: request.id });
      return reply.status(201).header('cache-control', 'no-store').send(tokens);
    },
  );
};

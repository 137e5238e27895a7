import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AUTHENTICATED_ERROR_RESPONSES, ErrorSchema } from '../../../http/common-schemas.ts';
import type { Clock } from '../../../shared/clock.ts';
import { newNipSessionId } from '../../../shared/ids.ts';
import type { VasCatalogueService } from '../vas-catalogue-service.ts';
import { VerificationSchema, VerifyBody } from '../vas-schemas.ts';
import { verificationView } from '../vas-view.ts';

export interface VerifyRouteOptions {
  readonly vasCatalogueService: Pick<VasCatalogueService, 'verify'>;
  readonly institutionCode: string;
  readonly clock: Clock;
}

/** The published answers: a meter's details, or a smart card's holder with a session id. */
export const verifyRoute: FastifyPluginAsyncTypebox<VerifyRouteOptions> = async (
  app,
  { vasCatalogueService, institutionCode, clock },
) => {
  app.post(
    '/vas/verify',
    {
      schema: {
        tags: ['VAS'],
        summary: 'Look up a meter (electricity) or a smart card (cable TV) before paying',
        body: VerifyBody,
        response: {
          200: Type.Object({
            statusCode: Type.Integer(),
            message: Type.String(),
            sessionId: Type.Optional(Type.String()),
            data: VerificationSchema,
          }),
          402: ErrorSchema,
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const { customer } = await vasCatalogueService.verify(request.body);
      return customer.kind === 'meter'
        ? {
            statusCode: 200,
            message: 'Power Data verified successfully.',
            data: verificationView(customer),
          }
        : {
            statusCode: 200,
            message: 'Cable TV number verified successfully.',
            sessionId: newNipSessionId(institutionCode, clock),
            data: verificationView(customer),
          };
    },
  );
};

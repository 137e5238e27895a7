import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  ErrorSchema,
  nibssEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { okNibss } from '../../../http/envelope.ts';
import type { NameEnquiryService } from '../name-enquiry/name-enquiry-service.ts';
import { nameEnquiryView } from '../name-enquiry/name-enquiry-view.ts';
import { NameEnquiryBody, NameEnquirySchema } from '../transfer-schemas.ts';

export interface NameEnquiryRouteOptions {
  readonly nameEnquiryService: NameEnquiryService;
}

export const nameEnquiryRoute: FastifyPluginAsyncTypebox<NameEnquiryRouteOptions> = async (
  app,
  { nameEnquiryService },
) => {
  app.post(
    '/transfers/name-enquiry',
    {
      schema: {
        tags: ['Transfers'],
        summary: "Resolve an account's name; its sessionId is the reference a transfer quotes",
        body: NameEnquiryBody,
        response: {
          200: nibssEnvelopeSchema(NameEnquirySchema),
          402: ErrorSchema,
          ...AUTHENTICATED_ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      const enquiry = await nameEnquiryService.enquire(request.principal, request.body);
      return okNibss('Account name retrieved successfully.', nameEnquiryView(enquiry));
    },
  );
};

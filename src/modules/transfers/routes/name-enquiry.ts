import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AUTHENTICATED_ERROR_RESPONSES,
  ErrorSchema,
  nibssEnvelopeSchema,
} from '../../../http/common-schemas.ts';
import { okNibss } from '../../../http/envelope.ts';
import type { EnumerationGuard } from '../../../http/plugins/enumeration-guard.ts';
import { byClient } from '../../../http/plugins/rate-limits.ts';
import type { NameEnquiryService } from '../name-enquiry/name-enquiry-service.ts';
import { nameEnquiryView } from '../name-enquiry/name-enquiry-view.ts';
import { NameEnquiryBody, NameEnquirySchema } from '../transfer-schemas.ts';

export interface NameEnquiryRouteOptions {
  readonly nameEnquiryService: NameEnquiryService;
  /** An enquiry shows a customer's name: a limit of its own per client (0: none). */
  readonly nameEnquiryPerMinutePerClient: number;
  /** Each client's enquiries for numbers that are no account, reported by the service. */
  readonly enquiryMisses: EnumerationGuard;
}

export const nameEnquiryRoute: FastifyPluginAsyncTypebox<NameEnquiryRouteOptions> = async (
  app,
  { nameEnquiryService, nameEnquiryPerMinutePerClient, enquiryMisses },
) => {
  app.post(
    '/transfers/name-enquiry',
    {
      config: {
        limits: [{ name: 'name-enquiry', max: nameEnquiryPerMinutePerClient, key: byClient }],
      },
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
      const enquiry = await nameEnquiryService.enquire(
        request.principal,
        request.body,
        enquiryMisses.of(request),
      );
      return okNibss('Account name retrieved successfully.', nameEnquiryView(enquiry));
    },
  );
};

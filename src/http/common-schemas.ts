import { type TSchema, Type } from 'typebox';
import { FREE_FORM_KEYWORD, FREE_FORM_LIMITS } from './free-form.ts';

export const PAGE_LIMIT_MAX = 100;

export function envelopeSchema<T extends TSchema>(data: T) {
  return Type.Object({
    statusCode: Type.Integer({ examples: [200] }),
    message: Type.String(),
    data,
  });
}

/**
 * Answers that carry a NIBSS result repeat its responseCode and responseMessage at the top level,
 * where clients decide success from (`"00"`); null while a transfer is still Processing.
 */
export function nibssEnvelopeSchema<T extends TSchema>(data: T) {
  return Type.Object({
    statusCode: Type.Integer({ examples: [200] }),
    message: Type.String(),
    responseCode: Type.Union([Type.String(), Type.Null()], { examples: ['00'] }),
    responseMessage: Type.Union([Type.String(), Type.Null()]),
    data,
  });
}

export const PaginationSchema = Type.Object({
  total: Type.Integer(),
  pages: Type.Integer(),
  page: Type.String({ description: 'Zero-based page, echoed as a string.' }),
  limit: Type.String({ description: 'Page size, echoed as a string.' }),
});

export function pagedEnvelopeSchema<T extends TSchema>(item: T) {
  return Type.Object({
    statusCode: Type.Integer({ examples: [200] }),
    message: Type.String(),
    data: Type.Array(item),
    pagination: PaginationSchema,
  });
}

/** `page` is zero-based; out-of-range values are refused, never clamped. */
export function paginationQuery(defaultLimit: number) {
  return {
    page: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
    limit: Type.Integer({ minimum: 1, maximum: PAGE_LIMIT_MAX, default: defaultLimit }),
  };
}

export const ErrorSchema = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
  error_description: Type.String(),
  code: Type.String(),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
});

/** Ids are matched by the service, so a malformed one answers "Unable to locate record". */
export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Calendar date (YYYY-MM-DD) or a full ISO-8601 timestamp. */
export const DateQuery = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2}))?$',
  examples: ['2025-03-03'],
});

/**
 * Free key-value pairs a client keeps on a record. A JSON-encoded object string is read as the
 * object (client-input.ts); every free-form object is bounded by FREE_FORM_LIMITS (free-form.ts).
 */
export const MetadataSchema = Type.Record(Type.String(), Type.Unknown(), {
  maxProperties: FREE_FORM_LIMITS.entries,
  propertyNames: { maxLength: 100 },
  [FREE_FORM_KEYWORD]: FREE_FORM_LIMITS,
  description: `Free key-value pairs: at most ${FREE_FORM_LIMITS.entries} keys of up to 100 characters, ${FREE_FORM_LIMITS.bytes} bytes as JSON, objects and lists nested at most ${FREE_FORM_LIMITS.depth} levels deep (this object is the first) with at most ${FREE_FORM_LIMITS.entries} entries each.`,
});

/** Errors every authenticated route can answer, for the OpenAPI document. */
export const AUTHENTICATED_ERROR_RESPONSES = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
};

/**
 * The bounds of every free-form object a request may carry (`metadata`, docs/api.md "What
 * clients send"): its size as JSON in UTF-8 bytes, how deep objects and lists nest in it (the
 * object itself is the first level), and how many entries any one object or list holds. Stored
 * as sent and echoed on every read, such an object must cost what a record costs, whoever sends
 * it (an unauthenticated checkout session included).
 */
export const FREE_FORM_LIMITS = { bytes: 8192, depth: 5, entries: 50 } as const;

type FreeFormLimits = { readonly bytes: number; readonly depth: number; readonly entries: number };

/** The schema keyword that applies the bounds (an OpenAPI extension, so the document stays valid). */
export const FREE_FORM_KEYWORD = 'x-free-form';

/** Why a free-form value is refused, as the message after its field's name; undefined if not. */
export function freeFormProblem(
  value: unknown,
  limits: FreeFormLimits = FREE_FORM_LIMITS,
): string | undefined {
  return (
    shapeProblem(value, 1, limits) ??
    (Buffer.byteLength(JSON.stringify(value)) > limits.bytes
      ? `must be at most ${limits.bytes} bytes as JSON`
      : undefined)
  );
}

function shapeProblem(value: unknown, level: number, limits: FreeFormLimits): string | undefined {
  if (value === null || typeof value !== 'object') {
    return undefined;
  }
  if (level > limits.depth) {
    return `must not nest objects or lists more than ${limits.depth} levels deep`;
  }
  const items = Array.isArray(value) ? value : Object.values(value);
  if (items.length > limits.entries) {
    return `must hold at most ${limits.entries} entries in any object or list`;
  }
  for (const item of items) {
    const problem = shapeProblem(item, level + 1, limits);
    if (problem !== undefined) {
      return problem;
    }
  }
  return undefined;
}

interface KeywordError {
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}
type KeywordCheck = ((limits: FreeFormLimits, data: unknown) => boolean) & {
  errors?: KeywordError[];
};

/**
 * The keyword for Ajv (validators.ts): a value it marks is refused as 400 VALIDATION_ERROR naming
 * its field, like any other schema error.
 */
export function freeFormKeyword() {
  const validate: KeywordCheck = (limits, data) => {
    const message = freeFormProblem(data, limits);
    validate.errors =
      message === undefined ? [] : [{ keyword: FREE_FORM_KEYWORD, message, params: {} }];
    return message === undefined;
  };
  return {
    keyword: FREE_FORM_KEYWORD,
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      required: ['bytes', 'depth', 'entries'],
      properties: {
        bytes: { type: 'integer' },
        depth: { type: 'integer' },
        entries: { type: 'integer' },
      },
    },
    errors: true,
    validate,
  };
}

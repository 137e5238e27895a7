/**
 * Text PostgreSQL cannot store: U+0000 (refused in `text` and in `jsonb`) and a UTF-16 surrogate
 * that is not half of a pair (it has no UTF-8 form). The edge refuses both in every input; the
 * audit trail escapes them instead, so that a hostile value is still recorded.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`, 'g');
const NUL_MESSAGE = 'must not contain NUL characters';

/** Why `text` cannot be stored, as the end of a validation message, or undefined. */
export function unstorableTextProblem(text: string): string | undefined {
  if (text.includes('\u0000')) {
    return NUL_MESSAGE;
  }
  return LONE_SURROGATE.test(text) ? 'must be valid Unicode text' : undefined;
}

/** Whether any string of a JSON-like value, object keys included, cannot be stored. */
export function holdsUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') {
    return unstorableTextProblem(value) !== undefined;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) {
    return false;
  }
  return Object.entries(value).some(
    ([key, item]) =>
      unstorableTextProblem(key) !== undefined || holdsUnstorableText(item, depth + 1),
  );
}

/** `text` with each unstorable character written as the six visible characters `\uXXXX`. */
export function escapeUnstorable(text: string): string {
  return text.replace(
    UNSTORABLE,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A JSON-like value with every string escaped, object keys included. Deeper than 32 levels the
 * rest is replaced by a marker: nothing we record is that deep, and nothing may make it fail.
 */
export function escapeUnstorableDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return escapeUnstorable(value);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    // A Date and the like: escaped as the JSON text it would have been stored as.
    return escapeUnstorableDeep((value as { toJSON(): unknown }).toJSON(), depth);
  }
  if (depth > MAX_DEPTH) {
    return '[too deep]';
  }
  if (Array.isArray(value)) {
    return value.map((item) => escapeUnstorableDeep(item, depth + 1));
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      escapeUnstorable(key),
      escapeUnstorableDeep(item, depth + 1),
    ]),
  );
}

const MAX_DEPTH = 32;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const LONE_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/**
 * Why percent-encoded text (a URL's query, a form body) cannot be read as text, or undefined: a
 * `%` without two hex digits, escaped bytes that are not UTF-8 (a surrogate, an overlong form, a
 * sequence cut short) or an escaped U+0000. Decoders that quietly keep such text as it is, or
 * turn it into U+FFFD, would otherwise hand a changed value on.
 */
export function percentEncodingProblem(text: string): string | undefined {
  if (!text.includes('%')) {
    return undefined;
  }
  if (LONE_PERCENT.test(text)) {
    return 'is not valid percent-encoding';
  }
  for (const [run] of text.matchAll(PERCENT_RUN)) {
    let decoded: string;
    try {
      decoded = STRICT_UTF8.decode(Buffer.from(run.replaceAll('%', ''), 'hex'));
    } catch {
      return 'must be valid UTF-8 text';
    }
    if (decoded.includes('\u0000')) {
      return NUL_MESSAGE;
    }
  }
  return undefined;
}

/** Bytes as UTF-8 text, or undefined when they are not valid UTF-8. */
export function decodeUtf8Strictly(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

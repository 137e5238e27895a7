/**
 * Fields of an admin answer never kept where others read it later (the audit trail, a held
 * action's result): keys, secrets, links that sign in, a sandbox fixture's private key.
 */
const SECRET_FIELD = /token|secret|ticket|password|private|^url$/i;

/** A copy of an answer's data with every field that could hold a secret replaced by `[redacted]`. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(withoutSecrets);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [
      name,
      SECRET_FIELD.test(name) && field !== null ? '[redacted]' : withoutSecrets(field),
    ]),
  );
}

import type { FastifyInstance } from 'fastify';
import type { OperatorIdentity } from '../auth/operator-directory.ts';

/** The fields of a customer's identity an operator who only reads sees masked. */
const IDENTITY_FIELDS = new Set(['phoneNumber', 'emailAddress', 'identityId']);

/** The roles whose work needs a customer's contact and identity in full. */
const SEES_IDENTITY = new Set(['support', 'finance', 'security', 'admin']);

/**
 * An operator who holds only `viewer` reads every answer with the customers' phone numbers,
 * email addresses and identity numbers masked (docs/operators.md, "Roles"): enough to tell
 * records apart, not enough to contact or impersonate anyone. Applied to the answer object
 * before it is serialized, for every admin route at once, so a new route cannot forget it;
 * streamed documents (statements, the audit export) carry none of these fields.
 */
export function maskIdentityForViewers(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, _reply, payload) =>
    readsOnly(request.operator) ? masked(payload) : payload,
  );
}

function readsOnly(operator: OperatorIdentity | null | undefined): boolean {
  return (
    operator !== null &&
    operator !== undefined &&
    !operator.roles.some((role) => SEES_IDENTITY.has(role))
  );
}

function masked(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(masked);
  }
  if (value === null || typeof value !== 'object' || value instanceof Date) {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value).map(([name, field]) => [
      name,
      IDENTITY_FIELDS.has(name) && typeof field === 'string' ? maskText(field) : masked(field),
    ]),
  );
}

/** `08031234567` → `•••••••4567`; `ada@example.com` → `a•••@example.com`. */
export function maskText(text: string): string {
  const at = text.indexOf('@');
  if (at > 0) {
    return `${text[0]}•••${text.slice(at)}`;
  }
  return text.length <= 4 ? '••••' : `${'•'.repeat(text.length - 4)}${text.slice(-4)}`;
}

import type { FastifyInstance, FastifyRequest } from 'fastify';

/** An admin API answer as the dashboard reads it. */
export interface AdminAnswer<T = unknown> {
  readonly statusCode: number;
  readonly ok: boolean;
  readonly message: string;
  readonly data: T;
  readonly pagination?: { total: number; pages: number; page: string; limit: string };
}

export type AdminCall = <T = unknown>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) => Promise<AdminAnswer<T>>;

/**
 * The dashboard reads and acts only through the admin API, in process: the same route, checks,
 * validation, rate limits, allow-list and audit trail as an operator's own call. The audit trail
 * records the signed-in operator's label and the browser's address.
 */
export function adminCaller(
  app: FastifyInstance,
  adminToken: string,
  request: FastifyRequest,
  operator: string,
): AdminCall {
  return async (method, url, payload) => {
    const response = await app.inject({
      method,
      url,
      remoteAddress: request.ip,
      headers: {
        authorization: `Bearer ${adminToken}`,
        'x-operator': operator,
        'x-request-id': request.id,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    const body = safeJson(response.body);
    return {
      statusCode: response.statusCode,
      ok: response.statusCode < 400,
      message: typeof body.message === 'string' ? body.message : `HTTP ${response.statusCode}`,
      data: body.data as never,
      ...(body.pagination === undefined ? {} : { pagination: body.pagination as never }),
    };
  };
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { adminRouteUrl } from '../contract/index.ts';
import type { Execute } from './approvals.ts';
import { APPROVAL_EXECUTION_HEADER } from './four-eyes.ts';

/**
 * Runs an approved request through the admin API in process, as its approver: their own
 * credential (the approval request's Authorization header) and address, so the action's route,
 * role check, validation and audit trail are the same as for any call, and the one-time
 * execution header lets it past four eyes.
 */
export function executeAs(app: FastifyInstance, approver: FastifyRequest): Execute {
  return async (approval, secret) => {
    const response = await app.inject({
      method: methodOf(approval.routeKey),
      url: adminRouteUrl(approval.routeKey, approval.params, approval.query),
      remoteAddress: approver.ip,
      headers: {
        authorization: approver.headers.authorization ?? '',
        'x-request-id': approver.id,
        [APPROVAL_EXECUTION_HEADER]: `${approval.id}.${secret}`,
        ...(approval.body === null ? {} : { 'content-type': 'application/json' }),
      },
      ...(approval.body === null ? {} : { payload: JSON.stringify(approval.body) }),
    });
    return { statusCode: response.statusCode, answer: parsed(response.body) };
  };
}

function methodOf(routeKey: string): 'POST' | 'PUT' | 'DELETE' {
  const method = routeKey.slice(0, routeKey.indexOf(' '));
  return method === 'PUT' || method === 'DELETE' ? method : 'POST';
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body.slice(0, 2000);
  }
}

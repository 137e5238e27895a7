import type { FastifyRequest } from 'fastify';
import type { OperatorIdentity } from '../../auth/operator-directory.ts';
import { AppError } from '../../errors/app-error.ts';

/** The authenticated operator of an admin call (requireOperator set it before any route ran). */
export function callingOperator(request: FastifyRequest): OperatorIdentity {
  if (request.operator === null) {
    throw new AppError('UNAUTHORIZED', 'A valid operator credential is required.');
  }
  return request.operator;
}

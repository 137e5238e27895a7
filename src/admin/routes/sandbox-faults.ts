import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, recordNotFound } from '../../errors/app-error.ts';
import { ErrorSchema } from '../../http/common-schemas.ts';
import { ok } from '../../http/envelope.ts';
import type { ClientService } from '../../modules/clients/index.ts';
import type { Fault, FaultTable } from '../../sandbox/faults/index.ts';
import { adminContract } from '../contract/index.ts';

export interface SandboxFaultRoutesOptions {
  readonly clientService: Pick<ClientService, 'getClient'>;
  /** The sandbox's fault table; undefined in production. */
  readonly sandboxFaults: FaultTable | undefined;
}

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };
const addFault = adminContract['POST /admin/sandbox/faults'];
const listFaults = adminContract['GET /admin/sandbox/faults'];
const clearFault = adminContract['DELETE /admin/sandbox/faults/:id'];
const clearFaults = adminContract['DELETE /admin/sandbox/faults'];

/**
 * /admin/sandbox/faults: make a client's calls to one route fail on purpose, the way networks
 * and servers fail (docs/sandbox-testing-controls.md), list the faults waiting, clear them.
 */
export const sandboxFaultRoutes: FastifyPluginAsyncTypebox<SandboxFaultRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(addAndListRoutes, options);
  await app.register(clearRoutes, options);
};

function tableOrRefuse(sandboxFaults: FaultTable | undefined): FaultTable {
  if (sandboxFaults === undefined) {
    throw new AppError('SANDBOX_ONLY');
  }
  return sandboxFaults;
}

const addAndListRoutes: FastifyPluginAsyncTypebox<SandboxFaultRoutesOptions> = async (
  app,
  { clientService, sandboxFaults },
) => {
  app.post(
    '/admin/sandbox/faults',
    {
      schema: {
        tags: ['Admin'],
        summary: "Sandbox: make a client's next calls to a route fail on purpose",
        body: addFault.body,
        response: { 201: addFault.answer, ...errors },
      },
    },
    async (request, reply) => {
      const table = tableOrRefuse(sandboxFaults);
      const client = await clientService.getClient(request.body.clientId);
      const fault = table.add({
        ...request.body,
        clientId: client.id,
        times: request.body.times ?? 1,
      });
      return reply.status(201).send(ok('Fault added successfully.', faultView(fault), 201));
    },
  );

  app.get(
    '/admin/sandbox/faults',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: the faults waiting, oldest first',
        querystring: listFaults.query,
        response: { 200: listFaults.answer, ...errors },
      },
    },
    async (request) =>
      ok(
        'Faults fetched successfully.',
        tableOrRefuse(sandboxFaults).list(request.query.clientId).map(faultView),
      ),
  );
};

const clearRoutes: FastifyPluginAsyncTypebox<SandboxFaultRoutesOptions> = async (
  app,
  { sandboxFaults },
) => {
  app.delete(
    '/admin/sandbox/faults/:id',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Sandbox: clear one fault',
        params: clearFault.params,
        response: { 200: clearFault.answer, ...errors },
      },
    },
    async (request) => {
      if (!tableOrRefuse(sandboxFaults).remove(request.params.id)) {
        throw recordNotFound();
      }
      return ok('Fault cleared successfully.', { cleared: 1 });
    },
  );

  app.delete(
    '/admin/sandbox/faults',
    {
      schema: {
        tags: ['Admin'],
        summary: "Sandbox: clear a client's faults, or every fault",
        querystring: clearFaults.query,
        response: { 200: clearFaults.answer, ...errors },
      },
    },
    async (request) => {
      const cleared = tableOrRefuse(sandboxFaults).clear(request.query.clientId);
      return ok('Faults cleared successfully.', { cleared });
    },
  );
};

function faultView(fault: Fault) {
  return {
    _id: fault.id,
    clientId: fault.clientId,
    route: fault.route,
    fault: fault.fault,
    times: fault.times,
    remaining: fault.remaining,
    retryAfterSeconds: fault.retryAfterSeconds,
    createdAt: fault.createdAt.toISOString(),
  };
}

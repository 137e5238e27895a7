import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type OperatorApiKeyRoutesOptions, operatorApiKeyRoutes } from './operator-api-keys.ts';
import { type OperatorRolesRouteOptions, operatorRolesRoute } from './operator-roles.ts';
import { type OperatorSelfRoutesOptions, operatorSelfRoutes } from './operator-self.ts';
import { type OperatorSessionsRouteOptions, operatorSessionsRoute } from './operator-sessions.ts';
import { type OperatorStatusRoutesOptions, operatorStatusRoutes } from './operator-status.ts';
import { type OperatorRoutesOptions, operatorRoutes } from './operators.ts';

export type OperatorsRoutesOptions = OperatorRoutesOptions &
  OperatorRolesRouteOptions &
  OperatorStatusRoutesOptions &
  OperatorSelfRoutesOptions &
  OperatorApiKeyRoutesOptions &
  OperatorSessionsRouteOptions;

/** The bank's operators: who they are, their roles, their keys and their sessions. */
export const operatorsRoutes: FastifyPluginAsyncTypebox<OperatorsRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(operatorRoutes, options);
  await app.register(operatorSelfRoutes, options);
  await app.register(operatorRolesRoute, options);
  await app.register(operatorStatusRoutes, options);
  await app.register(operatorApiKeyRoutes, options);
  await app.register(operatorSessionsRoute, options);
};

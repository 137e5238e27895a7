import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type OperatorSetupLinkRouteOptions,
  operatorSetupLinkRoute,
} from './operator-setup-links.ts';
import {
  type OperatorSignInResetRouteOptions,
  operatorSignInResetRoute,
} from './operator-sign-in-resets.ts';
import {
  type OperatorSignInUnlockRouteOptions,
  operatorSignInUnlockRoute,
} from './operator-sign-in-unlocks.ts';

export type OperatorSignInRoutesOptions = OperatorSetupLinkRouteOptions &
  OperatorSignInResetRouteOptions &
  OperatorSignInUnlockRouteOptions;

/** Local operators' sign-in, as other admins manage it: setup links, resets, unlocks. */
export const operatorSignInRoutes: FastifyPluginAsyncTypebox<OperatorSignInRoutesOptions> = async (
  app,
  options,
) => {
  await app.register(operatorSetupLinkRoute, options);
  await app.register(operatorSignInResetRoute, options);
  await app.register(operatorSignInUnlockRoute, options);
};

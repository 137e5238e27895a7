import type {
  FastifyPluginAsyncTypebox,
  TypeBoxTypeProvider,
} from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyPluginOptions,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TSchema } from 'typebox';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/db.ts';
import type { BatchKind } from '../ledger/batch.ts';
import type { Clock } from '../shared/clock.ts';
import type { PollLoopOptions } from '../shared/poll-loop.ts';
import type { LimitFactory } from './plugins/rate-limits.ts';

/**
 * What a module hands the wiring, from its public file (docs/architecture.md, "Module
 * descriptors"; docs/adr/0003-module-descriptors.md): how its services are built, its route
 * registrars with where they go and the options they take, and its background loops. app.ts
 * and background-workers.ts loop over the list of descriptors (src/descriptors.ts); services.ts
 * calls each `createServices` in dependency order, plugging one module's ports into another's.
 *
 * `Services` is the part of the service graph the module's routes and workers use, under the
 * graph's own names: the wiring hands every descriptor the whole graph, which has them all.
 */
export interface ModuleDescriptor<Services, ServiceDeps = never, Built = unknown> {
  /** The module's folder name, for the docs and the reader. */
  readonly name: string;
  /** Builds the module's services once, from the process's parts and other modules' ports. */
  readonly createServices?: (deps: ServiceDeps) => Built;
  readonly routes?: readonly ModuleRoutes<Services>[];
  readonly workers?: readonly ModuleWorker<Services>[];
  /**
   * The module's side of the batch contract (ledger/batch.ts): the kinds of money movement it
   * applies through the one runner, and the schemas of the claims its SQL decides on. Listed
   * here so the contract test checks every SQL function against its schema.
   */
  readonly batch?: {
    readonly kinds?: readonly BatchKind<TSchema, TSchema>[];
    readonly claims?: readonly TSchema[];
  };
}

/** What every module is built from. */
export interface CoreParts {
  readonly config: Config;
  readonly db: Db;
  /** The bank's clock: in the sandbox, the test clock. */
  readonly clock: Clock;
}

/** What the wiring hands a descriptor's routes and workers: the core parts and the services. */
export interface ProcessParts<Services> extends CoreParts {
  readonly services: Services;
}

/** For routes, the app's rate limits too: a route declares its own in `config.limits`. */
export interface RouteParts<Services> extends ProcessParts<Services> {
  readonly limit: LimitFactory;
}

/** For workers: where they report failed rounds, and real time for what the test clock must not move. */
export interface WorkerParts<Services> extends ProcessParts<Services> {
  readonly wallClock: Clock | undefined;
  readonly reporting: Required<Pick<PollLoopOptions, 'onError' | 'onRecovered'>>;
}

/**
 * Where a module's routes are registered: `public` at the root, with no access token (the
 * token endpoint, checkout's widget and hosted page); `api` behind the client's access token,
 * the API's per-client limit and the sandbox's faults.
 */
export type RouteScope = 'public' | 'api';

/** The instance a registrar is registered on (the app's type provider is TypeBox). */
export type RouteInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface ModuleRoutes<Services> {
  readonly scope: RouteScope;
  readonly register: (instance: RouteInstance, parts: RouteParts<Services>) => Promise<void>;
}

/** A module's registrar, in its scope, with the options it is given from the process's parts. */
export function moduleRoutes<Services, Options extends FastifyPluginOptions>(
  scope: RouteScope,
  registrar: FastifyPluginAsyncTypebox<Options>,
  options: (parts: RouteParts<Services>) => Options,
): ModuleRoutes<Services> {
  return {
    scope,
    register: async (instance, parts) => {
      await instance.register(registrar, options(parts));
    },
  };
}

/** A background loop as the wiring drives it (shared/poll-loop.ts). */
export interface BackgroundWorker {
  start(): void;
  /** Lets the round in progress finish, then stops (and lets go of what it holds). */
  stop(): Promise<void>;
  /** A round now; answers once a round that started after the call is done. */
  wake(): Promise<void>;
}

export interface ModuleWorker<Services> {
  /** Its name in logs and in `workers.start(names)` (docs/operations.md). */
  readonly name: string;
  /** Whether the server process runs it; the worker process (`npm run worker`) runs them all. */
  readonly inServer: (config: Config) => boolean;
  /** Woken after the others (webhook delivery: what their rounds wrote goes out in that wake). */
  readonly wakesLast?: boolean;
  readonly create: (parts: WorkerParts<Services>) => BackgroundWorker;
}

/**
 * The status-query loops' common settings (STATUS_QUERY_*): the NIP transfers' worker settings,
 * which the VAS, USSD and checkout loops share.
 */
export function statusQuerySettings(parts: WorkerParts<unknown>) {
  const settings = parts.config.transfers.statusQueryWorker;
  return {
    db: parts.db,
    clock: parts.clock,
    batchSize: settings.batchSize,
    pollIntervalMs: settings.pollIntervalMs,
    claimSeconds: settings.claimSeconds,
    ...parts.reporting,
  };
}

/** Whether the server runs the status-query loops (STATUS_QUERY_WORKER_ENABLED). */
export const statusQueriesInServer = (config: Config): boolean =>
  config.transfers.statusQueryWorker.enabled;

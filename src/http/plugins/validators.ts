import {
  AjvCompiler,
  type BuildCompilerFromPool,
  type RouteDefinition,
} from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { freeFormKeyword } from '../free-form.ts';

// The library's declared types describe a compiler of schemas; at run time Fastify passes it
// the route definition (schema and httpPart), which is what this factory needs.
type RouteValidatorBuilder = (route: RouteDefinition) => unknown;
type AjvServerOptions = { customOptions?: Record<string, unknown> } & Record<string, unknown>;
type PoolFactory = (
  externalSchemas: Parameters<BuildCompilerFromPool>[0],
  options?: AjvServerOptions,
) => RouteValidatorBuilder;

/**
 * Two validators. Query strings, path parameters and headers arrive as text, so they are coerced
 * to the schema's types. JSON bodies carry their own types and are taken as sent: `amount: "1"`,
 * `amount: [1]` and `saveBeneficiary: 1` are refused, never converted. Both refuse NaN and
 * Infinity (`strictNumbers`), and both know the keyword that bounds free-form objects
 * (free-form.ts).
 */
export function createValidatorFactory(): BuildCompilerFromPool {
  const pool = AjvCompiler() as unknown as PoolFactory;
  const factory: PoolFactory = (externalSchemas, options) => {
    const customOptions = {
      ...options?.customOptions,
      strictNumbers: true,
      keywords: [freeFormKeyword()],
    };
    const coercing = pool(externalSchemas, { ...options, customOptions });
    const typed = pool(externalSchemas, {
      ...options,
      customOptions: { ...customOptions, coerceTypes: false },
    });
    return (route) =>
      lazyValidator(() => (route.httpPart === 'body' ? typed(route) : coercing(route)));
  };
  return factory as unknown as BuildCompilerFromPool;
}

/**
 * Serializers by schema, as Fastify makes them by default, compiled on a route's first answer.
 * Compiling every route's validators and serializers at start was a third of a sandbox's start
 * (docs/testing-with-openibs.md); a test suite calls a few dozen of the hundred routes, and a
 * route's first request pays a few milliseconds instead.
 */
export function createSerializerFactory(): ReturnType<typeof SerializerSelector> {
  const eager = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = eager(externalSchemas, options);
    return (route) => {
      let serialize: ((doc: unknown) => string) | undefined;
      return (doc) => {
        serialize ??= compile(route);
        return serialize(doc);
      };
    };
  };
}

type AjvValidate = ((data: unknown, context?: unknown) => unknown) & {
  errors?: unknown;
  schemaEnv?: unknown;
};

/**
 * An Ajv validator compiled on first use. Fastify reads `schemaEnv` (to let Ajv coerce the root
 * value) and, after a failure, `errors`: both come from the compiled validator.
 */
function lazyValidator(compile: () => unknown): AjvValidate {
  let compiled: AjvValidate | undefined;
  const validator = () => {
    compiled ??= compile() as AjvValidate;
    return compiled;
  };
  const validate = ((data: unknown, context?: unknown) =>
    context === undefined ? validator()(data) : validator()(data, context)) as AjvValidate;
  Object.defineProperties(validate, {
    schemaEnv: { get: () => validator().schemaEnv },
    errors: { get: () => compiled?.errors },
  });
  return validate;
}

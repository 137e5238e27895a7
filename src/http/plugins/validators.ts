import {
  AjvCompiler,
  type BuildCompilerFromPool,
  type RouteDefinition,
} from '@fastify/ajv-compiler';
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
    return (route) => (route.httpPart === 'body' ? typed(route) : coercing(route));
  };
  return factory as unknown as BuildCompilerFromPool;
}

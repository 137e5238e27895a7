import type { Static, TSchema } from 'typebox';
import type { adminContract } from './admin-contract.ts';

type Contract = typeof adminContract;

/** An admin route by method and path: `'GET /admin/clients/:id'`. */
export type AdminRouteKey = keyof Contract;

export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The paths of the admin routes a method reaches. */
export type AdminPath<M extends AdminMethod> = AdminRouteKey extends infer Key
  ? Key extends `${M} ${infer Path}`
    ? Path
    : never
  : never;

/** The route a method and a path name. */
export type AdminRouteOf<M extends AdminMethod, P extends string> = Extract<
  AdminRouteKey,
  `${M} ${P}`
>;

type Part<K extends AdminRouteKey, Name extends 'params' | 'query' | 'body'> = Contract[K] extends {
  readonly [N in Name]: infer Schema extends TSchema;
}
  ? Static<Schema>
  : never;

/**
 * A value the admin API validates, as a caller may hold it: a choice among words is any text (a
 * form's field passes through, and the admin API answers what is wrong with it).
 */
type AsTyped<T> = T extends string
  ? string
  : T extends readonly (infer Item)[]
    ? AsTyped<Item>[]
    : T extends object
      ? { [Name in keyof T]: AsTyped<T[Name]> }
      : T;

/** What a call sends: the path's parameters, the query (text, as a query string is) and the body. */
export type AdminRequest<K extends AdminRouteKey> = ([Part<K, 'params'>] extends [never]
  ? unknown
  : { readonly params: Part<K, 'params'> }) &
  ([Part<K, 'query'>] extends [never]
    ? unknown
    : { readonly query?: { readonly [Name in keyof Part<K, 'query'>]?: string | number } }) &
  ([Part<K, 'body'>] extends [never] ? unknown : { readonly body: AsTyped<Part<K, 'body'>> });

/** The schema of a route's success answer. */
export type AdminAnswerSchema<K extends AdminRouteKey> = Contract[K]['answer'];

/** A route's success answer, whole: `statusCode`, `message`, `data` (and `pagination`). */
export type AdminAnswerBody<K extends AdminRouteKey> = Static<AdminAnswerSchema<K>>;

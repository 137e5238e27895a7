import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Value } from 'typebox/value';
import {
  type AdminAnswerBody,
  type AdminAnswerSchema,
  type AdminMethod,
  type AdminPath,
  type AdminRequest,
  type AdminRouteKey,
  type AdminRouteOf,
  adminContract,
  PendingApprovalAnswer,
} from '../admin/contract/index.ts';

/** Each route's answer schema, indexed so that a route's type picks its own schema. */
const answers: {
  readonly [K in AdminRouteKey]: { readonly answer: AdminAnswerSchema<K> };
} = adminContract;

/** A success: the route's whole answer as its contract says (checked when it arrives). */
export type AdminSuccess<K extends AdminRouteKey> = AdminAnswerBody<K> & {
  readonly ok: true;
  readonly statusCode: number;
};

/**
 * A refusal or a failure, as the admin API worded it; or (202, `approvalId`) an action held
 * under four eyes until another operator approves it: not done, and not an error.
 */
export interface AdminFailure {
  readonly ok: false;
  readonly statusCode: number;
  readonly message: string;
  readonly approvalId?: string;
}

export type AdminAnswer<K extends AdminRouteKey> = AdminSuccess<K> | AdminFailure;

/** A document as the admin API streams it, with the headers that name it. */
export interface AdminDownload {
  readonly ok: true;
  readonly contentType: string;
  readonly disposition: string;
  readonly body: NodeJS.ReadableStream;
}

/** What every answer tells, whichever the route: whether it worked, and in the API's words. */
export interface AdminOutcome {
  readonly ok: boolean;
  readonly statusCode: number;
  readonly message: string;
}

/** The `data` of a route's success answer. */
export type AdminData<K extends AdminRouteKey> =
  AdminAnswerBody<K> extends { readonly data: infer Data } ? Data : never;

/** The request argument: left out when the route needs nothing (no parameters, no body). */
type RequestArgs<K extends AdminRouteKey> =
  Partial<AdminRequest<K>> extends AdminRequest<K>
    ? [request?: AdminRequest<K>]
    : [request: AdminRequest<K>];

type Call<M extends AdminMethod> = <P extends AdminPath<M>>(
  path: P,
  ...request: RequestArgs<AdminRouteOf<M, P>>
) => Promise<AdminAnswer<AdminRouteOf<M, P>>>;

/**
 * The admin API as the dashboard calls it: a method per HTTP method, the route's path as the
 * contract names it (`'/admin/clients/:id'`), and its parameters, query and body. The contract
 * types each: a changed admin answer breaks the dashboard's build.
 */
export interface AdminApi {
  /**
   * A GET whose success is a document (a statement's PDF or CSV), handed on as the admin API
   * streams it, never held whole; a refusal as any other call's.
   */
  readonly download: <P extends AdminPath<'GET'>>(
    path: P,
    ...request: RequestArgs<AdminRouteOf<'GET', P>>
  ) => Promise<AdminDownload | AdminFailure>;
  readonly get: Call<'GET'>;
  readonly post: Call<'POST'>;
  readonly put: Call<'PUT'>;
  readonly delete: Call<'DELETE'>;
}

/**
 * The dashboard reads and acts only through the admin API, in process: the same route, checks,
 * validation, rate limits, allow-list, roles and audit trail as an operator's own call: it
 * carries the signed-in session as its credential, so the admin API finds the operator (and
 * their roles) itself, and the audit trail records them and the browser's address.
 */
export function adminCaller(
  app: FastifyInstance,
  credential: string,
  request: FastifyRequest,
): AdminApi {
  const call = async <M extends AdminMethod, P extends AdminPath<M>>(
    method: M,
    path: P,
    parts: unknown,
  ): Promise<AdminAnswer<AdminRouteOf<M, P>>> => {
    const route = routeOf(method, path);
    const { url, payload } = requestOf(path, parts);
    const response = await app.inject({
      method,
      url,
      remoteAddress: request.ip,
      headers: {
        authorization: `Bearer ${credential}`,
        'x-request-id': request.id,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
    const body = safeJson(response.body);
    const message = typeof body.message === 'string' ? body.message : `HTTP ${response.statusCode}`;
    if (response.statusCode >= 400) {
      return { ok: false, statusCode: response.statusCode, message };
    }
    const held = heldForApproval(response.statusCode, body);
    if (held !== undefined && (route === undefined || !Value.Check(answers[route].answer, body))) {
      return { ok: false, statusCode: 202, message, approvalId: held };
    }
    if (route === undefined || !Value.Check(answers[route].answer, body)) {
      // The admin route and the contract disagree: a bug, shown as a failure, never half a page.
      request.log.error({ route: `${method} ${path}` }, 'admin answer outside its contract');
      return {
        ok: false,
        statusCode: 502,
        message: `${method} ${path} answered outside its contract`,
      };
    }
    return { ...body, ok: true, statusCode: response.statusCode };
  };
  const download = downloader(app, credential, request);
  return {
    download: (path, ...[parts]) => download(path, parts),
    get: (path, ...[parts]) => call('GET', path, parts),
    post: (path, ...[parts]) => call('POST', path, parts),
    put: (path, ...[parts]) => call('PUT', path, parts),
    delete: (path, ...[parts]) => call('DELETE', path, parts),
  };
}

/** The admin API's GET of a document, streamed through (see `AdminApi.download`). */
function downloader(app: FastifyInstance, credential: string, request: FastifyRequest) {
  return async (path: string, parts: unknown): Promise<AdminDownload | AdminFailure> => {
    const response = await app.inject({
      method: 'GET',
      url: requestOf(path, parts).url,
      remoteAddress: request.ip,
      headers: {
        authorization: `Bearer ${credential}`,
        'x-request-id': request.id,
      },
      payloadAsStream: true,
    });
    const body = response.stream();
    if (response.statusCode >= 400) {
      const chunks: Buffer[] = [];
      for await (const chunk of body) {
        chunks.push(Buffer.from(chunk as Uint8Array));
      }
      const answer = safeJson(Buffer.concat(chunks).toString('utf8'));
      const message =
        typeof answer.message === 'string' ? answer.message : `HTTP ${response.statusCode}`;
      return { ok: false, statusCode: response.statusCode, message };
    }
    return {
      ok: true,
      contentType: String(response.headers['content-type'] ?? 'application/octet-stream'),
      disposition: String(response.headers['content-disposition'] ?? 'attachment'),
      body,
    };
  };
}

/** The contract's key of a method and a path (checked: the path is a route of the contract). */
function routeOf<M extends AdminMethod, P extends AdminPath<M>>(
  method: M,
  path: P,
): AdminRouteOf<M, P> | undefined {
  const key = `${method} ${path}`;
  return isRouteOf(key, method, path) ? key : undefined;
}

function isRouteOf<M extends AdminMethod, P extends AdminPath<M>>(
  key: string,
  method: M,
  path: P,
): key is AdminRouteOf<M, P> {
  return key === `${method} ${path}` && Object.hasOwn(adminContract, key);
}

/** The URL (path parameters filled in, the query appended) and the JSON body of a call. */
function requestOf(path: string, parts: unknown): { url: string; payload?: string } {
  const { params, query, body } = isRecord(parts) ? parts : {};
  const filled = path.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    encodeURIComponent(text(isRecord(params) ? params[name] : undefined)),
  );
  const search = new URLSearchParams(
    Object.entries(isRecord(query) ? query : {})
      .filter((entry) => entry[1] !== undefined)
      .map(([name, value]): [string, string] => [name, text(value)]),
  ).toString();
  return {
    url: search === '' ? filled : `${filled}?${search}`,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  };
}

/** The approval's id when the admin API held the action under four eyes (docs/operators.md). */
function heldForApproval(statusCode: number, body: unknown): string | undefined {
  return statusCode === 202 && Value.Check(PendingApprovalAnswer, body)
    ? body.data.approvalId
    : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function safeJson(text: string): Readonly<Record<string, unknown>> {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * Building blocks of the endpoint methods: one resource kind per file uses these to list, get, create, update and
 * delete through the request engine, with the flavor's paths. Bodies are checked before anything is sent.
 */
import type { z } from 'zod';
import { pathParamIssues, type PathParam } from '../connection';
import type { ApiResponse, ListResponse, PageOptions, RequestEngine, RequestOptions } from '../engine';
import { invalidInput, zodIssues } from '../engine';
import type { ResourceKind, ResourceScope } from '../flavor';
import { followServer } from '../../schema/serverRules';

/** Where the resources of one service live, and the path parameters that name it (checked before sending). */
export interface ServiceContext {
  engine: RequestEngine;
  scope: ResourceScope;
  params: readonly PathParam[];
}

/** The path parameters of a service context plus one resource ID. */
export function withId(ctx: ServiceContext, name: string, id: string): PathParam[] {
  return [...ctx.params, { name, kind: 'resourceId', value: id }];
}

/** Validates path parameters and a request body; returns the body to send. */
export function checkBody<S extends z.ZodType>(
  operation: string,
  method: string,
  schema: S,
  body: unknown,
  params: readonly PathParam[],
): z.output<S> {
  const issues = pathParamIssues(params);
  const parsed = schema.safeParse(body);
  if (!parsed.success) issues.push(...zodIssues(parsed.error));
  if (issues.length > 0) throw invalidInput(operation, method, issues);
  return parsed.data as z.output<S>;
}

/** A whole list; `paging` only for lists whose API declares `limit`/`offset`. */
export async function listResources<T>(
  ctx: ServiceContext,
  operation: string,
  kind: ResourceKind,
  item: z.ZodType<T>,
  paging: (PageOptions & RequestOptions) | undefined,
  opts: RequestOptions | undefined,
): Promise<ListResponse<T>> {
  const path = ctx.engine.flavor.resourcePath(ctx.scope, kind);
  return ctx.engine.readList({ operation, path, item, params: ctx.params, ...(paging ? { paging } : {}) }, opts);
}

export async function getResource<T>(
  ctx: ServiceContext,
  operation: string,
  kind: ResourceKind,
  idName: string,
  id: string,
  result: z.ZodType<T>,
  opts: RequestOptions | undefined,
): Promise<ApiResponse<T>> {
  return ctx.engine.call(
    {
      operation,
      method: 'GET',
      path: ctx.engine.flavor.resourcePath(ctx.scope, kind, id),
      result,
      retry: 'idempotent',
      params: withId(ctx, idName, id),
    },
    opts,
  );
}

/** The kinds of body whose checks follow the server (schema/serverRules.ts), by their collection. */
const RULED_KINDS: Partial<Record<ResourceKind, string>> = { dashboards: 'dashboard', alerts: 'alert' };

/**
 * A body the schema refuses only for what a self-hosted deployment's newer versions accept (a series `aggFn:
 * "increase"`, newer filter types, inline alerts) is sent as written: that server decides. Anything else is checked.
 */
function checkBodyFor<S extends z.ZodType>(
  ctx: ServiceContext,
  kind: ResourceKind,
  operation: string,
  method: string,
  schema: S,
  body: unknown,
  params: readonly PathParam[],
): z.output<S> {
  const ruled = RULED_KINDS[kind];
  if (ruled && ctx.engine.flavor.kind === 'oss' && pathParamIssues(params).length === 0) {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({
        path: i.path.map((p) => (typeof p === 'number' ? p : String(p))),
        message: i.message,
        severity: 'error' as const,
      }));
      if (!followServer(ruled, body, issues, 'selfHosted').some((i) => i.severity === 'error')) {
        return body as z.output<S>;
      }
    }
  }
  return checkBody(operation, method, schema, body, params);
}

/** Checks a body with its path parameters, then sends it once per attempt the retry policy allows. */
async function sendBody<T>(
  ctx: ServiceContext,
  operation: string,
  target: {
    method: 'POST' | 'PUT';
    path: string;
    params: readonly PathParam[];
    retry: 'unsafe' | 'idempotent';
    kind: ResourceKind;
  },
  schema: z.ZodType,
  body: unknown,
  result: z.ZodType<T>,
  opts: RequestOptions | undefined,
): Promise<ApiResponse<T>> {
  const { kind, ...request } = target;
  const checked = checkBodyFor(ctx, kind, operation, request.method, schema, body, request.params);
  return ctx.engine.call({ operation, ...request, body: checked, result }, opts);
}

/** POST to the collection; sent once unless the server cannot have acted. */
export async function createResource<T>(
  ctx: ServiceContext,
  operation: string,
  kind: ResourceKind,
  schema: z.ZodType,
  body: unknown,
  result: z.ZodType<T>,
  opts: RequestOptions | undefined,
): Promise<ApiResponse<T>> {
  const path = ctx.engine.flavor.resourcePath(ctx.scope, kind);
  return sendBody(
    ctx,
    operation,
    { method: 'POST', path, params: ctx.params, retry: 'unsafe', kind },
    schema,
    body,
    result,
    opts,
  );
}

/** PUT to one resource (a replace: sending it twice is harmless). */
export async function updateResource<T>(
  ctx: ServiceContext,
  operation: string,
  kind: ResourceKind,
  idName: string,
  id: string,
  schema: z.ZodType,
  body: unknown,
  result: z.ZodType<T>,
  opts: RequestOptions | undefined,
): Promise<ApiResponse<T>> {
  const target = {
    method: 'PUT' as const,
    path: ctx.engine.flavor.resourcePath(ctx.scope, kind, id),
    params: withId(ctx, idName, id),
    retry: 'idempotent' as const,
    kind,
  };
  return sendBody(ctx, operation, target, schema, body, result, opts);
}

export async function deleteResource(
  ctx: ServiceContext,
  operation: string,
  kind: ResourceKind,
  idName: string,
  id: string,
  opts: RequestOptions | undefined,
): Promise<ApiResponse<void>> {
  return ctx.engine.call<void>(
    {
      operation,
      method: 'DELETE',
      path: ctx.engine.flavor.resourcePath(ctx.scope, kind, id),
      result: null,
      retry: 'idempotent',
      params: withId(ctx, idName, id),
    },
    opts,
  );
}

/** What one resource kind needs for its CRUD endpoints; operation names are built from `noun` and `plural`. */
export interface ResourceSpec<T> {
  kind: ResourceKind;
  /** Singular, lower case: "saved search". */
  noun: string;
  /** Plural, lower case: "saved searches". */
  plural: string;
  /** The name of the resource ID among the path parameters ("savedSearchId"). */
  idName: string;
  item: z.ZodType<T>;
  /** Checks create bodies. */
  create: z.ZodType;
  /** Checks update bodies; default `create`. */
  update?: z.ZodType;
}

/** Endpoint functions of one resource kind (body types: C on create, U on update). */
export interface ResourceEndpoints<T, C, U> {
  /** The whole list in one request (for lists whose API declares no paging). */
  list(ctx: ServiceContext, opts?: RequestOptions): Promise<ListResponse<T>>;
  /** The whole list, page by page (`limit`/`offset`). */
  listPaged(
    ctx: ServiceContext,
    paging?: PageOptions & RequestOptions,
    opts?: RequestOptions,
  ): Promise<ListResponse<T>>;
  get(ctx: ServiceContext, id: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  create(ctx: ServiceContext, body: C, opts?: RequestOptions): Promise<ApiResponse<T>>;
  update(ctx: ServiceContext, id: string, body: U, opts?: RequestOptions): Promise<ApiResponse<T>>;
  delete(ctx: ServiceContext, id: string, opts?: RequestOptions): Promise<ApiResponse<void>>;
}

/** The list, get, create, update and delete functions of one resource kind. */
export function resourceEndpoints<T, C, U = C>(spec: ResourceSpec<T>): ResourceEndpoints<T, C, U> {
  const { kind, noun, plural, idName, item } = spec;
  return {
    list: (ctx, opts) => listResources(ctx, `List ${plural}`, kind, item, undefined, opts),
    listPaged: (ctx, paging, opts) => listResources(ctx, `List ${plural}`, kind, item, paging ?? {}, opts),
    get: (ctx, id, opts) => getResource(ctx, `Get ${noun}`, kind, idName, id, item, opts),
    create: (ctx, body, opts) => createResource(ctx, `Create ${noun}`, kind, spec.create, body, item, opts),
    update: (ctx, id, body, opts) =>
      updateResource(ctx, `Update ${noun}`, kind, idName, id, spec.update ?? spec.create, body, item, opts),
    delete: (ctx, id, opts) => deleteResource(ctx, `Delete ${noun}`, kind, idName, id, opts),
  };
}

/** The service query endpoint of the cloud API (`/v1/organizations/{org}/services/{svc}/serviceQueryEndpoint`). */
import {
  queryEndpointSchema,
  queryEndpointWriteSchema,
  type QueryEndpoint,
  type QueryEndpointWrite,
} from '../../schema';
import { cloudOrgPath } from '../cloudFlavor';
import type { ApiResponse, RequestOptions } from '../engine';
import { checkBody, type ServiceContext } from './common';

function path(ctx: ServiceContext): string {
  return cloudOrgPath(ctx.scope.organizationId ?? '', 'services', ctx.scope.serviceId ?? '', 'serviceQueryEndpoint');
}

/** The service query endpoint, or `data: null` when none is configured (the server answers 404). */
export async function getQueryEndpoint(
  ctx: ServiceContext,
  opts?: RequestOptions,
): Promise<ApiResponse<QueryEndpoint | null>> {
  return ctx.engine.call<QueryEndpoint | null>(
    {
      operation: 'Get query endpoint',
      method: 'GET',
      path: path(ctx),
      result: queryEndpointSchema,
      retry: 'idempotent',
      onNotFound: 'null',
      params: ctx.params,
    },
    opts,
  );
}

/** Creates the service query endpoint, or updates it in place. */
export async function upsertQueryEndpoint(
  ctx: ServiceContext,
  body: QueryEndpointWrite,
  opts?: RequestOptions,
): Promise<ApiResponse<QueryEndpoint>> {
  const checked = checkBody('Save query endpoint', 'POST', queryEndpointWriteSchema, body, ctx.params);
  return ctx.engine.call(
    {
      operation: 'Save query endpoint',
      method: 'POST',
      path: path(ctx),
      body: checked,
      result: queryEndpointSchema,
      retry: 'unsafe',
      params: ctx.params,
    },
    opts,
  );
}

/** Removes the service query endpoint; succeeds when there is none (404). */
export async function deleteQueryEndpoint(ctx: ServiceContext, opts?: RequestOptions): Promise<ApiResponse<void>> {
  return ctx.engine.call<void>(
    {
      operation: 'Delete query endpoint',
      method: 'DELETE',
      path: path(ctx),
      result: null,
      retry: 'idempotent',
      onNotFound: 'success',
      params: ctx.params,
    },
    opts,
  );
}

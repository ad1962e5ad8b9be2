/** Dashboards: list (one request, the API declares no paging), get, create, update, delete, validate. */
import type { z } from 'zod';
import {
  dashboardSchema,
  dashboardUpdateSchema,
  dashboardValidationSchema,
  dashboardWriteSchema,
  type Dashboard,
  type DashboardWrite,
} from '../../schema';
import type { ApiResponse, ListResponse, RequestOptions } from '../engine';
import { invalidInput } from '../engine';
import {
  createResource,
  deleteResource,
  getResource,
  listResources,
  updateResource,
  type ServiceContext,
} from './common';

const ID = 'dashboardId';

export async function listDashboards(ctx: ServiceContext, opts?: RequestOptions): Promise<ListResponse<Dashboard>> {
  return listResources(ctx, 'List dashboards', 'dashboards', dashboardSchema, undefined, opts);
}

export async function getDashboard(
  ctx: ServiceContext,
  id: string,
  opts?: RequestOptions,
): Promise<ApiResponse<Dashboard>> {
  return getResource(ctx, 'Get dashboard', 'dashboards', ID, id, dashboardSchema, opts);
}

export async function createDashboard(
  ctx: ServiceContext,
  body: DashboardWrite,
  opts?: RequestOptions,
): Promise<ApiResponse<Dashboard>> {
  return createResource(ctx, 'Create dashboard', 'dashboards', dashboardWriteSchema, body, dashboardSchema, opts);
}

export async function updateDashboard(
  ctx: ServiceContext,
  id: string,
  body: z.input<typeof dashboardUpdateSchema>,
  opts?: RequestOptions,
): Promise<ApiResponse<Dashboard>> {
  return updateResource(
    ctx,
    'Update dashboard',
    'dashboards',
    ID,
    id,
    dashboardUpdateSchema,
    body,
    dashboardSchema,
    opts,
  );
}

export async function deleteDashboard(
  ctx: ServiceContext,
  id: string,
  opts?: RequestOptions,
): Promise<ApiResponse<void>> {
  return deleteResource(ctx, 'Delete dashboard', 'dashboards', ID, id, opts);
}

/**
 * Asks the server to check a dashboard without saving it. The body goes to the server as given (it only has to be a
 * JSON object): the answer lists the problems.
 */
export function validateDashboard(
  ctx: ServiceContext,
  body: DashboardWrite | Record<string, unknown>,
  opts?: RequestOptions,
): Promise<ApiResponse<z.infer<typeof dashboardValidationSchema>>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidInput('Validate dashboard', 'POST', [{ path: '', message: 'the dashboard must be a JSON object' }]);
  }
  return ctx.engine.call(
    {
      operation: 'Validate dashboard',
      method: 'POST',
      path: ctx.engine.flavor.resourcePath(ctx.scope, 'dashboards', 'validate'),
      body,
      result: dashboardValidationSchema,
      retry: 'idempotent',
      params: ctx.params,
    },
    opts,
  );
}

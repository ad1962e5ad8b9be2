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
import type { ApiResponse, RequestOptions } from '../engine';
import { invalidInput } from '../engine';
import { resourceEndpoints, type ServiceContext } from './common';

const dashboards = resourceEndpoints<Dashboard, DashboardWrite, z.input<typeof dashboardUpdateSchema>>({
  kind: 'dashboards',
  noun: 'dashboard',
  plural: 'dashboards',
  idName: 'dashboardId',
  item: dashboardSchema,
  create: dashboardWriteSchema,
  update: dashboardUpdateSchema,
});

export const listDashboards = dashboards.list;
export const getDashboard = dashboards.get;
export const createDashboard = dashboards.create;
export const updateDashboard = dashboards.update;
export const deleteDashboard = dashboards.delete;

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

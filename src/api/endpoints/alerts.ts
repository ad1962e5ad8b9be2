/** Alerts: list (paged by `limit`/`offset`), get, create, update, delete. */
import { alertSchema, alertWriteSchema, type Alert, type AlertWrite } from '../../schema';
import type { ApiResponse, ListResponse, PageOptions, RequestOptions } from '../engine';
import {
  createResource,
  deleteResource,
  getResource,
  listResources,
  updateResource,
  type ServiceContext,
} from './common';

const ID = 'alertId';

/**
 * All alerts, page by page (`limit`/`offset`): until the reported `totalCount` is reached, else until an empty page
 * (a short page does not end the list).
 */
export async function listAlerts(
  ctx: ServiceContext,
  paging?: PageOptions & RequestOptions,
  opts?: RequestOptions,
): Promise<ListResponse<Alert>> {
  return listResources(ctx, 'List alerts', 'alerts', alertSchema, paging ?? {}, opts);
}

export async function getAlert(ctx: ServiceContext, id: string, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
  return getResource(ctx, 'Get alert', 'alerts', ID, id, alertSchema, opts);
}

export async function createAlert(
  ctx: ServiceContext,
  body: AlertWrite,
  opts?: RequestOptions,
): Promise<ApiResponse<Alert>> {
  return createResource(ctx, 'Create alert', 'alerts', alertWriteSchema, body, alertSchema, opts);
}

export async function updateAlert(
  ctx: ServiceContext,
  id: string,
  body: AlertWrite,
  opts?: RequestOptions,
): Promise<ApiResponse<Alert>> {
  return updateResource(ctx, 'Update alert', 'alerts', ID, id, alertWriteSchema, body, alertSchema, opts);
}

export async function deleteAlert(ctx: ServiceContext, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
  return deleteResource(ctx, 'Delete alert', 'alerts', ID, id, opts);
}

/** Sources: list (one request, the API declares no paging), get, create, update (a full replace), delete. */
import { sourceSchema, sourceWriteSchema, type Source, type SourceWrite } from '../../schema';
import type { ApiResponse, ListResponse, RequestOptions } from '../engine';
import {
  createResource,
  deleteResource,
  getResource,
  listResources,
  updateResource,
  type ServiceContext,
} from './common';

const ID = 'sourceId';

/** All sources. The API declares no paging here (no `limit`/`offset`): one request. */
export async function listSources(ctx: ServiceContext, opts?: RequestOptions): Promise<ListResponse<Source>> {
  return listResources(ctx, 'List sources', 'sources', sourceSchema, undefined, opts);
}

export async function getSource(ctx: ServiceContext, id: string, opts?: RequestOptions): Promise<ApiResponse<Source>> {
  return getResource(ctx, 'Get source', 'sources', ID, id, sourceSchema, opts);
}

export async function createSource(
  ctx: ServiceContext,
  body: SourceWrite,
  opts?: RequestOptions,
): Promise<ApiResponse<Source>> {
  return createResource(ctx, 'Create source', 'sources', sourceWriteSchema, body, sourceSchema, opts);
}

/** Replaces a source (the kind may change). */
export async function updateSource(
  ctx: ServiceContext,
  id: string,
  body: SourceWrite,
  opts?: RequestOptions,
): Promise<ApiResponse<Source>> {
  return updateResource(ctx, 'Update source', 'sources', ID, id, sourceWriteSchema, body, sourceSchema, opts);
}

/**
 * Deletes a source. The server neither refuses nor cascades: saved searches, alerts, dashboard tiles and other
 * sources that use it keep its ID.
 */
export async function deleteSource(ctx: ServiceContext, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
  return deleteResource(ctx, 'Delete source', 'sources', ID, id, opts);
}

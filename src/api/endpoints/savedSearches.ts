/** Saved searches: list (paged by `limit`/`offset`), get, create, update (a full replace), delete. */
import { savedSearchSchema, savedSearchWriteSchema, type SavedSearch, type SavedSearchWrite } from '../../schema';
import type { ApiResponse, ListResponse, PageOptions, RequestOptions } from '../engine';
import {
  createResource,
  deleteResource,
  getResource,
  listResources,
  updateResource,
  type ServiceContext,
} from './common';

const ID = 'savedSearchId';

/** All saved searches, page by page (see `listAlerts`). */
export async function listSavedSearches(
  ctx: ServiceContext,
  paging?: PageOptions & RequestOptions,
  opts?: RequestOptions,
): Promise<ListResponse<SavedSearch>> {
  return listResources(ctx, 'List saved searches', 'saved-searches', savedSearchSchema, paging ?? {}, opts);
}

export async function getSavedSearch(
  ctx: ServiceContext,
  id: string,
  opts?: RequestOptions,
): Promise<ApiResponse<SavedSearch>> {
  return getResource(ctx, 'Get saved search', 'saved-searches', ID, id, savedSearchSchema, opts);
}

export async function createSavedSearch(
  ctx: ServiceContext,
  body: SavedSearchWrite,
  opts?: RequestOptions,
): Promise<ApiResponse<SavedSearch>> {
  return createResource(
    ctx,
    'Create saved search',
    'saved-searches',
    savedSearchWriteSchema,
    body,
    savedSearchSchema,
    opts,
  );
}

/** Replaces a saved search: optional fields left out reset to their defaults. */
export async function updateSavedSearch(
  ctx: ServiceContext,
  id: string,
  body: SavedSearchWrite,
  opts?: RequestOptions,
): Promise<ApiResponse<SavedSearch>> {
  return updateResource(
    ctx,
    'Update saved search',
    'saved-searches',
    ID,
    id,
    savedSearchWriteSchema,
    body,
    savedSearchSchema,
    opts,
  );
}

/** Deletes a saved search AND the alerts attached to it (the server deletes them first). */
export async function deleteSavedSearch(
  ctx: ServiceContext,
  id: string,
  opts?: RequestOptions,
): Promise<ApiResponse<void>> {
  return deleteResource(ctx, 'Delete saved search', 'saved-searches', ID, id, opts);
}

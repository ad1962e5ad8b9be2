/** Saved searches: list (paged by `limit`/`offset`). */
import { savedSearchSchema, type SavedSearch } from '../../schema';
import type { ListResponse, PageOptions, RequestOptions } from '../engine';
import { listResources, type ServiceContext } from './common';

/** All saved searches, page by page (see `listAlerts`). */
export async function listSavedSearches(ctx: ServiceContext, paging?: PageOptions & RequestOptions, opts?: RequestOptions): Promise<ListResponse<SavedSearch>> {
  return listResources(ctx, 'List saved searches', 'saved-searches', savedSearchSchema, paging ?? {}, opts);
}

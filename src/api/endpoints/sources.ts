/** Sources: list (one request, the API declares no paging). */
import { sourceSchema, type Source } from '../../schema';
import type { ListResponse, RequestOptions } from '../engine';
import { listResources, type ServiceContext } from './common';

/** All sources. The API declares no paging here (no `limit`/`offset`): one request. */
export async function listSources(ctx: ServiceContext, opts?: RequestOptions): Promise<ListResponse<Source>> {
  return listResources(ctx, 'List sources', 'sources', sourceSchema, undefined, opts);
}

/** Webhooks: list (paged by `limit`/`offset`). */
import { webhookSchema, type Webhook } from '../../schema';
import type { ListResponse, PageOptions, RequestOptions } from '../engine';
import { listResources, type ServiceContext } from './common';

/** All webhooks, page by page (see `listAlerts`). */
export async function listWebhooks(ctx: ServiceContext, paging?: PageOptions & RequestOptions, opts?: RequestOptions): Promise<ListResponse<Webhook>> {
  return listResources(ctx, 'List webhooks', 'webhooks', webhookSchema, paging ?? {}, opts);
}

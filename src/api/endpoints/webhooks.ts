/** Webhooks: list (paged by `limit`/`offset`), create, update (a full replace), delete. The API has no get by ID. */
import { webhookSchema, webhookWriteSchema, type Webhook, type WebhookWrite } from '../../schema';
import type { ApiResponse, ListResponse, PageOptions, RequestOptions } from '../engine';
import { createResource, deleteResource, listResources, updateResource, type ServiceContext } from './common';

const ID = 'webhookId';

/** All webhooks, page by page (see `listAlerts`). */
export async function listWebhooks(
  ctx: ServiceContext,
  paging?: PageOptions & RequestOptions,
  opts?: RequestOptions,
): Promise<ListResponse<Webhook>> {
  return listResources(ctx, 'List webhooks', 'webhooks', webhookSchema, paging ?? {}, opts);
}

export async function createWebhook(
  ctx: ServiceContext,
  body: WebhookWrite,
  opts?: RequestOptions,
): Promise<ApiResponse<Webhook>> {
  return createResource(ctx, 'Create webhook', 'webhooks', webhookWriteSchema, body, webhookSchema, opts);
}

/** Replaces a webhook. Headers and query parameters left out are kept unless the URL or service changes. */
export async function updateWebhook(
  ctx: ServiceContext,
  id: string,
  body: WebhookWrite,
  opts?: RequestOptions,
): Promise<ApiResponse<Webhook>> {
  return updateResource(ctx, 'Update webhook', 'webhooks', ID, id, webhookWriteSchema, body, webhookSchema, opts);
}

/** Deletes a webhook; the server refuses (409) while an alert still uses it, and deletes nothing. */
export async function deleteWebhook(
  ctx: ServiceContext,
  id: string,
  opts?: RequestOptions,
): Promise<ApiResponse<void>> {
  return deleteResource(ctx, 'Delete webhook', 'webhooks', ID, id, opts);
}

/** Webhooks: list (paged by `limit`/`offset`), create, update (a full replace), delete. The API has no get by ID. */
import { webhookSchema, webhookWriteSchema, type Webhook, type WebhookWrite } from '../../schema';
import { resourceEndpoints } from './common';

const webhooks = resourceEndpoints<Webhook, WebhookWrite>({
  kind: 'webhooks',
  noun: 'webhook',
  plural: 'webhooks',
  idName: 'webhookId',
  item: webhookSchema,
  create: webhookWriteSchema,
});

/** All webhooks, page by page (see `listAlerts`). */
export const listWebhooks = webhooks.listPaged;
export const createWebhook = webhooks.create;
/** Replaces a webhook. Headers and query parameters left out are kept unless the URL or service changes. */
export const updateWebhook = webhooks.update;
/** Deletes a webhook; the server refuses (409) while an alert still uses it, and deletes nothing. */
export const deleteWebhook = webhooks.delete;

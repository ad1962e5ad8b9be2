/**
 * Webhooks (to pick an alert's `webhookId`) and saved searches (to pick a `savedSearchId`).
 * Response schemas only; unknown fields are kept. Webhook headers and query parameters are
 * write-only and never returned.
 */
import * as z from 'zod';
import { openEnum } from './ids';

export const WEBHOOK_SERVICES = ['slack', 'incidentio', 'generic', 'slack_api', 'pagerduty_api'] as const;
export type WebhookService = (typeof WEBHOOK_SERVICES)[number];

export const webhookSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  service: openEnum(WEBHOOK_SERVICES),
  url: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  createdAt: z.string().nullable().optional(),
  updatedAt: z.string().nullable().optional(),
});

export type Webhook = z.infer<typeof webhookSchema>;

export const savedSearchSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  sourceId: z.string().optional(),
  select: z.string().nullable().optional(),
  where: z.string().nullable().optional(),
  whereLanguage: z.string().nullable().optional(),
  orderBy: z.string().nullable().optional(),
  tags: z.array(z.string()).optional(),
  createdAt: z.string().nullable().optional(),
  updatedAt: z.string().nullable().optional(),
});

export type SavedSearch = z.infer<typeof savedSearchSchema>;

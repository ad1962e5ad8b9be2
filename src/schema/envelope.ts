/**
 * Response envelopes of the cloud API:
 * `{status, requestId, result}` on success, `{status, requestId}` for DELETE and
 * `{status, error, requestId}` on errors. Unknown envelope fields are kept.
 */
import * as z from 'zod';

/** The success envelope around `result` (an object, or a bare array for lists). */
export function successEnvelopeSchema<T extends z.ZodType>(result: T) {
  return z.looseObject({
    status: z.number().int(),
    requestId: z.string(),
    result,
  });
}

/** The success envelope of a DELETE (no `result`). */
export const deleteEnvelopeSchema = z.looseObject({
  status: z.number().int(),
  requestId: z.string(),
});

/**
 * The error envelope. `requestId` is optional here so an error body from an intermediary
 * that lacks it still yields its message.
 */
export const errorEnvelopeSchema = z.looseObject({
  status: z.number().int(),
  error: z.string(),
  requestId: z.string().optional(),
});

export type DeleteEnvelope = z.infer<typeof deleteEnvelopeSchema>;
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
export type SuccessEnvelope<T> = { status: number; requestId: string; result: T } & Record<string, unknown>;

/**
 * Paging of list operations. The API declares `limit`/`offset` on the alert, webhook and saved
 * search lists only; dashboards, sources and roles have no paging parameters and are read in
 * one request. `limit` is capped at 1000, and the service may return fewer items than asked.
 */
export const PAGED_LIST_RESOURCES = ['alerts', 'webhooks', 'saved-searches'] as const;
export const LIST_LIMIT = { min: 1, max: 1000, default: 1000 } as const;

export const listQuerySchema = z.strictObject({
  limit: z
    .number()
    .int({ error: 'must be a whole number' })
    .min(LIST_LIMIT.min, { error: `must be from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}` })
    .max(LIST_LIMIT.max, { error: `must be from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}` })
    .optional()
    .describe('Items per page (1–1000, default 1000).'),
  offset: z.number().int({ error: 'must be a whole number' }).min(0, { error: 'must be 0 or more' }).optional().describe('Items to skip.'),
});

/**
 * The envelope of a list. `totalCount` (newer wording) or `meta.total` (older) may report the
 * size of the whole list; neither is declared in the response schema, so both are optional.
 */
export const listEnvelopeSchema = z.looseObject({
  status: z.number().int(),
  requestId: z.string(),
  result: z.array(z.unknown()),
  totalCount: z.number().int().min(0).optional(),
  meta: z.looseObject({ total: z.number().int().min(0).optional(), totalCount: z.number().int().min(0).optional() }).optional(),
});

export type ListQuery = z.infer<typeof listQuerySchema>;

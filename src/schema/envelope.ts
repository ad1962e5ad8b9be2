/**
 * Response envelopes of the cloud API:
 * `{status, requestId, result}` on success, `{status, requestId}` for DELETE and
 * `{status, error, requestId}` on errors. Unknown envelope fields are kept.
 */
import * as z from 'zod';
import { lazySchema } from './lazySchema';

/** The success envelope around `result` (an object, or a bare array for lists). */
export function successEnvelopeSchema<T extends z.ZodType>(result: T) {
  return z.looseObject({
    status: z.number().int(),
    requestId: z.string(),
    result,
  });
}

/** The success envelope of a DELETE (no `result`). */
export const deleteEnvelopeSchema = lazySchema(() =>
  z.looseObject({
    status: z.number().int(),
    requestId: z.string(),
  }),
);

/**
 * The error envelope. `requestId` is optional here so an error body from an intermediary
 * that lacks it still yields its message.
 */
export const errorEnvelopeSchema = lazySchema(() =>
  z.looseObject({
    status: z.number().int(),
    error: z.string(),
    requestId: z.string().optional(),
  }),
);

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

export const listQuerySchema = lazySchema(() =>
  z.strictObject({
    limit: z
      .number()
      .int({ error: 'must be a whole number' })
      .min(LIST_LIMIT.min, { error: `must be from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}` })
      .max(LIST_LIMIT.max, { error: `must be from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}` })
      .optional()
      .describe('Items per page (1–1000, default 1000).'),
    offset: z
      .number()
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'must be 0 or more' })
      .optional()
      .describe('Items to skip.'),
  }),
);

/**
 * The envelope of a list. `totalCount` (newer wording) or `meta.total` (older) may report the
 * size of the whole list; neither is declared in the response schema, so both are optional.
 */
export const listEnvelopeSchema = lazySchema(() =>
  z.looseObject({
    status: z.number().int(),
    requestId: z.string(),
    result: z.array(z.unknown()),
    totalCount: z.number().int().min(0).optional(),
    meta: z
      .looseObject({ total: z.number().int().min(0).optional(), totalCount: z.number().int().min(0).optional() })
      .optional(),
  }),
);

export type ListQuery = z.infer<typeof listQuerySchema>;

/** What a success body is expected to carry: one resource, a list, or nothing (DELETE). */
export type EnvelopeExpect = 'one' | 'list' | 'none';

/** The value read out of a success envelope, or why it could not be read. */
export type EnvelopeRead =
  | { ok: true; value: unknown; requestId?: string; totalCount?: number }
  | { ok: false; problem: string; path?: string; issue?: string; requestId?: string };

const totalSchema = lazySchema(() => z.number().int().min(0));
/** Where a list envelope may report the size of the whole list: `totalCount` (newer wording), `meta.totalCount`, `meta.total`. */
const listTotalSchema = lazySchema(() =>
  z.looseObject({
    totalCount: totalSchema.optional().catch(undefined),
    meta: z
      .looseObject({
        totalCount: totalSchema.optional().catch(undefined),
        total: totalSchema.optional().catch(undefined),
      })
      .optional()
      .catch(undefined),
  }),
);

/**
 * Reads a parsed success body of the cloud API. Only what the client relies on is required: a JSON object, and
 * `result` (an array for lists) when a value is expected. `status`, `requestId` and any other envelope member may be
 * missing; `requestId` is returned raw (the caller cleans it).
 */
export function readEnvelope(json: unknown, expect: EnvelopeExpect): EnvelopeRead {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, problem: 'the response is not a JSON object' };
  }
  const body = json as Record<string, unknown>;
  const requestId = typeof body.requestId === 'string' ? { requestId: body.requestId } : {};
  if (expect === 'none') return { ok: true, value: undefined, ...requestId };
  if (!('result' in body)) return { ok: false, problem: 'the response envelope has no "result"', ...requestId };
  if (expect === 'one') return { ok: true, value: body.result, ...requestId };
  if (!Array.isArray(body.result)) {
    return { ok: false, problem: 'the result is not a list', path: 'result', issue: 'expected an array', ...requestId };
  }
  let total: number | undefined;
  if ('totalCount' in body || 'meta' in body) {
    const totals = listTotalSchema.safeParse(body);
    if (totals.success) total = totals.data.totalCount ?? totals.data.meta?.totalCount ?? totals.data.meta?.total;
  }
  return { ok: true, value: body.result, ...requestId, ...(total !== undefined ? { totalCount: total } : {}) };
}

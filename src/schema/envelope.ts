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

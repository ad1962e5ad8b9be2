/**
 * A streaming HTTP exchange over the same undici transport as `send` (src/api/http.ts): same dispatcher (keep-alive
 * agent or proxy), no redirects followed, transport failures as `TransportError`s. The body is handed to the caller
 * chunk by chunk instead of being read whole, so a large result can be parsed as it arrives and dropped at a cap.
 */
import { toTransportError, TransportError, type TransportRequest } from '../http';
import { loadUndici } from '../lazyUndici';
import type { Dispatcher } from '../undici';

export interface StreamingResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body chunks; stop early with `cancel()`. Transport failures while reading throw `TransportError`. */
  body: AsyncIterable<Buffer>;
  /** Stops reading and closes the connection (idempotent). */
  cancel(): void;
}

export type StreamingRequest = Omit<TransportRequest, 'maxResponseBytes'> & {
  /** Time allowed for the whole body after the headers, in ms (default: none; the per-chunk timeout still applies). */
  totalBodyTimeoutMs?: number;
};

export async function sendStreaming(dispatcher: Dispatcher, req: StreamingRequest): Promise<StreamingResponse> {
  let res: Dispatcher.ResponseData;
  try {
    res = await loadUndici().request(dispatcher, {
      origin: req.origin,
      path: req.path,
      method: req.method,
      headers: req.headers,
      body: req.body ?? null,
      signal: req.signal ?? null,
      headersTimeout: req.headersTimeoutMs,
      bodyTimeout: req.bodyTimeoutMs,
    });
  } catch (err) {
    throw toTransportError(err, req);
  }
  const body = res.body;
  let deadline: NodeJS.Timeout | undefined;
  if (req.totalBodyTimeoutMs !== undefined) {
    const seconds = Math.round(req.totalBodyTimeoutMs / 100) / 10;
    deadline = setTimeout(() => {
      body.destroy(new TransportError('timeout', 'BODY_DEADLINE', true, `the response took more than ${seconds} s to arrive`, res.statusCode));
    }, req.totalBodyTimeoutMs);
  }
  let cancelled = false;
  const cancel = (): void => {
    cancelled = true;
    if (deadline) clearTimeout(deadline);
    if (!body.destroyed) body.destroy();
  };
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of body) yield chunk as Buffer;
    } catch (err) {
      if (cancelled) return;
      if (err instanceof TransportError) throw err;
      throw toTransportError(err, req, res.statusCode);
    } finally {
      if (deadline) clearTimeout(deadline);
    }
  }
  return { status: res.statusCode, headers: res.headers, body: chunks(), cancel };
}

/**
 * A streaming HTTP exchange over the same undici transport as `send` (src/api/http.ts): same dispatcher (keep-alive
 * agent or proxy), no redirects followed, transport failures as `TransportError`s. The body is handed to the caller
 * chunk by chunk instead of being read whole, so a large result can be parsed as it arrives and dropped at a cap.
 */
import { sendRequest, toTransportError, TransportError, type TransportRequest } from '../http';
import type { Dispatcher } from '../undici';

export interface StreamingResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body chunks; stop early with `cancel()`. Transport failures while reading throw `TransportError`. */
  body: AsyncIterable<Buffer>;
  /** Stops reading and closes the connection (idempotent). */
  cancel(): void;
}

/** A request as `send` takes it; `deadlineMs` (default: headers + body timeouts) bounds the whole exchange. */
export type StreamingRequest = Omit<TransportRequest, 'maxResponseBytes'>;

export async function sendStreaming(dispatcher: Dispatcher, req: StreamingRequest): Promise<StreamingResponse> {
  if (req.signal?.aborted) throw new TransportError('cancelled', 'ABORTED', true, 'the request was cancelled');
  // One deadline for the whole exchange, as in `send`: it starts before the request is queued for a connection and
  // ends it in any stage (connect, proxy tunnel, interim answers, headers, body), through this controller.
  const deadlineMs = req.deadlineMs ?? req.headersTimeoutMs + req.bodyTimeoutMs;
  const seconds = Math.round(deadlineMs / 100) / 10;
  const controller = new AbortController();
  let stopped: TransportError | undefined;
  let status: number | undefined = undefined;
  const stop = (err: TransportError): void => {
    if (stopped) return;
    stopped = err;
    controller.abort(err);
  };
  const deadline = setTimeout(() => {
    stop(
      status === undefined
        ? new TransportError('timeout', 'REQUEST_DEADLINE', true, `no response within ${seconds} s`)
        : new TransportError(
            'timeout',
            'BODY_DEADLINE',
            true,
            `the response took more than ${seconds} s to arrive`,
            status,
          ),
    );
  }, deadlineMs);
  const onCancel = (): void =>
    stop(new TransportError('cancelled', 'ABORTED', true, 'the request was cancelled', status));
  req.signal?.addEventListener('abort', onCancel, { once: true });
  const release = (): void => {
    clearTimeout(deadline);
    req.signal?.removeEventListener('abort', onCancel);
  };
  const ended = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(stopped), { once: true });
  });
  ended.catch(() => undefined);

  let res: Dispatcher.ResponseData;
  try {
    res = await Promise.race([sendRequest(dispatcher, req, controller.signal), ended]);
  } catch (err) {
    release();
    throw stopped ?? toTransportError(err, req);
  }
  status = res.statusCode;
  const body = res.body;
  controller.signal.addEventListener('abort', () => body.destroy(stopped), { once: true });
  let cancelled = false;
  const cancel = (): void => {
    cancelled = true;
    release();
    if (!body.destroyed) body.destroy();
  };
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of body) yield chunk as Buffer;
      if (stopped && !cancelled) throw stopped;
    } catch (err) {
      if (cancelled) return;
      if (stopped) throw stopped;
      if (err instanceof TransportError) throw err;
      throw toTransportError(err, req, res.statusCode);
    } finally {
      release();
    }
  }
  return { status: res.statusCode, headers: res.headers, body: chunks(), cancel };
}

/**
 * One HTTP exchange over undici: sends a request through the given dispatcher
 * (keep-alive agent or proxy), reads the whole body as text, and turns every
 * transport failure into a `TransportError` that says whether the request can
 * have reached the server. Redirects are never followed: a 3xx comes back as a
 * response like any other status, so credentials never go to another origin.
 */
import type { Dispatcher } from './undici';
import { loadUndici } from './lazyUndici';

export interface TransportRequest {
  /** `https://host[:port]` — the only origin the request can go to. */
  origin: string;
  /** Path with query string. */
  path: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Time allowed until the response headers arrive, in ms. */
  headersTimeoutMs: number;
  /** Time allowed between two body chunks, in ms. */
  bodyTimeoutMs: number;
  /**
   * ONE deadline for the whole exchange, in ms: it starts before the request is queued for a connection and ends
   * the request whatever stage it is in — connecting, opening a proxy tunnel, waiting through interim `1xx`
   * responses, waiting for the headers or reading the body. Default: `headersTimeoutMs + bodyTimeoutMs`.
   */
  deadlineMs?: number;
  /** Bodies larger than this are refused (default 64 MiB). */
  maxResponseBytes?: number;
  /**
   * For a status outside 2xx, only this many bytes of the body are read (default 64 KiB); the rest is dropped and
   * `truncated` is set. An error page cannot make the client read (or parse) megabytes.
   */
  maxErrorBodyBytes?: number;
}

/** Hands one request to undici (no redirects followed); `signal` ends it. */
export function sendRequest(
  dispatcher: Dispatcher,
  req: TransportRequest,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  return loadUndici().request(dispatcher, {
    origin: req.origin,
    path: req.path,
    method: req.method,
    headers: req.headers,
    body: req.body ?? null,
    signal,
    headersTimeout: req.headersTimeoutMs,
    bodyTimeout: req.bodyTimeoutMs,
  });
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** True when only the first `maxErrorBodyBytes` of an error body were read. */
  truncated?: boolean;
  /** Size of the body read, in bytes. */
  bytes?: number;
}

export type TransportFailureKind = 'network' | 'timeout' | 'cancelled' | 'invalidResponse';

export class TransportError extends Error {
  constructor(
    readonly kind: TransportFailureKind,
    /** Error code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, …) or a short tag. */
    readonly code: string,
    /** False only when the request cannot have reached the server (refused, DNS, connect timeout). */
    readonly mayHaveReachedServer: boolean,
    detail: string,
    /** HTTP status when the failure happened while reading the body. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(detail, options);
    this.name = 'TransportError';
  }
}

const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_ERROR_BODY_BYTES = 64 * 1024;

const secondsText = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export async function send(dispatcher: Dispatcher, req: TransportRequest): Promise<TransportResponse> {
  if (req.signal?.aborted) throw new TransportError('cancelled', 'ABORTED', true, 'the request was cancelled');
  const deadlineMs = req.deadlineMs ?? req.headersTimeoutMs + req.bodyTimeoutMs;
  // Everything below ends through `stop`: the deadline, the caller's Cancel, or the body limit. undici gets the
  // controller's signal, and the stage in progress (waiting for the headers, reading the body) is also settled
  // directly, so a request undici never settles (a proxy tunnel that keeps failing, endless interim responses) still
  // ends on time.
  const controller = new AbortController();
  let stopped: TransportError | undefined;
  let status: number | undefined;
  /** Rejects the stage in progress. */
  let settle: ((err: TransportError) => void) | undefined;
  const stop = (err: TransportError) => {
    if (stopped) return;
    stopped = err;
    settle?.(err);
    controller.abort(err);
  };
  const deadline = setTimeout(() => {
    const host = hostOf(req.origin);
    stop(
      status === undefined
        ? new TransportError(
            'timeout',
            'REQUEST_DEADLINE',
            true,
            `no response from ${host} within ${secondsText(deadlineMs)}`,
          )
        : new TransportError(
            'timeout',
            'BODY_DEADLINE',
            true,
            `the response from ${host} took more than ${secondsText(deadlineMs)} to arrive`,
            status,
          ),
    );
  }, deadlineMs);
  const onCancel = () => stop(new TransportError('cancelled', 'ABORTED', true, 'the request was cancelled', status));
  req.signal?.addEventListener('abort', onCancel, { once: true });

  try {
    let res: Dispatcher.ResponseData;
    try {
      res = await new Promise<Dispatcher.ResponseData>((resolve, reject) => {
        settle = reject;
        sendRequest(dispatcher, req, controller.signal).then(resolve, reject);
      });
    } catch (err) {
      throw stopped ?? toTransportError(err, req);
    }
    status = res.statusCode;
    const statusCode = res.statusCode;
    const success = statusCode >= 200 && statusCode < 300;
    const limit = success
      ? (req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES)
      : Math.min(
          req.maxErrorBodyBytes ?? DEFAULT_MAX_ERROR_BODY_BYTES,
          req.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        );
    const body = res.body;
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    try {
      // Listeners rather than an async iterator: one promise per body instead of one per chunk.
      await new Promise<void>((resolve, reject) => {
        let settled = false;
        const cleanup = () => {
          settled = true;
          settle = undefined;
          body.off('data', onData);
          body.off('end', onEnd);
          body.off('error', onError);
          body.off('close', onClose);
        };
        const fail = (err: unknown) => {
          if (settled) return;
          cleanup();
          reject(err);
        };
        const onData = (chunk: Buffer) => {
          if (size + chunk.length > limit) {
            if (success) {
              fail(
                new TransportError(
                  'invalidResponse',
                  'RESPONSE_TOO_LARGE',
                  true,
                  `the response is larger than ${Math.round(limit / 1048576)} MiB`,
                  statusCode,
                ),
              );
              return;
            }
            chunks.push(chunk.subarray(0, limit - size));
            size = limit;
            truncated = true;
            cleanup();
            resolve();
            return;
          }
          size += chunk.length;
          chunks.push(chunk);
        };
        const onEnd = () => {
          if (settled) return;
          cleanup();
          resolve();
        };
        const onError = (err: unknown) => fail(err);
        const onClose = () => fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
        if (stopped) {
          fail(stopped);
          return;
        }
        settle = fail;
        body.on('data', onData);
        body.on('end', onEnd);
        body.on('error', onError);
        body.on('close', onClose);
      });
    } catch (err) {
      if (stopped) throw stopped;
      if (err instanceof TransportError) throw err;
      throw toTransportError(err, req, statusCode);
    } finally {
      if (truncated || !body.readableEnded) body.destroy();
    }
    const out: TransportResponse = {
      status: statusCode,
      headers: res.headers,
      body: Buffer.concat(chunks, size).toString('utf8'),
      bytes: size,
    };
    if (truncated) out.truncated = true;
    return out;
  } finally {
    clearTimeout(deadline);
    req.signal?.removeEventListener('abort', onCancel);
  }
}

/** First value of a response header (names are lower case in undici). */
export function headerValue(headers: TransportResponse['headers'], name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'EADDRNOTAVAIL',
]);
const TLS_CODE = /^(CERT_|ERR_TLS_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_SSL_)/;

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR') return code;
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.length > 0) {
      const c = errorCode(inner[0]);
      if (c) return c;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

export function toTransportError(
  err: unknown,
  req: Pick<TransportRequest, 'origin' | 'signal' | 'headersTimeoutMs' | 'bodyTimeoutMs'>,
  status?: number,
): TransportError {
  const host = hostOf(req.origin);
  if (req.signal?.aborted) {
    return new TransportError('cancelled', 'ABORTED', true, 'the request was cancelled', status, { cause: err });
  }
  const code = errorCode(err) ?? 'UNKNOWN';
  const message = err instanceof Error ? err.message : String(err);
  const seconds = secondsText;
  switch (code) {
    case 'UND_ERR_PRX_CONN':
      return new TransportError(
        'network',
        code,
        false,
        `the proxy closed the connection while opening a tunnel to ${host} (${code})`,
        status,
        { cause: err },
      );
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new TransportError(
        'timeout',
        code,
        false,
        `could not connect to ${host} in time (connect timeout)`,
        status,
        { cause: err },
      );
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new TransportError(
        'timeout',
        code,
        true,
        `no response from ${host} within ${seconds(req.headersTimeoutMs)}`,
        status,
        { cause: err },
      );
    case 'UND_ERR_BODY_TIMEOUT':
      return new TransportError(
        'timeout',
        code,
        true,
        `the response from ${host} stalled for more than ${seconds(req.bodyTimeoutMs)}`,
        status,
        { cause: err },
      );
    case 'ECONNREFUSED':
      return new TransportError(
        'network',
        code,
        false,
        `could not connect to ${host}: connection refused (ECONNREFUSED)`,
        status,
        { cause: err },
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new TransportError(
        'network',
        code,
        false,
        `could not resolve the host name of ${host} (${code})`,
        status,
        { cause: err },
      );
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return new TransportError(
        'network',
        code,
        true,
        `the connection to ${host} was closed unexpectedly (${code})`,
        status,
        { cause: err },
      );
  }
  if (TLS_CODE.test(code)) {
    return new TransportError('network', code, false, `TLS problem talking to ${host}: ${message} (${code})`, status, {
      cause: err,
    });
  }
  if (/proxy/i.test(message)) {
    return new TransportError(
      'network',
      code,
      false,
      `the proxy refused the connection to ${host}: ${message}`,
      status,
      { cause: err },
    );
  }
  return new TransportError(
    'network',
    code,
    !NOT_SENT_CODES.has(code),
    `request to ${host} failed: ${message}${code === 'UNKNOWN' ? '' : ` (${code})`}`,
    status,
    { cause: err },
  );
}

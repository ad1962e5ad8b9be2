/**
 * The query client's transport: the request of each transport (the query endpoint, ClickHouse's HTTP interface),
 * its slot in the rate budget, the exchange itself, and transport failures as `QueryError`s.
 */
import { TransportError } from '../http';
import type { Grant, RateLimiter } from '../rateLimiter';
import type { Dispatcher } from '../undici';
import { QueryError, type Fail, type RequestBase } from './queryError';
import { sendStreaming, type StreamingResponse } from './stream';

/**
 * Only `format` goes in the URL, as public clients of the query endpoint send it: whether the endpoint passes other
 * ClickHouse settings through is not documented. ClickHouse quotes 64-bit integers in JSON formats by default
 * (`output_format_json_quote_64bit_integers = 1`); the client turns the ones a JavaScript number holds exactly back
 * into numbers and keeps the rest as text, and reads bare ones beyond 2^53 as exact text too (`readWideIntegers`).
 */
export const RESULT_FORMAT = 'JSONCompactEachRowWithNamesAndTypes';

/** What one statement is sent with. */
export interface QueryRequestInput {
  /** The ClickHouse HTTP interface (not the query endpoint). */
  clickHouseHttp: boolean;
  /** The path of the request, without its query string. */
  path: string;
  sql: string;
  database?: string | undefined;
  /** Basic credentials, base64. */
  basic: string;
  userAgent: string;
  wakeService?: boolean | undefined;
}

/**
 * The query endpoint takes `{"sql", "database"?}` as JSON with the format in the URL; ClickHouse's HTTP interface
 * takes the SQL as the body with `default_format` (and `database`) in the URL.
 */
export function queryRequest(q: QueryRequestInput): { path: string; headers: Record<string, string>; body: string } {
  const http = q.clickHouseHttp;
  const params = new URLSearchParams(http ? { default_format: RESULT_FORMAT } : { format: RESULT_FORMAT });
  if (http && q.database) params.set('database', q.database);
  const headers: Record<string, string> = {
    authorization: `Basic ${q.basic}`,
    'content-type': http ? 'text/plain; charset=utf-8' : 'application/json',
    accept: 'application/x-ndjson, application/json, text/plain',
    'user-agent': q.userAgent,
  };
  if (q.wakeService && !http) headers['wake-service'] = 'true';
  const json: Record<string, string> = { sql: q.sql };
  if (q.database) json.database = q.database;
  return { path: `${q.path}?${params.toString()}`, headers, body: http ? q.sql : JSON.stringify(json) };
}

export interface QueryExchange {
  dispatcher: Dispatcher;
  limiter: RateLimiter;
  origin: string;
  request: { path: string; headers: Record<string, string>; body: string };
  signal?: AbortSignal | undefined;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  base: RequestBase;
  fail: Fail;
}

/** Sends the request in a slot of the rate budget; the response streams. `started` is when the slot was granted. */
export async function sendQuery(x: QueryExchange): Promise<{ res: StreamingResponse; started: number }> {
  let grant: Grant;
  try {
    grant = await x.limiter.acquireSlot(x.signal);
  } catch (e) {
    if (x.signal?.aborted) throw x.fail({ ...x.base, kind: 'cancelled', reason: 'other', detail: 'cancelled' });
    throw e;
  }
  const started = performance.now();
  try {
    const res = await sendStreaming(x.dispatcher, {
      origin: x.origin,
      path: x.request.path,
      method: 'POST',
      headers: x.request.headers,
      body: x.request.body,
      ...(x.signal ? { signal: x.signal } : {}),
      headersTimeoutMs: x.headersTimeoutMs,
      bodyTimeoutMs: x.bodyTimeoutMs,
    });
    return { res, started };
  } catch (e) {
    throw transportFailure(e, x.base, x.fail);
  } finally {
    // The host has seen the query once it answers (or the attempt failed): the window counts from here.
    grant.done();
  }
}

/** A failure of the exchange itself (connection, deadline, cancel) as a `QueryError`. */
export function transportFailure(e: unknown, base: RequestBase, fail: Fail): QueryError {
  if (e instanceof QueryError) return e;
  if (e instanceof TransportError) {
    const kind =
      e.kind === 'cancelled'
        ? 'cancelled'
        : e.kind === 'timeout'
          ? 'timeout'
          : e.kind === 'invalidResponse'
            ? 'invalidResponse'
            : 'network';
    return fail({
      ...base,
      kind,
      reason: 'other',
      detail: e.message,
      ...(e.status !== undefined ? { status: e.status } : {}),
      cause: e,
      retryable: false,
    });
  }
  return fail({
    ...base,
    kind: 'network',
    reason: 'other',
    detail: e instanceof Error ? e.message : String(e),
    cause: e,
    retryable: false,
  });
}

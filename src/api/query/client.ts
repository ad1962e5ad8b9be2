/**
 * QueryClient: runs SQL on a service through its query endpoint, as public clients call it:
 * `POST <query host>/service/{serviceId}/run?format=JSONCompactEachRowWithNamesAndTypes`, HTTP Basic with the API
 * key ID and secret, body `{"sql": "…", "database"?: "…"}`.
 *
 * - The query host is held to the rules of the API base URL: https except loopback, no credentials, query or
 *   fragment; redirects are never followed; the secret is read per request and never kept, logged or shown.
 * - The result streams: column names and types come first, then rows are parsed as they arrive; reading stops at
 *   the row cap or the byte cap (the result says which) or when the caller's signal aborts.
 * - Failures are `QueryError`s (an `ApiError`): ClickHouse's own `Code: N. DB::Exception: … (NAME)` text with the
 *   HTTP status and the query ID; `reason` tells the caller what it can offer (enable the key, wake the service).
 * - The rate budget of the key, shared with the management API: ClickHouse Cloud documents 10 requests per 10 s per
 *   API key, so both clients of a key take their slots from the one limiter of that key (`limiterFor`), and a 429 from
 *   either holds back both. A slot counts from when the host can have seen the query (see `acquireSlot`).
 * - The second transport, ClickHouse's own HTTP interface (`transport: 'clickhouseHttp'`, for a self-hosted deployment's
 *   ClickHouse): `POST <address>/?default_format=JSONCompactEachRowWithNamesAndTypes[&database=…]`, HTTP Basic with the
 *   ClickHouse user and password, the SQL as the body. Streaming, bounds, error parsing and redaction are the same;
 *   its rate budget is per address and user (`clickHouseHttpLimiterFor`), and plain http beyond loopback needs the
 *   caller's explicit permission (`allowPlainHttp`).
 * - Server text is bounded and linear to read: ClickHouse's error text is taken from a bounded prefix and made plain;
 *   the query ID is shown only when it has the shape of an ID and does not echo the key; JSON lines are counted
 *   before they are parsed, so no row and no result builds more than its bound of objects and arrays.
 *
 * The parts, each readable and testable alone: transport.ts (the request of each transport, its slot in the rate
 * budget, the exchange), resultDecoder.ts (the streaming line decoder with its caps and bounds, and ClickHouse's
 * errors in a result), errorText.ts (the error reader: error answers and ClickHouse's error text, every parse
 * bounded before it runs), queryError.ts (the failure and its redaction), values.ts (wide integers, statistics).
 */
import { isLoopbackHost, isUuid } from '../connection';
import { rateLimitWaitMs } from '../engine';
import type { ApiErrorIssue } from '../errors';
import { headerValue } from '../http';
import { createDispatcher } from '../proxy';
import { DEFAULT_RATE_LIMIT, limiterFor, type RateLimiter } from '../rateLimiter';
import { cleanRequestId } from '../sanitize';
import type { Dispatcher } from '../undici';
import { jsonError, readErrorBody, statusFailure } from './errorText';
import { failureFor, QueryError, type Fail, type RequestBase } from './queryError';
import { ResultDecoder } from './resultDecoder';
import type { ResultRows } from './resultRows';
import type { StreamingResponse } from './stream';
import { queryRequest, sendQuery, transportFailure } from './transport';
import { parseSummary } from './values';

export { RESULT_FORMAT } from './transport';
export { MAX_CLICKHOUSE_TEXT, parseClickHouseError } from './errorText';
export { QueryError, type ClickHouseErrorInfo, type QueryFailureReason } from './queryError';
export { isWideInteger, quoteUnsafeIntegers, readWideInteger } from './values';
export { toCsv, toJsonObjects, toMarkdown } from './formats';
export { rowRanges, type ResultRows } from './resultRows';

export const DEFAULT_QUERY_HOST = 'https://queries.clickhouse.cloud';
export const DEFAULT_QUERY_RATE_LIMIT = DEFAULT_RATE_LIMIT;

export interface QueryColumn {
  name: string;
  type: string;
}

export interface QueryStats {
  readRows?: number;
  readBytes?: number;
  elapsedNs?: number;
}

/** A result; with `compactRows`, its rows are kept as text and parsed when a range is read (`ResultRows`). */
export interface QueryResult<Rows extends ResultRows = unknown[][]> {
  columns: QueryColumn[];
  rows: Rows;
  /** Why reading stopped before the end of the result, if it did. */
  truncated?: 'rows' | 'bytes';
  /** Bytes of the body read. */
  bytes: number;
  /** From the request to the last row read. */
  elapsedMs: number;
  /** Until the first byte of the body. */
  firstByteMs: number;
  queryId?: string;
  stats?: QueryStats;
}

export interface RunQueryOptions {
  /** The Cloud service (required by the query endpoint; not used by the ClickHouse HTTP interface). */
  serviceId?: string;
  sql: string;
  database?: string;
  /** Stop after this many rows (default 10 000). */
  maxRows?: number;
  /** Stop after this many bytes of body (default 64 MiB). */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Send the wake confirmation an idle service asks for (only after the user agreed). */
  wakeService?: boolean;
  /** Called as rows arrive (at most every 1 000 rows). */
  onRows?: (rowsSoFar: number) => void;
  /**
   * Called after each block of the body that added rows, with every row read so far (read by range: it grows as the
   * read goes on, at most `maxRows`, and becomes the result's rows) and the result's columns, so a caller can show
   * rows before the last one arrives. With it, the read gives the event loop a turn after each block, so what the
   * caller sends (a message to a webview) goes out meanwhile.
   */
  onBatch?: (rows: ResultRows, columns: readonly QueryColumn[]) => void;
}

/**
 * `compactRows`: keep the rows as the text of their lines, parsed again a block at a time when a range is read: a large
 * result then holds about its body's size instead of about twice it. The result's `rows` are a `ResultRows`.
 */
export type CompactRunOptions = RunQueryOptions & { compactRows: true };

export type QueryTransport = 'queryEndpoint' | 'clickhouseHttp';

export interface QueryClientOptions {
  /** Query host, default https://queries.clickhouse.cloud; for `clickhouseHttp`, the HTTP interface's address. */
  queryUrl?: string;
  /** The API key ID; for `clickhouseHttp`, the ClickHouse user. */
  keyId: string;
  /** The API key secret; for `clickhouseHttp`, the ClickHouse user's password. */
  getSecret: () => string | Promise<string>;
  /** Default `queryEndpoint` (ClickHouse Cloud's query endpoint). */
  transport?: QueryTransport;
  /** Plain http to a host other than loopback, after the user confirmed it (never the default). */
  allowPlainHttp?: boolean;
  dispatcher?: Dispatcher;
  /** Default: the key's one limiter (`limiterFor(keyId)`), shared with the management API. */
  limiter?: RateLimiter;
  userAgent?: string;
  /** Until the response headers arrive (default 60 000 ms; a query runs before its first byte). */
  headersTimeoutMs?: number;
  /** Between two chunks of the body (default 60 000 ms). */
  bodyTimeoutMs?: number;
}

const OPERATION = 'Run query';
const DEFAULT_MAX_ROWS = 10_000;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** Wait after a 429 that names none (ms). */
const DEFAULT_RATE_LIMIT_WAIT_MS = 1000;
/** Longest wait a 429 can impose (ms). */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

/**
 * The limiter of a key for queries: the key's one limiter, shared with the management API (`limiterFor`). Options,
 * when given, reconfigure it.
 */
export function queryLimiterFor(keyId: string, options?: { requests?: number; windowMs?: number }): RateLimiter {
  return limiterFor(keyId, options);
}

/** Requests per window a ClickHouse HTTP interface is sent per address and user (the server sets no documented budget). */
export const CLICKHOUSE_HTTP_RATE_LIMIT = { requests: 20, windowMs: 1000 } as const;

/** The limiter of a ClickHouse HTTP interface address and user, shared by every client of that pair. */
export function clickHouseHttpLimiterFor(origin: string, user: string): RateLimiter {
  return limiterFor(`clickhouse-http ${origin} ${user}`, CLICKHOUSE_HTTP_RATE_LIMIT);
}

/** Problems with a query host URL; empty when it is usable. */
export function queryHostIssues(queryUrl: string, opts: { allowPlainHttp?: boolean } = {}): ApiErrorIssue[] {
  const issues: ApiErrorIssue[] = [];
  let url: URL;
  try {
    url = new URL(queryUrl);
  } catch {
    return [{ path: 'queryUrl', message: `must be an absolute URL such as ${DEFAULT_QUERY_HOST}` }];
  }
  if (
    url.protocol !== 'https:' &&
    !(url.protocol === 'http:' && (opts.allowPlainHttp === true || isLoopbackHost(url.hostname)))
  ) {
    issues.push({
      path: 'queryUrl',
      message: 'must use https (plain http is allowed only for localhost, 127.0.0.0/8 and ::1)',
    });
  }
  if (url.username || url.password) {
    issues.push({ path: 'queryUrl', message: 'must not contain credentials; the API key is configured separately' });
  }
  if (url.search || queryUrl.includes('?')) {
    issues.push({ path: 'queryUrl', message: 'must not contain a query string' });
  }
  if (url.hash || queryUrl.includes('#')) issues.push({ path: 'queryUrl', message: 'must not contain a fragment' });
  return issues;
}

export class QueryClient {
  readonly origin: string;
  private readonly prefix: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly limiter: RateLimiter;
  private readonly userAgent: string;
  readonly transport: QueryTransport;

  constructor(private readonly options: QueryClientOptions) {
    this.transport = options.transport ?? 'queryEndpoint';
    const queryUrl = options.queryUrl ?? DEFAULT_QUERY_HOST;
    const issues = queryHostIssues(queryUrl, { allowPlainHttp: options.allowPlainHttp === true });
    if (issues.length > 0) {
      throw new QueryError({
        kind: 'invalidInput',
        reason: 'other',
        operation: OPERATION,
        method: '-',
        path: '-',
        detail: 'the query host is invalid',
        issues,
      });
    }
    const url = new URL(queryUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? createDispatcher({ connectTimeoutMs: 10_000 });
    this.limiter =
      options.limiter ??
      (this.transport === 'clickhouseHttp'
        ? clickHouseHttpLimiterFor(this.origin, options.keyId)
        : limiterFor(options.keyId));
    this.userAgent = options.userAgent ?? 'observability-explorer';
  }

  async dispose(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** Runs one statement and reads its result up to the caps. */
  run(opts: CompactRunOptions): Promise<QueryResult<ResultRows>>;
  run(opts: RunQueryOptions): Promise<QueryResult>;
  async run(opts: RunQueryOptions & { compactRows?: boolean }): Promise<QueryResult<ResultRows>> {
    const http = this.transport === 'clickhouseHttp';
    const path = http ? `${this.prefix}/` : `${this.prefix}/service/${encodeURIComponent(opts.serviceId ?? '')}/run`;
    const base: RequestBase = { operation: OPERATION, method: 'POST', path };
    checkInput(opts, base, http);
    let secrets: string[] = [];
    const fail = failureFor(() => secrets);
    const signal = opts.signal;
    if (signal?.aborted) throw fail({ ...base, kind: 'cancelled', reason: 'other', detail: 'cancelled' });
    const secret = await this.readSecret(base, fail, http);
    const basic = Buffer.from(`${this.options.keyId}:${secret}`, 'utf8').toString('base64');
    secrets = [secret, basic];
    const { res, started } = await sendQuery({
      dispatcher: this.dispatcher,
      limiter: this.limiter,
      origin: this.origin,
      request: queryRequest({
        clickHouseHttp: http,
        path,
        sql: opts.sql,
        database: opts.database,
        basic,
        userAgent: this.userAgent,
        wakeService: opts.wakeService,
      }),
      signal,
      headersTimeoutMs: this.options.headersTimeoutMs ?? 60_000,
      bodyTimeoutMs: this.options.bodyTimeoutMs ?? 60_000,
      base,
      fail,
    });
    // A query ID only in the shape of one, and never one that echoes the key (as request IDs are treated).
    const queryId =
      cleanRequestId(headerValue(res.headers, 'x-clickhouse-query-id'), secrets) ??
      cleanRequestId(headerValue(res.headers, 'x-request-id'), secrets);
    const withId = { ...base, ...(queryId ? { requestId: queryId } : {}) };
    if (res.status < 200 || res.status >= 300 || res.status === 206) {
      throw await this.answerFailure(res, withId, fail, http);
    }
    if (res.status !== 200) {
      res.cancel();
      throw fail({
        ...withId,
        kind: 'invalidResponse',
        reason: 'other',
        status: res.status,
        detail: `unexpected HTTP ${res.status} from the query host`,
      });
    }
    return readResult(res, opts, { base: withId, fail, started, queryId });
  }

  /** The key secret (or the ClickHouse password), read for this request only. */
  private async readSecret(base: RequestBase, fail: Fail, http: boolean): Promise<string> {
    let secret: string;
    try {
      secret = await this.options.getSecret();
    } catch (e) {
      throw fail({
        ...base,
        kind: 'unauthorized',
        reason: 'other',
        detail: http ? 'the ClickHouse password could not be read' : 'the API key secret could not be read',
        cause: e,
      });
    }
    if (!secret) {
      throw fail({
        ...base,
        kind: 'unauthorized',
        reason: 'other',
        detail: http
          ? 'no ClickHouse password is stored for this connection'
          : 'no API key secret is stored for this connection',
      });
    }
    return secret;
  }

  /** The failure of an answer that is not a result; a 429 holds back every client of the key for its wait. */
  private async answerFailure(
    res: StreamingResponse,
    base: RequestBase & { requestId?: string },
    fail: Fail,
    http: boolean,
  ): Promise<QueryError> {
    const text = await readErrorBody(res.body, res.cancel);
    if (res.status === 429) {
      const wait = rateLimitWaitMs(res.headers, MAX_RATE_LIMIT_WAIT_MS);
      // The key's budget is spent: every client of the key waits, as after a 429 to the management API.
      this.limiter.penalizeFor(wait ?? DEFAULT_RATE_LIMIT_WAIT_MS);
      const message = jsonError(text) ?? (text.trim().slice(0, 300) || undefined);
      return fail({
        ...base,
        kind: 'rateLimited',
        reason: 'other',
        status: 429,
        ...(message ? { serverMessage: message } : {}),
        ...(wait !== undefined ? { retryAfterMs: wait } : {}),
        hint: `${http ? 'The ClickHouse server refused more queries for now.' : "The API key's rate budget is spent (it is shared by the management API and the query endpoint)."} ${
          wait !== undefined
            ? `Try again in ${Math.max(1, Math.ceil(wait / 1000))} s.`
            : 'Wait a few seconds and try again.'
        }`,
      });
    }
    return statusFailure({
      status: res.status,
      text,
      base,
      fail,
      clickHouseHttp: http,
      contentType: headerValue(res.headers, 'content-type') ?? '',
      exceptionCode: headerValue(res.headers, 'x-clickhouse-exception-code'),
    });
  }
}

/** Refuses a statement that cannot be sent: no SQL, or (on the query endpoint) a service ID that is not a UUID. */
function checkInput(opts: RunQueryOptions, base: RequestBase, http: boolean): void {
  if (!http && !isUuid(opts.serviceId ?? '')) {
    throw new QueryError({
      ...base,
      kind: 'invalidInput',
      reason: 'other',
      detail: 'the service ID must be a UUID',
      issues: [{ path: 'serviceId', message: 'must be a UUID' }],
    });
  }
  if (typeof opts.sql !== 'string' || opts.sql.trim() === '') {
    throw new QueryError({ ...base, kind: 'invalidInput', reason: 'other', detail: 'there is no SQL to run' });
  }
}

/** Reads a 200 result as it streams, up to the caps; a failure while reading names what arrived before it. */
async function readResult(
  res: StreamingResponse,
  opts: RunQueryOptions & { compactRows?: boolean },
  ctx: { base: RequestBase & { requestId?: string }; fail: Fail; started: number; queryId: string | undefined },
): Promise<QueryResult<ResultRows>> {
  const decoder = new ResultDecoder({
    base: ctx.base,
    fail: ctx.fail,
    maxRows: opts.maxRows ?? DEFAULT_MAX_ROWS,
    maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES,
    exceptionTag: headerValue(res.headers, 'x-clickhouse-exception-tag'),
    onRows: opts.onRows,
    onBatch: opts.onBatch,
    compactRows: opts.compactRows,
  });
  let firstByteMs = 0;
  try {
    let stop = false;
    for await (const chunk of res.body) {
      if (decoder.bytes === 0) firstByteMs = performance.now() - ctx.started;
      stop = decoder.push(chunk);
      if (stop) break;
      // Rows handed over get a turn of the event loop (a body arriving faster than it is parsed never yields).
      if (opts.onBatch) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (stop) res.cancel();
    decoder.end();
  } catch (e) {
    res.cancel();
    if (e instanceof QueryError) throw e;
    throw decoder.trailingError() ?? transportFailure(e, ctx.base, ctx.fail);
  }
  const result: QueryResult<ResultRows> = {
    columns: decoder.columns,
    rows: decoder.textRows ?? decoder.rows,
    bytes: decoder.bytes,
    elapsedMs: 0,
    firstByteMs,
    ...(ctx.queryId ? { queryId: ctx.queryId } : {}),
  };
  const summary = headerValue(res.headers, 'x-clickhouse-summary');
  if (summary) result.stats = parseSummary(summary);
  const maxRows = opts.maxRows ?? DEFAULT_MAX_ROWS;
  if (decoder.stop === 'rows' && decoder.rows.length > maxRows) decoder.rows.length = maxRows;
  if (decoder.stop) result.truncated = decoder.stop;
  result.elapsedMs = performance.now() - ctx.started;
  return result;
}

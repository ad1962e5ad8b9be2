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
 */
import { isLoopbackHost, isUuid } from '../connection';
import { rateLimitWaitMs } from '../engine';
import { ApiError, kindForStatus, type ApiErrorInit, type ApiErrorIssue } from '../errors';
import { headerValue, TransportError } from '../http';
import { formatCount, MAX_RESULT_CONTAINERS, MAX_ROW_CONTAINERS, scanLines } from '../jsonBounds';
import { createDispatcher } from '../proxy';
import { DEFAULT_RATE_LIMIT, limiterFor, type Grant, type RateLimiter } from '../rateLimiter';
import { redact } from '../redact';
import { cleanRequestId, sanitizeServerText } from '../sanitize';
import type { Dispatcher } from '../undici';
import { sendStreaming, type StreamingResponse } from './stream';

export const DEFAULT_QUERY_HOST = 'https://queries.clickhouse.cloud';
export const RESULT_FORMAT = 'JSONCompactEachRowWithNamesAndTypes';
/**
 * Only `format` goes in the URL, as public clients of the query endpoint send it: whether the endpoint passes other
 * ClickHouse settings through is not documented. ClickHouse quotes 64-bit integers in JSON formats by default
 * (`output_format_json_quote_64bit_integers = 1`); the client turns the ones a JavaScript number holds exactly back
 * into numbers and keeps the rest as text, and reads bare ones beyond 2^53 as exact text too (`readWideIntegers`).
 */
export const DEFAULT_QUERY_RATE_LIMIT = DEFAULT_RATE_LIMIT;

export type QueryFailureReason =
  /** ClickHouse rejected or failed the statement (see `clickHouseCode`). */
  | 'sql'
  /** 401/403 from the query host: this key is not enabled on the service's query endpoint. */
  | 'keyNotEnabled'
  /** The service is idle and would be woken by running the query (resend with `wakeService`). */
  | 'serviceIdle'
  /** The service is stopped; it must be started first. */
  | 'serviceStopped'
  /** The query host gave up waiting; the statement may still be running on the service. */
  | 'gatewayTimeout'
  /** 401/403 from a ClickHouse HTTP interface: the user or password is wrong, or the user may not run this. */
  | 'accessDenied'
  | 'other';

export interface ClickHouseErrorInfo {
  code: number;
  /** e.g. SYNTAX_ERROR, when the text names it. */
  name?: string;
  /** `Code: 62. DB::Exception: …` */
  text: string;
}

export class QueryError extends ApiError {
  readonly reason: QueryFailureReason;
  readonly clickHouse?: ClickHouseErrorInfo;
  /** Rows received before the failure (an error in the middle of a result). */
  readonly rowsBeforeError?: number;

  constructor(
    init: ApiErrorInit & { reason: QueryFailureReason; clickHouse?: ClickHouseErrorInfo; rowsBeforeError?: number },
  ) {
    super(init);
    this.name = 'QueryError';
    this.reason = init.reason;
    if (init.clickHouse) this.clickHouse = init.clickHouse;
    if (init.rowsBeforeError !== undefined) this.rowsBeforeError = init.rowsBeforeError;
  }
}

export interface QueryColumn {
  name: string;
  type: string;
}

export interface QueryStats {
  readRows?: number;
  readBytes?: number;
  elapsedNs?: number;
}

export interface QueryResult {
  columns: QueryColumn[];
  rows: unknown[][];
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
   * Called with the rows each block of the body added (in order, at most `maxRows` in all) and the result's columns,
   * so a caller can show them before the last row arrives. The rows are also in the result. With it, the read gives
   * the event loop a turn after each block, so what the caller sends (a message to a webview) goes out meanwhile.
   */
  onBatch?: (rows: unknown[][], columns: readonly QueryColumn[]) => void;
}

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
/** The live query host's answer for a stopped service (HTTP 404). */
const STOPPED_SERVICE_MESSAGE = 'ClickHouse service is currently unavailable. Please try again later.';
const DEFAULT_MAX_ROWS = 10_000;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** Longest ClickHouse error text kept (characters), after it is made plain. */
export const MAX_CLICKHOUSE_TEXT = 1000;
/** Characters of an error body looked at for ClickHouse's error text. */
const ERROR_SCAN = 16 * 1024;
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

/** ClickHouse's error text out of a query host error body (`{"error":{"code","details"}}`, or plain text). */
export function parseClickHouseError(body: string): ClickHouseErrorInfo | undefined {
  let code: number | undefined;
  let details: string | undefined;
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    const e = parsed?.error;
    if (e && typeof e === 'object') {
      // The query host sends the code as a string ("62") or a number (241).
      const raw = (e as { code?: unknown }).code;
      const c = typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw)) ? Number(raw) : NaN;
      const d = (e as { details?: unknown; message?: unknown }).details ?? (e as { message?: unknown }).message;
      if (Number.isInteger(c) && typeof d === 'string' && d) {
        code = c;
        details = d;
      }
    }
  } catch {
    const head = body.slice(0, ERROR_SCAN);
    const at = head.indexOf('Code: ');
    const m = at < 0 ? null : /^Code: (\d{1,9})\./.exec(head.slice(at, at + 20));
    if (m) {
      code = Number(m[1]);
      details = head.slice(at + m[0].length).trim();
    }
  }
  if (code === undefined || details === undefined) return undefined;
  details = details.slice(0, ERROR_SCAN);
  const prefixed = /^Code: \d+\./.test(details)
    ? details
    : `Code: ${code}. ${details.startsWith('DB::Exception') ? details : `DB::Exception: ${details}`}`;
  const stripped = withoutVersion(prefixed);
  const name = /\(([A-Z][A-Z0-9_]{1,100})\)$/.exec(stripped.slice(-110))?.[1];
  const text = sanitizeServerText(stripped, MAX_CLICKHOUSE_TEXT);
  if (!text) return undefined;
  return { code, ...(name ? { name } : {}), text };
}

/** The text without the closing `<size> <tag>__exception__` line of a tagged error, if it ends with one (linear). */
function withoutExceptionTrailer(text: string): string {
  const t = text.trimEnd();
  if (!t.endsWith('__exception__')) return t.trim();
  const lineStart = t.lastIndexOf('\n') + 1;
  return /^\d+ \S+__exception__$/.test(t.slice(lineStart)) ? t.slice(0, lineStart).trim() : t.trim();
}

/** The text without ClickHouse's trailing `(version …)` (found with indexOf: linear in any input). */
function withoutVersion(text: string): string {
  const t = text.trimEnd();
  const at = t.lastIndexOf('(version ');
  // `(version 24.8.4.13)`, or as ClickHouse's HTTP interface writes it, `(version 24.8.4.13 (official build))`.
  if (at >= 0 && /^\(version [^()]{0,100}(?:\([^()]{0,100}\))?\)$/.test(t.slice(at))) return t.slice(0, at).trimEnd();
  return t;
}

function jsonError(body: string): string | undefined {
  try {
    const e =
      (JSON.parse(body) as { error?: unknown; message?: unknown }).error ??
      (JSON.parse(body) as { message?: unknown }).message;
    return typeof e === 'string' ? e : undefined;
  } catch {
    return undefined;
  }
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
  async run(opts: RunQueryOptions): Promise<QueryResult> {
    const http = this.transport === 'clickhouseHttp';
    const path = http ? `${this.prefix}/` : `${this.prefix}/service/${encodeURIComponent(opts.serviceId ?? '')}/run`;
    const base = { operation: OPERATION, method: 'POST', path };
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
    const maxRows = opts.maxRows ?? DEFAULT_MAX_ROWS;
    const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    const signal = opts.signal;
    let secrets: string[] = [];
    const fail = (
      init: ApiErrorInit & { reason: QueryFailureReason; clickHouse?: ClickHouseErrorInfo; rowsBeforeError?: number },
    ): QueryError => {
      const clean = { ...init };
      if (clean.serverMessage !== undefined) clean.serverMessage = redact(clean.serverMessage, secrets);
      if (clean.detail !== undefined) clean.detail = redact(clean.detail, secrets);
      if (clean.clickHouse) clean.clickHouse = { ...clean.clickHouse, text: redact(clean.clickHouse.text, secrets) };
      if (clean.requestId !== undefined) {
        const id = cleanRequestId(clean.requestId, secrets);
        if (id) clean.requestId = id;
        else delete clean.requestId;
      }
      if (clean.cause instanceof Error) clean.cause = new Error(redact(clean.cause.message, secrets));
      return new QueryError(clean);
    };
    if (signal?.aborted) throw fail({ ...base, kind: 'cancelled', reason: 'other', detail: 'cancelled' });
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
    const basic = Buffer.from(`${this.options.keyId}:${secret}`, 'utf8').toString('base64');
    secrets = [secret, basic];

    const body: Record<string, string> = { sql: opts.sql };
    if (opts.database) body.database = opts.database;
    const params = new URLSearchParams(http ? { default_format: RESULT_FORMAT } : { format: RESULT_FORMAT });
    if (http && opts.database) params.set('database', opts.database);
    const headers: Record<string, string> = {
      authorization: `Basic ${basic}`,
      'content-type': http ? 'text/plain; charset=utf-8' : 'application/json',
      accept: 'application/x-ndjson, application/json, text/plain',
      'user-agent': this.userAgent,
    };
    if (opts.wakeService && !http) headers['wake-service'] = 'true';
    let grant: Grant;
    try {
      grant = await this.limiter.acquireSlot(signal);
    } catch (e) {
      if (signal?.aborted) throw fail({ ...base, kind: 'cancelled', reason: 'other', detail: 'cancelled' });
      throw e;
    }
    const started = performance.now();
    let res: StreamingResponse;
    try {
      res = await sendStreaming(this.dispatcher, {
        origin: this.origin,
        path: `${path}?${params.toString()}`,
        method: 'POST',
        headers,
        body: http ? opts.sql : JSON.stringify(body),
        ...(signal ? { signal } : {}),
        headersTimeoutMs: this.options.headersTimeoutMs ?? 60_000,
        bodyTimeoutMs: this.options.bodyTimeoutMs ?? 60_000,
      });
    } catch (e) {
      throw this.transportFailure(e, base, fail);
    } finally {
      // The host has seen the query once it answers (or the attempt failed): the window counts from here.
      grant.done();
    }
    // A query ID only in the shape of one, and never one that echoes the key (as request IDs are treated).
    const queryId =
      cleanRequestId(headerValue(res.headers, 'x-clickhouse-query-id'), secrets) ??
      cleanRequestId(headerValue(res.headers, 'x-request-id'), secrets);
    const withId = queryId ? { requestId: queryId } : {};

    if (res.status < 200 || res.status >= 300 || res.status === 206) {
      let text = '';
      try {
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const c of res.body) {
          size += c.length;
          if (size > 1024 * 1024) break;
          chunks.push(c);
        }
        text = Buffer.concat(chunks).toString('utf8');
      } catch {
        // The status says enough.
      } finally {
        res.cancel();
      }
      if (res.status === 429) {
        const wait = rateLimitWaitMs(res.headers, MAX_RATE_LIMIT_WAIT_MS);
        // The key's budget is spent: every client of the key waits, as after a 429 to the management API.
        this.limiter.penalizeFor(wait ?? DEFAULT_RATE_LIMIT_WAIT_MS);
        const message = jsonError(text) ?? (text.trim().slice(0, 300) || undefined);
        throw fail({
          ...base,
          ...withId,
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
      throw this.statusFailure(
        res.status,
        text,
        { ...base, ...withId },
        fail,
        headerValue(res.headers, 'content-type') ?? '',
        headerValue(res.headers, 'x-clickhouse-exception-code'),
      );
    }
    if (res.status !== 200) {
      res.cancel();
      throw fail({
        ...base,
        ...withId,
        kind: 'invalidResponse',
        reason: 'other',
        status: res.status,
        detail: `unexpected HTTP ${res.status} from the query host`,
      });
    }

    const result: QueryResult = {
      columns: [],
      rows: [],
      bytes: 0,
      elapsedMs: 0,
      firstByteMs: 0,
      ...(queryId ? { queryId } : {}),
    };
    const summary = headerValue(res.headers, 'x-clickhouse-summary');
    if (summary) result.stats = parseSummary(summary);
    const names: string[] = [];
    let wide: number[] = [];
    /** Whether any column can hold an integer beyond 2^53 (only then is the text scanned for bare ones). */
    let mayHoldWide = true;
    let lineNo = 0;
    let stop: 'rows' | 'bytes' | undefined;
    let nextProgress = 1000;
    /** Bytes after the last newline seen (an incomplete line; a newline byte never occurs inside a UTF-8 sequence). */
    let rest: Buffer[] = [];
    let restBytes = 0;
    /** The incomplete line, joined once (never re-joined per chunk: a long line would be copied again and again). */
    const takeRest = (): Buffer | undefined => {
      if (restBytes === 0) return undefined;
      const joined = rest.length === 1 ? (rest[0] as Buffer) : Buffer.concat(rest, restBytes);
      rest = [];
      restBytes = 0;
      return joined;
    };
    /** Objects and arrays counted in the lines read so far (see `scanLines`). */
    let containers = 0;
    /** ClickHouse ≥ 25.11 frames an error in the middle of a result: `__exception__<tag>`, message lines, `<size> <tag>__exception__`. */
    const exceptionTag = headerValue(res.headers, 'x-clickhouse-exception-tag');
    let exceptionLines: string[] | undefined;
    const sqlFailure = (text: string): QueryError => {
      const ch = parseClickHouseError(text);
      return fail({
        ...base,
        ...withId,
        kind: 'invalidRequest',
        reason: 'sql',
        status: 200,
        serverMessage: ch?.text ?? text,
        ...(ch ? { clickHouse: ch } : {}),
        rowsBeforeError: result.rows.length,
        hint: `The statement failed after ${result.rows.length} row(s) had arrived.`,
      });
    };
    let handed = 0;
    const progress = (): void => {
      const upTo = Math.min(result.rows.length, maxRows);
      if (opts.onBatch && upTo > handed) {
        const batch = result.rows.slice(handed, upTo);
        handed = upTo;
        try {
          opts.onBatch(batch, result.columns);
        } catch {
          // A listener cannot stop the read.
        }
      }
      if (result.rows.length < nextProgress) return;
      nextProgress = (Math.floor(result.rows.length / 1000) + 1) * 1000;
      try {
        opts.onRows?.(result.rows.length);
      } catch {
        // A listener cannot stop the read.
      }
    };
    const addRow = (value: unknown[]): void => {
      for (const i of wide) value[i] = readWideInteger(value[i]);
      result.rows.push(value);
    };
    /** A line of the result that is not what JSONCompactEachRow writes. */
    const badLine = (what: string, cause?: unknown): QueryError =>
      fail({
        ...base,
        ...withId,
        kind: 'invalidResponse',
        reason: 'other',
        status: 200,
        detail: `line ${lineNo} of the result is ${what}`,
        ...(cause === undefined ? {} : { cause }),
      });
    /** One line of the result (without its newline). */
    const handleLine = (line: string): void => {
      if (exceptionLines) {
        const end = /^(\d+) (\S+)__exception__\s*$/.exec(line);
        if (end && (!exceptionTag || end[2] === exceptionTag)) throw sqlFailure(exceptionLines.join('\n'));
        exceptionLines.push(line);
        return;
      }
      if (line.length === 0) return;
      if (line.startsWith('__exception__') && (!exceptionTag || line.trim() === `__exception__${exceptionTag}`)) {
        exceptionLines = [];
        return;
      }
      if (line.startsWith('Code: ') || (line[0] !== '[' && /^\s*Code: \d+\./.test(line))) throw sqlFailure(line);
      if (lineNo >= 2 && result.rows.length >= maxRows) {
        // A row past the cap: the result is longer than what is read.
        stop = 'rows';
        return;
      }
      lineNo++;
      let value: unknown;
      try {
        value = JSON.parse(lineNo > 2 && mayHoldWide ? quoteUnsafeIntegers(line) : line);
      } catch (e) {
        // An error can cut a row short: the framing then starts in the middle of the line.
        const at = line.indexOf('__exception__');
        if (at > 0 && (!exceptionTag || line.slice(at).trim() === `__exception__${exceptionTag}`)) {
          exceptionLines = [];
          return;
        }
        throw badLine('not JSON', e);
      }
      // With `http_write_exception_in_output_format`, ClickHouse writes an error as a JSON object in the format's place.
      const exception =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? (value as { exception?: unknown }).exception
          : undefined;
      if (typeof exception === 'string' && exception) throw sqlFailure(exception);
      if (!Array.isArray(value)) {
        throw badLine('not a JSON array');
      }
      if (lineNo === 1) names.push(...value.map(String));
      else if (lineNo === 2) {
        result.columns = names.map((name, i) => ({ name, type: String(value[i] ?? '') }));
        wide = result.columns.flatMap((c, i) => (isWideInteger(c.type) ? [i] : []));
        mayHoldWide = result.columns.some((c) => /Int(64|128|256)\b|Decimal/.test(c.type));
      } else addRow(value);
    };
    /**
     * Complete lines (the text up to, not including, a newline). Rows are parsed a block at a time with one
     * `JSON.parse` — the lines of JSONCompactEachRow joined as one array — and line by line only when that fails
     * (an error line, a blank line, a line that is not a row), so every failure is still found and named by line.
     */
    const handleBlock = (text: string): void => {
      // What parsing can build is bounded before anything is parsed: per row, and per result.
      const scan = scanLines(text, MAX_ROW_CONTAINERS, MAX_RESULT_CONTAINERS - containers);
      containers += scan.containers;
      if (scan.overLine !== undefined || containers > MAX_RESULT_CONTAINERS) {
        throw fail({
          ...base,
          ...withId,
          kind: 'invalidResponse',
          reason: 'other',
          status: 200,
          detail:
            scan.overLine !== undefined
              ? `line ${lineNo + scan.overLine + 1} of the result holds more than ${formatCount(MAX_ROW_CONTAINERS)} objects and arrays (the bound per row)`
              : `the result holds more than ${formatCount(MAX_RESULT_CONTAINERS)} objects and arrays (the bound per result) and was not read further`,
          hint: 'The result holds more than the extension reads at once: select fewer rows or columns, or aggregate.',
          rowsBeforeError: result.rows.length,
        });
      }
      let lines = scan.lines;
      let from = 0;
      while (lineNo < 2 || exceptionLines) {
        const nl = text.indexOf('\n', from);
        handleLine(text.slice(from, nl < 0 ? text.length : nl));
        if (nl < 0) return;
        from = nl + 1;
        lines--;
      }
      const block = from === 0 ? text : text.slice(from);
      if (block.length === 0) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(`[${(mayHoldWide ? quoteUnsafeIntegers(block) : block).replaceAll('\n', ',')}]`);
      } catch {
        parsed = undefined;
      }
      // One row per line: a line holding two rows (`[1],[2]`) is not what the format writes and is read line by line.
      if (Array.isArray(parsed) && parsed.length === lines && parsed.every(Array.isArray)) {
        const take = Math.min(parsed.length, maxRows - result.rows.length);
        for (let i = 0; i < take; i++) addRow(parsed[i] as unknown[]);
        lineNo += take;
        if (take < parsed.length) stop = 'rows';
      } else {
        let at = 0;
        while (at <= block.length && !stop) {
          const nl = block.indexOf('\n', at);
          handleLine(block.slice(at, nl < 0 ? block.length : nl));
          if (nl < 0) break;
          at = nl + 1;
        }
      }
      progress();
    };
    /** What is left unread, when it holds ClickHouse's error text (the host may drop the connection after it). */
    const trailingError = (): QueryError | undefined => {
      const tail = takeRest()?.toString('utf8') ?? '';
      if (exceptionLines) {
        return sqlFailure(withoutExceptionTrailer([...exceptionLines, tail].join('\n')));
      }
      if (/^\s*Code: \d+\./.test(tail)) return sqlFailure(tail.trim());
      return undefined;
    };
    try {
      for await (const chunk of res.body) {
        if (result.bytes === 0) result.firstByteMs = performance.now() - started;
        let usable = chunk;
        if (result.bytes + chunk.length > maxBytes) {
          usable = chunk.subarray(0, Math.max(0, maxBytes - result.bytes));
          stop = 'bytes';
        }
        result.bytes += usable.length;
        const last = usable.lastIndexOf(0x0a);
        if (last < 0) {
          if (usable.length > 0) {
            rest.push(usable);
            restBytes += usable.length;
          }
        } else {
          const head = usable.subarray(0, last);
          const text =
            restBytes > 0
              ? Buffer.concat([...rest, head], restBytes + head.length).toString('utf8')
              : head.toString('utf8');
          rest = [];
          restBytes = 0;
          if (last + 1 < usable.length) {
            rest.push(usable.subarray(last + 1));
            restBytes = usable.length - last - 1;
          }
          handleBlock(text);
        }
        if (stop) break;
        // Rows handed over get a turn of the event loop (a body arriving faster than it is parsed never yields).
        if (opts.onBatch) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      if (stop) res.cancel();
      else {
        const tail = takeRest()?.toString('utf8').trimEnd();
        if (tail) handleBlock(tail);
      }
      if (exceptionLines && !stop) throw sqlFailure(exceptionLines.join('\n'));
    } catch (e) {
      res.cancel();
      if (e instanceof QueryError) throw e;
      throw trailingError() ?? this.transportFailure(e, base, fail);
    }
    if (stop === 'rows' && result.rows.length > maxRows) result.rows.length = maxRows;
    if (stop) result.truncated = stop;
    result.elapsedMs = performance.now() - started;
    return result;
  }

  private transportFailure(
    e: unknown,
    base: { operation: string; method: string; path: string },
    fail: (i: ApiErrorInit & { reason: QueryFailureReason }) => QueryError,
  ): QueryError {
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

  private statusFailure(
    status: number,
    text: string,
    base: { operation: string; method: string; path: string; requestId?: string },
    fail: (i: ApiErrorInit & { reason: QueryFailureReason; clickHouse?: ClickHouseErrorInfo }) => QueryError,
    contentType: string,
    exceptionCode?: string,
  ): QueryError {
    if (status === 206) {
      let data: unknown;
      try {
        data = (JSON.parse(text) as { data?: unknown }).data;
      } catch {
        data = undefined;
      }
      if (data === 'Confirm wake service') {
        return fail({
          ...base,
          kind: 'invalidRequest',
          reason: 'serviceIdle',
          status,
          serverMessage: 'Confirm wake service',
          hint: 'The service is idle; running the query wakes it, which can take a minute and starts billing.',
          retryable: false,
        });
      }
      if (data === 'Service is stopped') {
        return fail({
          ...base,
          kind: 'invalidRequest',
          reason: 'serviceStopped',
          status,
          serverMessage: 'Service is stopped',
          hint: 'Start the service in the ClickHouse Cloud console, then run the query again.',
          retryable: false,
        });
      }
      return fail({
        ...base,
        kind: 'invalidResponse',
        reason: 'other',
        status,
        serverMessage: text.slice(0, 300) || undefined,
        detail: 'the query host answered 206 without a known service state',
      });
    }
    if ((status === 401 || status === 403) && this.transport === 'clickhouseHttp') {
      const ch =
        parseClickHouseError(text) ??
        (exceptionCode && /^\d+$/.test(exceptionCode) && text.trim()
          ? parseClickHouseError(`Code: ${exceptionCode}. ${text.trim()}`)
          : undefined);
      return fail({
        ...base,
        kind: status === 401 ? 'unauthorized' : 'forbidden',
        reason: 'accessDenied',
        status,
        serverMessage: ch?.text ?? (text.trim().slice(0, 300) || undefined),
        ...(ch ? { clickHouse: ch } : {}),
        hint: 'ClickHouse refused the user or password (or this user may not run the statement). Set the ClickHouse access again, then retry.',
      });
    }
    if (status === 401 || status === 403) {
      return fail({
        ...base,
        kind: status === 401 ? 'unauthorized' : 'forbidden',
        reason: 'keyNotEnabled',
        status,
        serverMessage: jsonError(text) ?? (text.trim().slice(0, 300) || undefined),
        hint: "This API key is not enabled on the service's query endpoint (or its ID or secret is wrong). Enable the key on the query endpoint, then run the query again.",
      });
    }
    // A stopped service, as the live query host answers it (a 404 with this message).
    if (status === 404 && jsonError(text) === STOPPED_SERVICE_MESSAGE) {
      return fail({
        ...base,
        kind: 'invalidRequest',
        reason: 'serviceStopped',
        status,
        serverMessage: STOPPED_SERVICE_MESSAGE,
        hint: 'The service is stopped (or not reachable). Start it in the ClickHouse Cloud console, then run the query again.',
        retryable: false,
      });
    }
    // ClickHouse's own HTTP interface names the code in a header and sends the message as plain text.
    const ch =
      parseClickHouseError(text) ??
      (exceptionCode && /^\d+$/.test(exceptionCode) && text.trim()
        ? parseClickHouseError(`Code: ${exceptionCode}. ${text.trim()}`)
        : undefined);
    if (ch) {
      return fail({
        ...base,
        kind: status >= 500 ? 'serverError' : 'invalidRequest',
        reason: 'sql',
        status,
        serverMessage: ch.text,
        clickHouse: ch,
        retryable: false,
      });
    }
    const message = jsonError(text);
    if (status === 500 && message === 'Timeout error.') {
      return fail({
        ...base,
        kind: 'timeout',
        reason: 'gatewayTimeout',
        status,
        serverMessage: message,
        hint: 'The query host stopped waiting; the statement may still be running on the service.',
        retryable: false,
      });
    }
    const html = /text\/html/i.test(contentType) || /^\s*</.test(text);
    return fail({
      ...base,
      kind: kindForStatus(status, html),
      reason: 'other',
      status,
      serverMessage: message ?? (html ? undefined : text.trim().slice(0, 300) || undefined),
      retryable: false,
    });
  }
}

/** (U)Int64/128/256, also inside Nullable or LowCardinality: the types ClickHouse may quote in JSON. */
export function isWideInteger(type: string): boolean {
  let t = type.trim();
  for (
    let m = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(t);
    m;
    m = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(t)
  ) {
    t = (m[1] as string).trim();
  }
  return /^U?Int(?:64|128|256)$/.test(t);
}

/** A 64-bit (or wider) integer cell: a number when a JavaScript number holds it exactly, else its decimal text. */
export function readWideInteger(v: unknown): unknown {
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) return v;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}

/**
 * A JSON text with every bare integer literal beyond ±(2^53 − 1) quoted, so `JSON.parse` keeps its exact digits
 * (for a query host that does not pass the quoting setting on). Strings and other numbers are left as they are.
 */
export function quoteUnsafeIntegers(json: string): string {
  if (!/\d{16}/.test(json)) return json;
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i] as string;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      continue;
    }
    if (ch === '-' || (ch >= '0' && ch <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(json.slice(i, i + 400));
      if (!m) continue;
      const token = m[0];
      if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(Number(token))) {
        out += `${json.slice(from, i)}"${token}"`;
        from = i + token.length;
      }
      i += token.length - 1;
    }
  }
  return from === 0 ? json : out + json.slice(from);
}

function parseSummary(header: string): QueryStats | undefined {
  try {
    const s = JSON.parse(header) as Record<string, unknown>;
    const num = (v: unknown): number | undefined =>
      v === undefined ? undefined : Number.isFinite(Number(v)) ? Number(v) : undefined;
    const stats: QueryStats = {};
    const rr = num(s.read_rows);
    const rb = num(s.read_bytes);
    const el = num(s.elapsed_ns);
    if (rr !== undefined) stats.readRows = rr;
    if (rb !== undefined) stats.readBytes = rb;
    if (el !== undefined) stats.elapsedNs = el;
    return stats;
  } catch {
    return undefined;
  }
}

/** Rows as CSV (RFC 4180), with a header row. */
export function toCsv(columns: readonly QueryColumn[], rows: readonly unknown[][]): string {
  const cell = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns.map((c) => cell(c.name)).join(','), ...rows.map((r) => r.map(cell).join(','))].join('\r\n') + '\r\n';
}

/** Rows as a JSON array of objects keyed by column name. */
export function toJsonObjects(columns: readonly QueryColumn[], rows: readonly unknown[][]): Record<string, unknown>[] {
  return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c.name, r[i]])));
}

/** Rows as a Markdown table. */
export function toMarkdown(columns: readonly QueryColumn[], rows: readonly unknown[][]): string {
  const cell = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  };
  const head = `| ${columns.map((c) => cell(c.name)).join(' | ')} |`;
  const sep = `| ${columns.map((c) => (/^(U?Int|Float|Decimal)/.test(c.type.replace(/^(Nullable|LowCardinality)\(/, '')) ? '---:' : '---')).join(' | ')} |`;
  return [head, sep, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n') + '\n';
}

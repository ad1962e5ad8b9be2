/**
 * The request engine: everything a request to the API goes through, whatever the API flavor (`flavor.ts`).
 *
 * Per request: path parameters are validated before anything is sent; the shared per-key rate limiter is awaited;
 * the credential is read (`await getSecret()`, never kept) and turned into the `Authorization` header by the flavor;
 * ONE deadline covers the whole exchange; the success body is unwrapped by the flavor and its value checked against
 * the response schema; lists are read page by page within bounds, each item checked on its own; failures become
 * `ApiError`s that name the operation, HTTP status, server message and request ID, and never contain the secret.
 * Retries: 429 (waiting what the server asks), 502–504 and reset connections for idempotent requests; creating
 * requests only when the server cannot have acted.
 */
import type { z } from 'zod';
import { pathParamIssues, splitBaseUrl, type PathParam } from './connection';
import { ApiError, kindForStatus, type ApiErrorInit, type ApiErrorIssue, type ApiErrorKind } from './errors';
import { shorten } from './errorBody';
import { countJsonContainers, formatCount, MAX_LIST_CONTAINERS, MAX_RESPONSE_CONTAINERS } from './jsonBounds';
import type { ApiCredential, ApiFlavor, UnwrapExpect } from './flavor';
import { headerValue, send, TransportError, type TransportResponse } from './http';
import { createDispatcher } from './proxy';
import { abortReason, limiterFor, type Grant, type RateLimiter } from './rateLimiter';
import { redact } from './redact';
import { cleanRequestId } from './sanitize';
import type { Dispatcher } from './undici';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestLogEntry {
  operation: string;
  method: string;
  /** Path with query string; never holds credentials. */
  path: string;
  status?: number;
  durationMs: number;
  requestId?: string;
  attempt: number;
  errorKind?: ApiErrorKind;
}

export interface ApiResponse<T> {
  data: T;
  requestId?: string;
  status: number;
}

/** A list item the extension could not read; the other items of the list are still returned. */
export interface SkippedListItem {
  /** Position in the whole list (0-based, across pages). */
  index: number;
  /** The item's `id`, when it has a readable one. */
  id?: string;
  /** What does not match, at paths inside the item (`threshold`, `tiles.0.x`). */
  issues: ApiErrorIssue[];
}

/** A whole list: the readable items, the ones that could not be read, and what it cost. */
export interface ListResponse<T> extends ApiResponse<T[]> {
  /** Items that did not match the expected shape (empty when every item was read). */
  skipped: SkippedListItem[];
  /** Requests sent for the list (pages). */
  pages: number;
  /** The list size the service reported (`totalCount`), when it reported one. */
  totalCount?: number;
}

/** Bounds of one list read; reaching one is an error that names it, never a silent cut. */
export interface ListBounds {
  /** Most items of one list (default 100 000). */
  maxItems?: number;
  /** Most response bytes of one list (default 256 MiB). */
  maxBytes?: number;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface PageOptions extends ListBounds {
  /** Items per page, 1–1000 (default 1000). */
  pageSize?: number;
}

export interface ClientTimeouts {
  /** TCP + TLS connect (default 10 000 ms). Applies when the client creates its own dispatcher. */
  connectMs?: number;
  /** Until the response headers arrive (default 30 000 ms). */
  headersMs?: number;
  /** Between two body chunks (default 30 000 ms). */
  bodyMs?: number;
  /**
   * ONE deadline for each request sent, in ms: it starts when the rate limiter lets the request go, before it is
   * queued for a connection, and ends it whatever stage it is in (connecting, proxy tunnel, interim 1xx responses,
   * headers, body). Default: the larger of `headersMs` and `bodyMs`.
   */
  requestMs?: number;
}

export interface RetryOptions {
  /** Attempts per request including the first (default 4). */
  maxAttempts?: number;
  /** First backoff delay (default 500 ms); doubles per attempt, with jitter. */
  baseDelayMs?: number;
  /** Cap of the exponential backoff (default 8 000 ms). */
  maxDelayMs?: number;
  /** Cap of a wait the server asks for on 429 (default 60 000 ms). */
  maxRateLimitDelayMs?: number;
}

export interface RequestEngineOptions extends EngineTuning {
  flavor: ApiFlavor;
  /** Origin and optional path prefix of the API (`https://api.clickhouse.cloud`). Checked by the caller. */
  baseUrl: string;
  /** The key ID handed to the flavor with the secret (cloud: the Basic user name; may be empty). */
  keyId: string;
  getSecret: () => string | Promise<string>;
  /**
   * When no `limiter` is given: the limiter of the credential a request is sent with (read per request), for APIs
   * that count requests per key when the key is not known up front. Default: `limiterFor(keyId)`.
   */
  limiterForCredential?: (cred: ApiCredential) => RateLimiter;
}

/** The optional settings of a request engine; clients take them as they are and hand them on. */
export interface EngineTuning {
  /** Default `observability-explorer/<version>`. */
  userAgent?: string;
  /** Default: a keep-alive agent built by `createDispatcher` (no proxy unless the environment sets one). */
  dispatcher?: Dispatcher;
  /** Default: `limiterFor(keyId)`, shared by every client of the key. */
  limiter?: RateLimiter;
  timeouts?: ClientTimeouts;
  retry?: RetryOptions;
  /** Called once per attempt; must not throw (errors are ignored). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Default bounds of list reads (per list). */
  listBounds?: ListBounds;
  /** Called when a list holds items that could not be read (they are left out); must not throw. */
  onSkippedItems?: (operation: string, skipped: readonly SkippedListItem[]) => void;
}

/** How a failed attempt may be repeated. */
export type RetryPolicy =
  /** GET, PUT, DELETE and read-only POSTs: 429, 502–504, refused/reset connections. */
  | 'idempotent'
  /** Creating POSTs: only when the server cannot have acted (429, refused, connect timeout). */
  | 'unsafe';

export interface CallSpec<T> {
  operation: string;
  method: HttpMethod;
  /** Path below the base URL's prefix, from the flavor (`resourcePath`). */
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Schema for the unwrapped value; null when no value is expected (DELETE). */
  result: z.ZodType<T> | null;
  retry: RetryPolicy;
  /** What a JSON 404 means: an error (default), `null` data, or success. */
  onNotFound?: 'error' | 'null' | 'success';
  /** Path parameters, checked before anything is sent. */
  params?: readonly PathParam[];
}

export interface ListSpec<T> {
  operation: string;
  path: string;
  /** Schema of one item; an item that does not match is skipped and reported. */
  item: z.ZodType<T>;
  params?: readonly PathParam[];
  /** Lists whose API declares `limit`/`offset`: page options (an empty object pages with the defaults). */
  paging?: PageOptions & RequestOptions;
}

/** One page of a list as the service sent it, before its items are checked. */
interface RawListPage {
  items: unknown[];
  /** The size of the whole list, when the service reports one. */
  totalCount?: number;
  /** Size of the response body in bytes. */
  bytes: number;
  /** Objects and arrays of the response body (see `countJsonContainers`). */
  containers: number;
}

declare const EXTENSION_VERSION: string | undefined;
const VERSION = typeof EXTENSION_VERSION === 'string' ? EXTENSION_VERSION : '0.0.0-dev';
export const DEFAULT_USER_AGENT = `observability-explorer/${VERSION}`;

export const DEFAULT_PAGE_SIZE = 1000;
/** Default bounds of one list read. */
export const DEFAULT_LIST_BOUNDS: Required<ListBounds> = { maxItems: 100_000, maxBytes: 256 * 1024 * 1024 };
const MAX_PAGES = 10_000;
const DEFAULTS = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRateLimitDelayMs: 60_000,
} as const;

/** A create (or another request that is not sent twice) whose answer never came: the user should not blindly resend it. */
const MAY_HAVE_APPLIED_HINT =
  'The request may have reached the service and been applied: refresh and check before trying again.';
const ACCEPTED_UNREADABLE_HINT =
  'The service accepted the request, but its answer could not be read: refresh and check the result before trying again.';

const NOT_REACHED_RETRY_CODES = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EAI_AGAIN']);
const RESET_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_CLOSED']);
const RETRY_STATUSES = new Set([502, 503, 504]);

export class RequestEngine {
  readonly flavor: ApiFlavor;
  readonly origin: string;
  readonly prefix: string;
  private readonly keyId: string;
  private readonly getSecret: () => string | Promise<string>;
  private readonly userAgent: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly limiter: RateLimiter | ((cred: ApiCredential) => RateLimiter);
  private readonly timeouts: Required<ClientTimeouts>;
  private readonly retry: Required<RetryOptions>;
  private readonly onRequest: ((entry: RequestLogEntry) => void) | undefined;
  private readonly listBounds: Required<ListBounds>;
  private readonly onSkippedItems: ((operation: string, skipped: readonly SkippedListItem[]) => void) | undefined;

  constructor(options: RequestEngineOptions) {
    this.flavor = options.flavor;
    const { origin, prefix } = splitBaseUrl(options.baseUrl);
    this.origin = origin;
    this.prefix = prefix;
    this.keyId = options.keyId;
    this.getSecret = options.getSecret;
    this.userAgent = options.userAgent?.trim() || DEFAULT_USER_AGENT;
    this.timeouts = {
      connectMs: positive(options.timeouts?.connectMs, DEFAULTS.connectMs),
      headersMs: positive(options.timeouts?.headersMs, DEFAULTS.headersMs),
      bodyMs: positive(options.timeouts?.bodyMs, DEFAULTS.bodyMs),
      requestMs: 0,
    };
    this.timeouts.requestMs = positive(
      options.timeouts?.requestMs,
      Math.max(this.timeouts.headersMs, this.timeouts.bodyMs),
    );
    this.retry = {
      maxAttempts: Math.max(1, Math.floor(positive(options.retry?.maxAttempts, DEFAULTS.maxAttempts))),
      baseDelayMs: nonNegative(options.retry?.baseDelayMs, DEFAULTS.baseDelayMs),
      maxDelayMs: nonNegative(options.retry?.maxDelayMs, DEFAULTS.maxDelayMs),
      maxRateLimitDelayMs: nonNegative(options.retry?.maxRateLimitDelayMs, DEFAULTS.maxRateLimitDelayMs),
    };
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? createDispatcher({ connectTimeoutMs: this.timeouts.connectMs });
    this.limiter = options.limiter ?? options.limiterForCredential ?? limiterFor(options.keyId);
    this.onRequest = options.onRequest;
    this.listBounds = {
      maxItems: Math.floor(positive(options.listBounds?.maxItems, DEFAULT_LIST_BOUNDS.maxItems)),
      maxBytes: positive(options.listBounds?.maxBytes, DEFAULT_LIST_BOUNDS.maxBytes),
    };
    this.onSkippedItems = options.onSkippedItems;
  }

  /** Closes the dispatcher if the engine created it. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }
  /** Sends one request (retrying as its policy allows) and checks the value of the answer against `spec.result`. */
  async call<T>(spec: CallSpec<T>, opts?: RequestOptions): Promise<ApiResponse<T>> {
    return (await this.exchange(
      spec as CallSpec<unknown>,
      opts,
      spec.result === null ? 'none' : 'one',
    )) as ApiResponse<T>;
  }

  /**
   * Reads a whole list. Each item is checked on its own: an item that does not match is left
   * out and reported in `skipped` (and to `onSkippedItems`), the others are returned.
   *
   * With `paging` (lists whose API declares `limit`/`offset`), pages are requested at the
   * offset of the items received so far, so a service that returns fewer items than `limit`
   * asks for is read to the end. The list ends when the reported `totalCount` is reached, at
   * an empty page, or when a page brings no new ID (a service that ignores `offset`). The
   * bounds on items, bytes and pages end an endless list with an error that names the bound.
   * Without `paging`, one request is sent and no paging parameters.
   */
  async readList<T>(list: ListSpec<T>, opts?: RequestOptions): Promise<ListResponse<T>> {
    const { operation, path, item, paging } = list;
    const params = list.params ?? [];
    const signal = opts?.signal ?? paging?.signal;
    const callOpts = signal ? { signal } : undefined;
    const items: T[] = [];
    const skipped: SkippedListItem[] = [];
    const readPage = (page: RawListPage, at: number, seen?: Set<unknown>): number => {
      let fresh = 0;
      const raw = page.items;
      for (let i = 0; i < raw.length; i++) {
        const value = raw[i];
        let id: string | undefined;
        if (typeof value === 'object' && value !== null) {
          const candidate = (value as { id?: unknown }).id;
          if (typeof candidate === 'string') id = candidate;
        }
        if (seen && id !== undefined) {
          if (seen.has(id)) continue;
          seen.add(id);
        }
        fresh++;
        const parsed = item.safeParse(value);
        if (parsed.success) items.push(parsed.data);
        else skipped.push({ index: at + i, ...(id !== undefined ? { id } : {}), issues: zodIssues(parsed.error) });
      }
      return fresh;
    };
    const finish = (
      last: ApiResponse<RawListPage> | undefined,
      pages: number,
      totalCount: number | undefined,
    ): ListResponse<T> => {
      const result: ListResponse<T> = { data: items, status: last?.status ?? 200, skipped, pages };
      if (last?.requestId !== undefined) result.requestId = last.requestId;
      if (totalCount !== undefined) result.totalCount = totalCount;
      if (skipped.length > 0 && this.onSkippedItems) {
        try {
          this.onSkippedItems(operation, skipped);
        } catch {
          // A logging hook must never break a request.
        }
      }
      return result;
    };
    const getPage = (query?: Record<string, string | number>) =>
      this.exchange(
        { operation, method: 'GET', path, ...(query ? { query } : {}), result: null, retry: 'idempotent', params },
        callOpts,
        'list',
      ) as Promise<ApiResponse<RawListPage>>;

    /** The list bound a page reaches before its items are checked, if it reaches one (a page padded with items). */
    const overBeforeChecking = (page: RawListPage, maxItems: number, slack: number): string | undefined =>
      items.length + skipped.length + page.items.length > maxItems + slack ? `${maxItems} items` : undefined;

    if (paging === undefined) {
      const page = await getPage();
      const bound = overBeforeChecking(page.data, this.listBounds.maxItems, 0);
      if (bound !== undefined) throw this.listBoundError(operation, path, page, bound, 1, page.data.items.length, 0);
      readPage(page.data, 0);
      return finish(page, 1, page.data.totalCount);
    }

    const pageSize = paging.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
      throw invalidInput(operation, 'GET', [{ path: 'pageSize', message: 'must be a whole number from 1 to 1000' }]);
    }
    const maxItems = Math.floor(positive(paging.maxItems, this.listBounds.maxItems));
    const maxBytes = positive(paging.maxBytes, this.listBounds.maxBytes);
    const pageQuery = this.flavor.pageQuery ?? ((limit: number, offset: number) => ({ limit, offset }));
    const seen = new Set<unknown>();
    let offset = 0;
    let bytes = 0;
    let containers = 0;
    let totalCount: number | undefined;
    let last: ApiResponse<RawListPage> | undefined;
    for (let pages = 1; ; pages++) {
      last = await getPage(pageQuery(pageSize, offset));
      const page = last.data;
      bytes += page.bytes;
      containers += page.containers;
      const early =
        overBeforeChecking(page, maxItems, pageSize) ??
        (containers > MAX_LIST_CONTAINERS ? `${formatCount(MAX_LIST_CONTAINERS)} objects and arrays` : undefined);
      if (early !== undefined) {
        throw this.listBoundError(
          operation,
          path,
          last,
          early,
          pages,
          items.length + skipped.length + page.items.length,
          bytes,
        );
      }
      if (page.totalCount !== undefined) totalCount = page.totalCount;
      const fresh = readPage(page, offset, seen);
      offset += page.items.length;
      const done = page.items.length === 0 || fresh === 0 || (totalCount !== undefined && offset >= totalCount);
      if (done) return finish(last, pages, totalCount);
      const count = items.length + skipped.length;
      const bound =
        count > maxItems
          ? `${maxItems} items`
          : bytes > maxBytes
            ? `${formatBytes(maxBytes)} of responses`
            : pages >= MAX_PAGES
              ? `${MAX_PAGES} pages`
              : undefined;
      if (bound !== undefined) throw this.listBoundError(operation, path, last, bound, pages, count, bytes);
    }
  }

  private listBoundError(
    operation: string,
    path: string,
    last: ApiResponse<RawListPage>,
    bound: string,
    pages: number,
    count: number,
    bytes: number,
  ): ApiError {
    return new ApiError({
      kind: 'invalidResponse',
      operation,
      method: 'GET',
      path: this.prefix + path,
      ...(last.status !== undefined ? { status: last.status } : {}),
      ...(last.requestId !== undefined ? { requestId: last.requestId } : {}),
      detail: `the list was not read to the end: it reached the bound of ${bound} per list after ${pages} pages (${count} items, ${formatBytes(bytes || last.data.bytes)}) and the service was still sending items`,
      hint: 'The list is larger than the extension reads at once, or the service keeps sending new items: try again later, or narrow it on the service.',
      retryable: false,
    });
  }

  /** One request with its retries; the success body is unwrapped as `expect` says (a list: a raw page). */
  private async exchange(
    spec: CallSpec<unknown>,
    opts: RequestOptions | undefined,
    expect: UnwrapExpect,
  ): Promise<ApiResponse<unknown>> {
    const fullPath = this.prefix + spec.path;
    const base = { operation: spec.operation, method: spec.method, path: fullPath };
    if (spec.params && spec.params.length > 0) {
      const paramProblems = pathParamIssues(spec.params);
      if (paramProblems.length > 0) throw invalidInput(spec.operation, spec.method, paramProblems);
    }
    const signal = opts?.signal;
    if (signal?.aborted) throw cancelled(base);

    const cred: ApiCredential = { keyId: this.keyId, secret: await this.readSecret(base) };
    const limiter = typeof this.limiter === 'function' ? this.limiter(cred) : this.limiter;
    const forms = this.flavor.secretForms?.(cred);
    const secrets = forms && forms.length > 0 ? [cred.secret, ...forms] : [cred.secret];
    const request = this.requestOf(spec, cred, fullPath);
    // Whether an earlier attempt may have reached the server and acted (its answer was lost or was a 5xx): only
    // then does a 404 to a DELETE mean "already gone".
    let mayHaveActed = false;
    for (let attempt = 1; ; attempt++) {
      const { outcome, durationMs } = await this.attempt(limiter, request, signal, base);
      const log = (entry: Partial<RequestLogEntry>) => {
        if (this.onRequest) this.log({ ...base, path: request.path, durationMs, attempt, ...entry });
      };

      if ('failure' in outcome) {
        const f = outcome.failure;
        const error = this.makeError(
          {
            ...base,
            kind: f.kind,
            detail: f.message,
            ...(f.status !== undefined ? { status: f.status } : {}),
            cause: f,
            ...(spec.retry === 'unsafe' && f.mayHaveReachedServer && f.kind !== 'cancelled'
              ? { hint: MAY_HAVE_APPLIED_HINT }
              : {}),
          },
          secrets,
          attempt,
        );
        log({ errorKind: error.kind, ...(f.status !== undefined ? { status: f.status } : {}) });
        if (f.mayHaveReachedServer) mayHaveActed = true;
        if (f.kind !== 'cancelled' && attempt < this.retry.maxAttempts && this.mayRetryTransport(spec.retry, f)) {
          await this.sleep(this.backoff(attempt), signal, base);
          continue;
        }
        throw error;
      }

      const res = outcome.response;
      if (res.status >= 200 && res.status < 300) return this.success(spec, expect, res, base, secrets, attempt, log);
      const answer = this.failureAnswer(spec, res, { base, secrets, attempt, mayHaveActed, log, limiter });
      if ('data' in answer) return answer.data;
      if (res.status >= 500) mayHaveActed = true;
      if ('error' in answer) throw answer.error;
      await this.sleep(answer.retryInMs, signal, base);
    }
  }

  /** Path with its query string, headers and body of a call. */
  private requestOf(
    spec: CallSpec<unknown>,
    cred: ApiCredential,
    fullPath: string,
  ): { path: string; headers: Record<string, string>; body?: string } {
    const query = spec.query
      ? '?' +
        new URLSearchParams(Object.entries(spec.query).map(([k, v]): [string, string] => [k, String(v)])).toString()
      : '';
    const headers: Record<string, string> = {
      authorization: this.flavor.authHeader(cred),
      accept: 'application/json',
      'user-agent': this.userAgent,
    };
    if (spec.body === undefined) return { path: fullPath + query, headers };
    headers['content-type'] = 'application/json';
    return { path: fullPath + query, headers, body: JSON.stringify(spec.body) };
  }

  /** One attempt in a slot of the rate budget: the response, or the transport's failure. */
  private async attempt(
    limiter: RateLimiter,
    request: { path: string; headers: Record<string, string>; body?: string },
    signal: AbortSignal | undefined,
    base: { operation: string; method: HttpMethod; path: string },
  ): Promise<{ outcome: { response: TransportResponse } | { failure: TransportError }; durationMs: number }> {
    let grant: Grant;
    try {
      grant = await limiter.acquireSlot(signal);
    } catch (err) {
      if (signal?.aborted) throw cancelled(base);
      throw err;
    }
    const started = performance.now();
    let outcome: { response: TransportResponse } | { failure: TransportError };
    try {
      outcome = {
        response: await send(this.dispatcher, {
          origin: this.origin,
          path: request.path,
          method: base.method,
          headers: request.headers,
          ...(request.body !== undefined ? { body: request.body } : {}),
          ...(signal ? { signal } : {}),
          headersTimeoutMs: this.timeouts.headersMs,
          bodyTimeoutMs: this.timeouts.bodyMs,
          deadlineMs: this.timeouts.requestMs,
        }),
      };
    } catch (err) {
      if (!(err instanceof TransportError)) throw err;
      outcome = { failure: err };
    } finally {
      // The server has seen the request by now if it ever will: the window counts from here.
      grant.done();
    }
    return { outcome, durationMs: Math.round((performance.now() - started) * 10) / 10 };
  }

  /** A 2xx answer, read; an answer that cannot be read is an `invalidResponse` error (logged). */
  private success(
    spec: CallSpec<unknown>,
    expect: UnwrapExpect,
    res: TransportResponse,
    base: { operation: string; method: string; path: string },
    secrets: readonly string[],
    attempt: number,
    log: (entry: Partial<RequestLogEntry>) => void,
  ): ApiResponse<unknown> {
    try {
      const parsed = this.readSuccess(spec, expect, res, base, secrets);
      log({ status: res.status, ...(parsed.requestId !== undefined ? { requestId: parsed.requestId } : {}) });
      return parsed;
    } catch (err) {
      const init: ApiErrorInit =
        err instanceof ApiError
          ? initOf(err)
          : { ...base, kind: 'invalidResponse', status: res.status, detail: String(err) };
      // The service accepted a change but its answer could not be read: sending it again could apply it twice.
      if (spec.method !== 'GET') init.hint = ACCEPTED_UNREADABLE_HINT;
      const error = this.makeError(init, secrets, attempt);
      log({
        status: res.status,
        errorKind: error.kind,
        ...(error.requestId !== undefined ? { requestId: error.requestId } : {}),
      });
      throw error;
    }
  }

  /**
   * What an answer that is not a 2xx means (logged): data after all (a 404 the call accepts), the wait before the
   * next attempt when it may be retried, or the error. A 429 holds back every request of the key for its wait.
   */
  private failureAnswer(
    spec: CallSpec<unknown>,
    res: TransportResponse,
    ctx: {
      base: { operation: string; method: string; path: string };
      secrets: readonly string[];
      attempt: number;
      mayHaveActed: boolean;
      log: (entry: Partial<RequestLogEntry>) => void;
      limiter: RateLimiter;
    },
  ): { data: ApiResponse<unknown> } | { error: ApiError } | { retryInMs: number } {
    const { base, attempt, log } = ctx;
    const info = this.readError(res, ctx.secrets);
    const kind = kindForStatus(res.status, info.html === true && info.json !== true);
    // A DELETE sent again after an attempt that may have acted (answer lost, or a 5xx) finds the resource gone:
    // that attempt worked. After a 429 (or any answer that says nothing was done) a 404 means "not found".
    const goneOnRetry = spec.method === 'DELETE' && attempt > 1 && ctx.mayHaveActed;
    if (
      res.status === 404 &&
      kind === 'notFound' &&
      (goneOnRetry || (spec.onNotFound && spec.onNotFound !== 'error'))
    ) {
      log({ status: res.status, ...(info.requestId !== undefined ? { requestId: info.requestId } : {}) });
      const data = spec.onNotFound === 'null' ? null : undefined;
      return {
        data: { data, status: res.status, ...(info.requestId !== undefined ? { requestId: info.requestId } : {}) },
      };
    }
    const retryAfterMs = res.status === 429 ? this.rateLimitDelay(res) : undefined;
    const init: ApiErrorInit = { ...base, kind, status: res.status };
    if (info.message !== undefined) init.serverMessage = info.message;
    if (info.requestId !== undefined) init.requestId = info.requestId;
    if (retryAfterMs !== undefined) init.retryAfterMs = retryAfterMs;
    if (res.status >= 300 && res.status < 400) init.detail = redirectDetail(res, this.origin);
    log({
      status: res.status,
      errorKind: kind,
      ...(info.requestId !== undefined ? { requestId: info.requestId } : {}),
    });
    const mayRetry = attempt < this.retry.maxAttempts;
    if (res.status === 429) {
      const wait = retryAfterMs ?? this.backoff(attempt);
      ctx.limiter.penalizeFor(wait);
      if (mayRetry) return { retryInMs: wait };
    } else if (RETRY_STATUSES.has(res.status) && spec.retry === 'idempotent' && mayRetry) {
      return { retryInMs: this.backoff(attempt) };
    }
    return { error: this.makeError(init, ctx.secrets, attempt) };
  }

  /** Unwraps a success body with the flavor and checks its value; throws an `invalidResponse` ApiError. */
  private readSuccess(
    spec: CallSpec<unknown>,
    expect: UnwrapExpect,
    res: TransportResponse,
    base: { operation: string; method: string; path: string },
    secrets: readonly string[],
  ): ApiResponse<unknown> {
    const headerRequestId = cleanRequestId(headerValue(res.headers, 'x-request-id'), secrets);
    const fail = (detail: string, issues?: ApiErrorIssue[], requestId?: string): never => {
      const init: ApiErrorInit = { ...base, kind: 'invalidResponse', status: res.status, detail };
      if (issues) init.issues = issues;
      const rid = requestId ?? headerRequestId;
      if (rid !== undefined) init.requestId = rid;
      throw new ApiError(init);
    };
    const done = (data: unknown, requestId: string | undefined): ApiResponse<unknown> =>
      requestId !== undefined ? { data, status: res.status, requestId } : { data, status: res.status };
    const text = res.body;
    if (expect === 'none' && text.trim() === '') return done(undefined, headerRequestId);
    // What parsing would build is bounded before anything is built (a few bytes can stand for an object each).
    const containers = countJsonContainers(text, MAX_RESPONSE_CONTAINERS);
    if (containers > MAX_RESPONSE_CONTAINERS) {
      fail(
        `the response holds more than ${formatCount(MAX_RESPONSE_CONTAINERS)} objects and arrays (the bound per response) and was not read`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const start = text.trimStart();
      fail(
        start === ''
          ? 'the response is empty'
          : `the response is not valid JSON (it starts with ${JSON.stringify(start.slice(0, 40))})`,
      );
    }
    const unwrapped = this.flavor.unwrap(json, expect);
    const requestId = cleanRequestId(unwrapped.requestId, secrets) ?? headerRequestId;
    if (!unwrapped.ok) {
      return fail(
        unwrapped.problem,
        unwrapped.path !== undefined
          ? [{ path: unwrapped.path, message: unwrapped.issue ?? unwrapped.problem }]
          : undefined,
        requestId,
      );
    }
    if (expect === 'list') {
      if (!Array.isArray(unwrapped.value)) return fail('the result is not a list', undefined, requestId);
      const page: RawListPage = {
        items: unwrapped.value,
        bytes: res.bytes ?? Buffer.byteLength(text, 'utf8'),
        containers,
      };
      if (unwrapped.totalCount !== undefined) page.totalCount = unwrapped.totalCount;
      return done(page, requestId);
    }
    if (expect === 'none' || spec.result === null) return done(undefined, requestId);
    const parsed = spec.result.safeParse(unwrapped.value);
    if (!parsed.success) {
      return fail(
        'the result does not match the expected shape',
        zodIssues(parsed.error, this.flavor.valuePath ?? ''),
        requestId,
      );
    }
    return done(parsed.data, requestId);
  }

  /** Message and request ID of an error response, cleaned of anything secret. */
  private readError(
    res: TransportResponse,
    secrets: readonly string[],
  ): { message?: string; requestId?: string; code?: string; json?: boolean; html?: boolean } {
    let parsed: ReturnType<ApiFlavor['parseError']>;
    try {
      parsed = this.flavor.parseError(res.status, res.body, res.headers, res.truncated);
    } catch {
      parsed = {};
    }
    const out: { message?: string; requestId?: string; code?: string; json?: boolean; html?: boolean } = {};
    if (parsed.json !== undefined) out.json = parsed.json;
    if (parsed.html !== undefined) out.html = parsed.html;
    if (typeof parsed.message === 'string' && parsed.message) out.message = shorten(parsed.message, 500);
    if (typeof parsed.code === 'string' && parsed.code) out.code = shorten(parsed.code, 100);
    const rid =
      cleanRequestId(parsed.requestId, secrets) ?? cleanRequestId(headerValue(res.headers, 'x-request-id'), secrets);
    if (rid !== undefined) out.requestId = rid;
    return out;
  }

  private mayRetryTransport(policy: RetryPolicy, f: TransportError): boolean {
    if (NOT_REACHED_RETRY_CODES.has(f.code) && !f.mayHaveReachedServer) return true;
    return policy === 'idempotent' && RESET_CODES.has(f.code);
  }

  /** Capped exponential backoff with jitter (half fixed, half random). */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  /** The wait a 429 asks for (see `rateLimitWaitMs`), at most `maxRateLimitDelayMs`. */
  private rateLimitDelay(res: TransportResponse): number | undefined {
    return rateLimitWaitMs(res.headers, this.retry.maxRateLimitDelayMs);
  }

  private async readSecret(base: { operation: string; method: string; path: string }): Promise<string> {
    let secret: string;
    try {
      secret = await this.getSecret();
    } catch (err) {
      throw new ApiError({
        ...base,
        kind: 'unauthorized',
        detail: 'the API key secret could not be read',
        hint: 'Set the API key secret for this connection again.',
        cause: err,
      });
    }
    if (typeof secret !== 'string' || secret.length === 0) {
      throw new ApiError({
        ...base,
        kind: 'unauthorized',
        detail: 'no API key secret is stored for this connection',
        hint: 'Set the API key secret for this connection.',
      });
    }
    return secret;
  }

  private sleep(
    ms: number,
    signal: AbortSignal | undefined,
    base: { operation: string; method: string; path: string },
  ): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(cancelled(base, abortReason(signal as AbortSignal)));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      if (signal) {
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }
    });
  }

  private makeError(init: ApiErrorInit, secrets: readonly string[], attempt: number): ApiError {
    const clean: ApiErrorInit = { ...init };
    if (clean.serverMessage !== undefined) clean.serverMessage = redact(clean.serverMessage, secrets);
    if (clean.detail !== undefined) clean.detail = redact(clean.detail, secrets);
    if (clean.requestId !== undefined) {
      const id = cleanRequestId(clean.requestId, secrets);
      if (id) clean.requestId = id;
      else delete clean.requestId;
    }
    if (attempt > 1 && clean.kind !== 'cancelled') {
      clean.detail = clean.detail ? `${clean.detail}, after ${attempt} attempts` : `after ${attempt} attempts`;
    }
    if (clean.issues) {
      clean.issues = clean.issues.map((i) => ({ path: redact(i.path, secrets), message: redact(i.message, secrets) }));
    }
    if (clean.cause instanceof Error) clean.cause = new Error(redact(clean.cause.message, secrets));
    const error = new ApiError(clean);
    error.message = redact(error.message, secrets);
    return error;
  }

  private log(entry: RequestLogEntry): void {
    if (!this.onRequest) return;
    try {
      this.onRequest(entry);
    } catch {
      // A logging hook must never break a request.
    }
  }
}

// ---- Helpers ----

export function invalidInput(operation: string, method: string, issues: ApiErrorIssue[]): ApiError {
  return new ApiError({
    kind: 'invalidInput',
    operation,
    method,
    path: '-',
    detail: 'the request was not sent because its input is invalid',
    issues,
  });
}

function cancelled(base: { operation: string; method: string; path: string }, cause?: unknown): ApiError {
  return new ApiError({ ...base, kind: 'cancelled', detail: 'cancelled', ...(cause !== undefined ? { cause } : {}) });
}

/** Flattens zod issues to `{path, message}` (unknown keys one by one), below `prefix`. */
export function zodIssues(error: z.ZodError, prefix = ''): ApiErrorIssue[] {
  const out: ApiErrorIssue[] = [];
  for (const issue of error.issues) {
    const path = [prefix, ...issue.path.map((p) => String(p))].filter((p) => p !== '').join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: path ? `${path}.${key}` : key, message: `unknown field "${key}" is not allowed` });
      }
    } else if (issue.code === 'invalid_key' && issue.issues[0]) {
      out.push({ path, message: `key ${issue.issues[0].message}` });
    } else {
      out.push({ path, message: issue.message });
    }
  }
  return out;
}

function initOf(err: ApiError): ApiErrorInit {
  const init: ApiErrorInit = { kind: err.kind, operation: err.operation, method: err.method, path: err.path };
  if (err.status !== undefined) init.status = err.status;
  if (err.serverMessage !== undefined) init.serverMessage = err.serverMessage;
  if (err.requestId !== undefined) init.requestId = err.requestId;
  if (err.issues !== undefined) init.issues = err.issues;
  if (err.detail !== undefined) init.detail = err.detail;
  if (err.retryAfterMs !== undefined) init.retryAfterMs = err.retryAfterMs;
  if (err.cause !== undefined) init.cause = err.cause;
  return init;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} bytes`;
}

/**
 * The wait a 429 asks for, in ms, at most `capMs`: `X-RateLimit-Reset` (seconds from now, epoch seconds or epoch
 * milliseconds), else `Retry-After` (seconds or HTTP date). Undefined when neither says.
 */
export function rateLimitWaitMs(headers: TransportResponse['headers'], capMs: number): number | undefined {
  const now = Date.now();
  let ms: number | undefined;
  const reset = headerValue(headers, 'x-ratelimit-reset')?.trim();
  if (reset && reset.length <= 20 && /^\d+(\.\d+)?$/.test(reset)) ms = resetDelayMs(Number(reset), now);
  const retryAfter = headerValue(headers, 'retry-after')?.trim();
  if (ms === undefined && retryAfter && retryAfter.length <= 64) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) ms = Number(retryAfter) * 1000;
    else {
      const at = Date.parse(retryAfter);
      if (!Number.isNaN(at)) ms = at - now;
    }
  }
  if (ms === undefined || !Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(0, Math.ceil(ms)), capMs);
}

/** Wait in ms until an `X-RateLimit-Reset` value: epoch milliseconds, epoch seconds, or seconds from now. */
export function resetDelayMs(value: number, nowEpochMs: number): number {
  if (value >= 1e12) return value - nowEpochMs;
  if (value >= 1e9) return value * 1000 - nowEpochMs;
  return value * 1000;
}

function redirectDetail(res: TransportResponse, origin: string): string {
  const location = headerValue(res.headers, 'location');
  if (!location) return 'the server answered with a redirect, which is not followed';
  try {
    const target = new URL(location, origin);
    const where = target.origin === origin ? target.pathname : `${target.origin}${target.pathname}`;
    return `the server redirected to ${where}, which is not followed`;
  } catch {
    return 'the server answered with a redirect, which is not followed';
  }
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function nonNegative(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 0 ? value : fallback;
}

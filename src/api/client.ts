/**
 * ObservabilityClient: typed access to the observability (ClickStack) REST API
 * of a hosted service, plus the organization, service, API-key and service
 * query-endpoint operations of the same cloud API.
 *
 * Per request: path parameters and bodies are validated before anything is
 * sent; the shared per-key rate limiter is awaited; HTTP Basic credentials are
 * built from the key ID and `await getSecret()` (the client never keeps the
 * secret); the `{status, requestId, result}` envelope is unwrapped and `result`
 * checked against the response schema. Failures become `ApiError`s whose text
 * never contains the secret.
 */
import type { z } from 'zod';
import {
  alertSchema,
  alertWriteSchema,
  apiKeySchema,
  dashboardSchema,
  dashboardUpdateSchema,
  dashboardValidationSchema,
  dashboardWriteSchema,
  organizationSchema,
  queryEndpointSchema,
  queryEndpointWriteSchema,
  savedSearchSchema,
  serviceSchema,
  sourceSchema,
  webhookSchema,
  type Alert,
  type AlertWrite,
  type ApiKey,
  type Dashboard,
  type DashboardWrite,
  type Organization,
  type QueryEndpoint,
  type QueryEndpointWrite,
  type SavedSearch,
  type Service,
  type Source,
  type Webhook,
} from '../schema';
import { connectionIssues, joinPath, pathParamIssues, splitBaseUrl, type ConnectionConfig, type PathParam } from './connection';
import { ApiError, kindForStatus, type ApiErrorInit, type ApiErrorIssue, type ApiErrorKind } from './errors';
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

export interface ObservabilityClientOptions {
  connection: ConnectionConfig;
  getSecret: () => string | Promise<string>;
  /** Default `observability-explorer/<version>`. */
  userAgent?: string;
  /** Default: a keep-alive agent built by `createDispatcher` (no proxy unless the environment sets one). */
  dispatcher?: Dispatcher;
  /** Default: `limiterFor(connection.keyId)`, shared by every client of the key. */
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
type RetryPolicy =
  /** GET, PUT, DELETE and read-only POSTs: 429, 502–504, refused/reset connections. */
  | 'idempotent'
  /** Creating POSTs: only when the server cannot have acted (429, refused, connect timeout). */
  | 'unsafe';

interface CallSpec<T> {
  operation: string;
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
  /** Schema for `result`; null when no result is expected (DELETE). */
  result: z.ZodType<T> | null;
  retry: RetryPolicy;
  /** What a JSON 404 means: an error (default), `null` data, or success. */
  onNotFound?: 'error' | 'null' | 'success';
  /** The result is a list: `data` is a `RawListPage` whose items are checked by the caller, one by one. */
  rawList?: true;
}

/** One page of a list as the service sent it, before its items are checked. */
interface RawListPage {
  items: unknown[];
  /** `totalCount` of the envelope (or of `meta`), when the service reports one. */
  totalCount?: number;
  /** Size of the response body in bytes. */
  bytes: number;
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
const MAY_HAVE_APPLIED_HINT = 'The request may have reached the service and been applied: refresh and check before trying again.';
const ACCEPTED_UNREADABLE_HINT = 'The service accepted the request, but its answer could not be read: refresh and check the result before trying again.';

const NOT_REACHED_RETRY_CODES = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EAI_AGAIN']);
const RESET_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_CLOSED']);
const RETRY_STATUSES = new Set([502, 503, 504]);

export class ObservabilityClient {
  readonly connection: Readonly<ConnectionConfig>;
  private readonly origin: string;
  private readonly prefix: string;
  private readonly getSecret: () => string | Promise<string>;
  private readonly userAgent: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly limiter: RateLimiter;
  private readonly timeouts: Required<ClientTimeouts>;
  private readonly retry: Required<RetryOptions>;
  private readonly onRequest: ((entry: RequestLogEntry) => void) | undefined;
  private readonly listBounds: Required<ListBounds>;
  private readonly onSkippedItems: ((operation: string, skipped: readonly SkippedListItem[]) => void) | undefined;

  constructor(options: ObservabilityClientOptions) {
    const issues = connectionIssues(options.connection);
    if (issues.length > 0) {
      throw new ApiError({ kind: 'invalidInput', operation: 'Connect', method: '-', path: '-', detail: 'the connection settings are invalid', issues });
    }
    this.connection = Object.freeze({ ...options.connection, serviceIds: [...options.connection.serviceIds] });
    const { origin, prefix } = splitBaseUrl(options.connection.baseUrl);
    this.origin = origin;
    this.prefix = prefix;
    this.getSecret = options.getSecret;
    this.userAgent = options.userAgent?.trim() || DEFAULT_USER_AGENT;
    this.timeouts = {
      connectMs: positive(options.timeouts?.connectMs, DEFAULTS.connectMs),
      headersMs: positive(options.timeouts?.headersMs, DEFAULTS.headersMs),
      bodyMs: positive(options.timeouts?.bodyMs, DEFAULTS.bodyMs),
      requestMs: 0,
    };
    this.timeouts.requestMs = positive(options.timeouts?.requestMs, Math.max(this.timeouts.headersMs, this.timeouts.bodyMs));
    this.retry = {
      maxAttempts: Math.max(1, Math.floor(positive(options.retry?.maxAttempts, DEFAULTS.maxAttempts))),
      baseDelayMs: nonNegative(options.retry?.baseDelayMs, DEFAULTS.baseDelayMs),
      maxDelayMs: nonNegative(options.retry?.maxDelayMs, DEFAULTS.maxDelayMs),
      maxRateLimitDelayMs: nonNegative(options.retry?.maxRateLimitDelayMs, DEFAULTS.maxRateLimitDelayMs),
    };
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? createDispatcher({ connectTimeoutMs: this.timeouts.connectMs });
    this.limiter = options.limiter ?? limiterFor(options.connection.keyId);
    this.onRequest = options.onRequest;
    this.listBounds = {
      maxItems: Math.floor(positive(options.listBounds?.maxItems, DEFAULT_LIST_BOUNDS.maxItems)),
      maxBytes: positive(options.listBounds?.maxBytes, DEFAULT_LIST_BOUNDS.maxBytes),
    };
    this.onSkippedItems = options.onSkippedItems;
  }

  /** Closes the dispatcher if the client created it. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  // ---- Organization, services, API keys ----

  async listOrganizations(opts?: RequestOptions): Promise<ListResponse<Organization>> {
    return this.readList('List organizations', this.cloudPath([]), organizationSchema, [], undefined, opts);
  }

  async listServices(orgId?: string, opts?: RequestOptions): Promise<ListResponse<Service>> {
    const org = orgId ?? this.connection.organizationId;
    return this.readList('List services', this.cloudPath([org, 'services']), serviceSchema, [{ name: 'organizationId', kind: 'uuid', value: org }], undefined, opts);
  }

  async listApiKeys(orgId?: string, opts?: RequestOptions): Promise<ListResponse<ApiKey>> {
    const org = orgId ?? this.connection.organizationId;
    return this.readList('List API keys', this.cloudPath([org, 'keys']), apiKeySchema, [{ name: 'organizationId', kind: 'uuid', value: org }], undefined, opts);
  }

  // ---- Dashboards ----

  /** All dashboards. The API declares no paging here (no `limit`/`offset`): one request. */
  async listDashboards(serviceId: string, opts?: RequestOptions): Promise<ListResponse<Dashboard>> {
    return this.readList('List dashboards', this.productPath(serviceId, 'dashboards'), dashboardSchema, svc(serviceId), undefined, opts);
  }

  async getDashboard(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<Dashboard>> {
    return this.call({ operation: 'Get dashboard', method: 'GET', path: this.productPath(serviceId, 'dashboards', id), result: dashboardSchema, retry: 'idempotent' }, opts, svc(serviceId, ['dashboardId', id]));
  }

  async createDashboard(serviceId: string, body: DashboardWrite, opts?: RequestOptions): Promise<ApiResponse<Dashboard>> {
    return this.call(
      { operation: 'Create dashboard', method: 'POST', path: this.productPath(serviceId, 'dashboards'), body: checkBody('Create dashboard', 'POST', dashboardWriteSchema, body, svc(serviceId)), result: dashboardSchema, retry: 'unsafe' },
      opts,
      svc(serviceId),
    );
  }

  async updateDashboard(serviceId: string, id: string, body: z.input<typeof dashboardUpdateSchema>, opts?: RequestOptions): Promise<ApiResponse<Dashboard>> {
    const params = svc(serviceId, ['dashboardId', id]);
    return this.call(
      { operation: 'Update dashboard', method: 'PUT', path: this.productPath(serviceId, 'dashboards', id), body: checkBody('Update dashboard', 'PUT', dashboardUpdateSchema, body, params), result: dashboardSchema, retry: 'idempotent' },
      opts,
      params,
    );
  }

  async deleteDashboard(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return this.call({ operation: 'Delete dashboard', method: 'DELETE', path: this.productPath(serviceId, 'dashboards', id), result: null, retry: 'idempotent' }, opts, svc(serviceId, ['dashboardId', id]));
  }

  /**
   * Asks the server to check a dashboard without saving it. The body goes to the
   * server as given (it only has to be a JSON object): the answer lists the problems.
   */
  async validateDashboard(serviceId: string, body: DashboardWrite | Record<string, unknown>, opts?: RequestOptions): Promise<ApiResponse<z.infer<typeof dashboardValidationSchema>>> {
    const params = svc(serviceId);
    if (!isPlainObject(body)) {
      throw invalidInput('Validate dashboard', 'POST', [{ path: '', message: 'the dashboard must be a JSON object' }]);
    }
    return this.call(
      { operation: 'Validate dashboard', method: 'POST', path: this.productPath(serviceId, 'dashboards', 'validate'), body, result: dashboardValidationSchema, retry: 'idempotent' },
      opts,
      params,
    );
  }

  // ---- Alerts ----

  /**
   * All alerts, page by page (`limit`/`offset`): until the reported `totalCount` is reached,
   * else until an empty page (a short page does not end the list).
   */
  async listAlerts(serviceId: string, paging?: PageOptions & RequestOptions, opts?: RequestOptions): Promise<ListResponse<Alert>> {
    return this.readList('List alerts', this.productPath(serviceId, 'alerts'), alertSchema, svc(serviceId), paging ?? {}, opts);
  }

  async getAlert(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    return this.call({ operation: 'Get alert', method: 'GET', path: this.productPath(serviceId, 'alerts', id), result: alertSchema, retry: 'idempotent' }, opts, svc(serviceId, ['alertId', id]));
  }

  async createAlert(serviceId: string, body: AlertWrite, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    const params = svc(serviceId);
    return this.call(
      { operation: 'Create alert', method: 'POST', path: this.productPath(serviceId, 'alerts'), body: checkBody('Create alert', 'POST', alertWriteSchema, body, params), result: alertSchema, retry: 'unsafe' },
      opts,
      params,
    );
  }

  async updateAlert(serviceId: string, id: string, body: AlertWrite, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    const params = svc(serviceId, ['alertId', id]);
    return this.call(
      { operation: 'Update alert', method: 'PUT', path: this.productPath(serviceId, 'alerts', id), body: checkBody('Update alert', 'PUT', alertWriteSchema, body, params), result: alertSchema, retry: 'idempotent' },
      opts,
      params,
    );
  }

  async deleteAlert(serviceId: string, id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return this.call({ operation: 'Delete alert', method: 'DELETE', path: this.productPath(serviceId, 'alerts', id), result: null, retry: 'idempotent' }, opts, svc(serviceId, ['alertId', id]));
  }

  // ---- Sources, webhooks, saved searches ----

  /** All sources. The API declares no paging here (no `limit`/`offset`): one request. */
  async listSources(serviceId: string, opts?: RequestOptions): Promise<ListResponse<Source>> {
    return this.readList('List sources', this.productPath(serviceId, 'sources'), sourceSchema, svc(serviceId), undefined, opts);
  }

  /** All webhooks, page by page (see `listAlerts`). */
  async listWebhooks(serviceId: string, paging?: PageOptions & RequestOptions, opts?: RequestOptions): Promise<ListResponse<Webhook>> {
    return this.readList('List webhooks', this.productPath(serviceId, 'webhooks'), webhookSchema, svc(serviceId), paging ?? {}, opts);
  }

  /** All saved searches, page by page (see `listAlerts`). */
  async listSavedSearches(serviceId: string, paging?: PageOptions & RequestOptions, opts?: RequestOptions): Promise<ListResponse<SavedSearch>> {
    return this.readList('List saved searches', this.productPath(serviceId, 'saved-searches'), savedSearchSchema, svc(serviceId), paging ?? {}, opts);
  }

  // ---- Service query endpoint ----

  /** The service query endpoint, or `data: null` when none is configured (the server answers 404). */
  async getQueryEndpoint(serviceId: string, opts?: RequestOptions): Promise<ApiResponse<QueryEndpoint | null>> {
    return this.call<QueryEndpoint | null>(
      { operation: 'Get query endpoint', method: 'GET', path: this.queryEndpointPath(serviceId), result: queryEndpointSchema, retry: 'idempotent', onNotFound: 'null' },
      opts,
      svc(serviceId),
    );
  }

  /** Creates the service query endpoint, or updates it in place. */
  async upsertQueryEndpoint(serviceId: string, body: QueryEndpointWrite, opts?: RequestOptions): Promise<ApiResponse<QueryEndpoint>> {
    const params = svc(serviceId);
    return this.call(
      {
        operation: 'Save query endpoint',
        method: 'POST',
        path: this.queryEndpointPath(serviceId),
        body: checkBody('Save query endpoint', 'POST', queryEndpointWriteSchema, body, params),
        result: queryEndpointSchema,
        retry: 'unsafe',
      },
      opts,
      params,
    );
  }

  /** Removes the service query endpoint; succeeds when there is none (404). */
  async deleteQueryEndpoint(serviceId: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return this.call({ operation: 'Delete query endpoint', method: 'DELETE', path: this.queryEndpointPath(serviceId), result: null, retry: 'idempotent', onNotFound: 'success' }, opts, svc(serviceId));
  }

  // ---- Internals ----

  private cloudPath(rest: string[]): string {
    return this.prefix + joinPath('v1', 'organizations', ...rest);
  }

  private productPath(serviceId: string, resource: string, id?: string): string {
    const rest = [this.connection.organizationId, 'services', serviceId, this.connection.pathSegment, resource];
    if (id !== undefined) rest.push(id);
    return this.cloudPath(rest);
  }

  private queryEndpointPath(serviceId: string): string {
    return this.cloudPath([this.connection.organizationId, 'services', serviceId, 'serviceQueryEndpoint']);
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
  private async readList<T>(
    operation: string,
    path: string,
    item: z.ZodType<T>,
    params: readonly PathParam[],
    paging: (PageOptions & RequestOptions) | undefined,
    opts: RequestOptions | undefined,
  ): Promise<ListResponse<T>> {
    const signal = opts?.signal ?? paging?.signal;
    const callOpts = signal ? { signal } : undefined;
    const items: T[] = [];
    const skipped: SkippedListItem[] = [];
    const readPage = (page: RawListPage, at: number, seen?: Set<unknown>): number => {
      let fresh = 0;
      page.items.forEach((raw, i) => {
        const id = isPlainObject(raw) && typeof raw.id === 'string' ? raw.id : undefined;
        if (seen && id !== undefined) {
          if (seen.has(id)) return;
          seen.add(id);
        }
        fresh++;
        const parsed = item.safeParse(raw);
        if (parsed.success) items.push(parsed.data);
        else skipped.push({ index: at + i, ...(id !== undefined ? { id } : {}), issues: zodIssues(parsed.error) });
      });
      return fresh;
    };
    const finish = (last: ApiResponse<RawListPage> | undefined, pages: number, totalCount: number | undefined): ListResponse<T> => {
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

    if (paging === undefined) {
      const page = await this.call<RawListPage>({ operation, method: 'GET', path, result: null, rawList: true, retry: 'idempotent' }, callOpts, params);
      readPage(page.data, 0);
      return finish(page, 1, page.data.totalCount);
    }

    const pageSize = paging.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
      throw invalidInput(operation, 'GET', [{ path: 'pageSize', message: 'must be a whole number from 1 to 1000' }]);
    }
    const maxItems = Math.floor(positive(paging.maxItems, this.listBounds.maxItems));
    const maxBytes = positive(paging.maxBytes, this.listBounds.maxBytes);
    const seen = new Set<unknown>();
    let offset = 0;
    let bytes = 0;
    let totalCount: number | undefined;
    let last: ApiResponse<RawListPage> | undefined;
    for (let pages = 1; ; pages++) {
      last = await this.call<RawListPage>(
        { operation, method: 'GET', path, query: { limit: pageSize, offset }, result: null, rawList: true, retry: 'idempotent' },
        callOpts,
        params,
      );
      const page = last.data;
      bytes += page.bytes;
      if (page.totalCount !== undefined) totalCount = page.totalCount;
      const fresh = readPage(page, offset, seen);
      offset += page.items.length;
      const done =
        page.items.length === 0 || fresh === 0 || (totalCount !== undefined && offset >= totalCount);
      if (done) return finish(last, pages, totalCount);
      const count = items.length + skipped.length;
      const bound =
        count > maxItems ? `${maxItems} items` : bytes > maxBytes ? `${formatBytes(maxBytes)} of responses` : pages >= MAX_PAGES ? `${MAX_PAGES} pages` : undefined;
      if (bound !== undefined) {
        throw new ApiError({
          kind: 'invalidResponse',
          operation,
          method: 'GET',
          path,
          ...(last.status !== undefined ? { status: last.status } : {}),
          ...(last.requestId !== undefined ? { requestId: last.requestId } : {}),
          detail: `the list was not read to the end: it reached the bound of ${bound} per list after ${pages} pages (${count} items, ${formatBytes(bytes)}) and the service was still sending items`,
          hint: 'The list is larger than the extension reads at once, or the service keeps sending new items: try again later, or narrow it on the service.',
          retryable: false,
        });
      }
    }
  }

  private async call<T>(spec: CallSpec<T>, opts: RequestOptions | undefined, params: readonly PathParam[] = []): Promise<ApiResponse<T>> {
    const paramProblems = pathParamIssues(params);
    if (paramProblems.length > 0) throw invalidInput(spec.operation, spec.method, paramProblems);
    const signal = opts?.signal;
    const base = { operation: spec.operation, method: spec.method, path: spec.path };
    if (signal?.aborted) throw cancelled(base);

    const secret = await this.readSecret(base);
    const token = Buffer.from(`${this.connection.keyId}:${secret}`, 'utf8').toString('base64');
    const secrets = [secret, token];
    const query = spec.query ? '?' + new URLSearchParams(Object.entries(spec.query).map(([k, v]): [string, string] => [k, String(v)])).toString() : '';
    const headers: Record<string, string> = {
      authorization: `Basic ${token}`,
      accept: 'application/json',
      'user-agent': this.userAgent,
    };
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }

    // Whether an earlier attempt may have reached the server and acted (its answer was lost or was a 5xx): only
    // then does a 404 to a DELETE mean "already gone".
    let mayHaveActed = false;
    for (let attempt = 1; ; attempt++) {
      let grant: Grant;
      try {
        grant = await this.limiter.acquireSlot(signal);
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
            path: spec.path + query,
            method: spec.method,
            headers,
            ...(body !== undefined ? { body } : {}),
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
      const durationMs = Math.round((performance.now() - started) * 10) / 10;
      const log = (entry: Partial<RequestLogEntry>) => this.log({ ...base, path: spec.path + query, durationMs, attempt, ...entry });

      if ('failure' in outcome) {
        const f = outcome.failure;
        const error = this.makeError({ ...base, kind: f.kind, detail: f.message, ...(f.status !== undefined ? { status: f.status } : {}), cause: f,
          ...(spec.retry === 'unsafe' && f.mayHaveReachedServer && f.kind !== 'cancelled' ? { hint: MAY_HAVE_APPLIED_HINT } : {}) }, secrets, attempt);
        log({ errorKind: error.kind, ...(f.status !== undefined ? { status: f.status } : {}) });
        if (f.mayHaveReachedServer) mayHaveActed = true;
        if (f.kind !== 'cancelled' && attempt < this.retry.maxAttempts && this.mayRetryTransport(spec.retry, f)) {
          await this.sleep(this.backoff(attempt), signal, base);
          continue;
        }
        throw error;
      }

      const res = outcome.response;
      if (res.status >= 200 && res.status < 300) {
        try {
          const parsed = parseSuccess(spec, res, base, secrets);
          log({ status: res.status, ...(parsed.requestId !== undefined ? { requestId: parsed.requestId } : {}) });
          return parsed;
        } catch (err) {
          const init: ApiErrorInit = err instanceof ApiError ? initOf(err) : { ...base, kind: 'invalidResponse', status: res.status, detail: String(err) };
          // The service accepted a change but its answer could not be read: sending it again could apply it twice.
          if (spec.method !== 'GET') init.hint = ACCEPTED_UNREADABLE_HINT;
          const error = this.makeError(init, secrets, attempt);
          log({ status: res.status, errorKind: error.kind, ...(error.requestId !== undefined ? { requestId: error.requestId } : {}) });
          throw error;
        }
      }

      const info = readErrorBody(res, secrets);
      const kind = kindForStatus(res.status, info.html && !info.json);
      // A DELETE sent again after an attempt that may have acted (answer lost, or a 5xx) finds the resource gone:
      // that attempt worked. After a 429 (or any answer that says nothing was done) a 404 means "not found".
      const goneOnRetry = spec.method === 'DELETE' && attempt > 1 && mayHaveActed;
      if (res.status === 404 && kind === 'notFound' && (goneOnRetry || (spec.onNotFound && spec.onNotFound !== 'error'))) {
        log({ status: res.status, ...(info.requestId !== undefined ? { requestId: info.requestId } : {}) });
        const data = (spec.onNotFound === 'null' ? null : undefined) as T;
        return { data, status: res.status, ...(info.requestId !== undefined ? { requestId: info.requestId } : {}) };
      }
      const retryAfterMs = res.status === 429 ? this.rateLimitDelay(res) : undefined;
      const init: ApiErrorInit = { ...base, kind, status: res.status };
      if (info.text !== undefined) init.serverMessage = info.text;
      if (info.requestId !== undefined) init.requestId = info.requestId;
      if (retryAfterMs !== undefined) init.retryAfterMs = retryAfterMs;
      if (res.status >= 300 && res.status < 400) init.detail = redirectDetail(res, this.origin);
      log({ status: res.status, errorKind: kind, ...(info.requestId !== undefined ? { requestId: info.requestId } : {}) });

      if (res.status >= 500) mayHaveActed = true;
      if (res.status === 429) {
        const wait = retryAfterMs ?? this.backoff(attempt);
        this.limiter.penalizeFor(wait);
        if (attempt < this.retry.maxAttempts) {
          await this.sleep(wait, signal, base);
          continue;
        }
      } else if (RETRY_STATUSES.has(res.status) && spec.retry === 'idempotent' && attempt < this.retry.maxAttempts) {
        await this.sleep(this.backoff(attempt), signal, base);
        continue;
      }
      throw this.makeError(init, secrets, attempt);
    }
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

  /**
   * The wait a 429 asks for: `X-RateLimit-Reset` (seconds from now, epoch seconds or epoch milliseconds), else
   * `Retry-After` (seconds or HTTP date).
   */
  private rateLimitDelay(res: TransportResponse): number | undefined {
    const now = Date.now();
    let ms: number | undefined;
    const reset = headerValue(res.headers, 'x-ratelimit-reset')?.trim();
    if (reset && reset.length <= 20 && /^\d+(\.\d+)?$/.test(reset)) ms = resetDelayMs(Number(reset), now);
    const retryAfter = headerValue(res.headers, 'retry-after')?.trim();
    if (ms === undefined && retryAfter) {
      if (/^\d+(\.\d+)?$/.test(retryAfter)) ms = Number(retryAfter) * 1000;
      else {
        const at = Date.parse(retryAfter);
        if (!Number.isNaN(at)) ms = at - now;
      }
    }
    if (ms === undefined || !Number.isFinite(ms)) return undefined;
    return Math.min(Math.max(0, Math.ceil(ms)), this.retry.maxRateLimitDelayMs);
  }

  private async readSecret(base: { operation: string; method: string; path: string }): Promise<string> {
    let secret: string;
    try {
      secret = await this.getSecret();
    } catch (err) {
      throw new ApiError({ ...base, kind: 'unauthorized', detail: 'the API key secret could not be read', hint: 'Set the API key secret for this connection again.', cause: err });
    }
    if (typeof secret !== 'string' || secret.length === 0) {
      throw new ApiError({ ...base, kind: 'unauthorized', detail: 'no API key secret is stored for this connection', hint: 'Set the API key secret for this connection.' });
    }
    return secret;
  }

  private sleep(ms: number, signal: AbortSignal | undefined, base: { operation: string; method: string; path: string }): Promise<void> {
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
    if (attempt > 1 && clean.kind !== 'cancelled') clean.detail = clean.detail ? `${clean.detail}, after ${attempt} attempts` : `after ${attempt} attempts`;
    if (clean.issues) clean.issues = clean.issues.map((i) => ({ path: redact(i.path, secrets), message: redact(i.message, secrets) }));
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

function svc(serviceId: string, extra?: [string, string]): PathParam[] {
  const params: PathParam[] = [{ name: 'serviceId', kind: 'uuid', value: serviceId }];
  if (extra) params.push({ name: extra[0], kind: 'resourceId', value: extra[1] });
  return params;
}

function invalidInput(operation: string, method: string, issues: ApiErrorIssue[]): ApiError {
  return new ApiError({ kind: 'invalidInput', operation, method, path: '-', detail: 'the request was not sent because its input is invalid', issues });
}

function cancelled(base: { operation: string; method: string; path: string }, cause?: unknown): ApiError {
  return new ApiError({ ...base, kind: 'cancelled', detail: 'cancelled', ...(cause !== undefined ? { cause } : {}) });
}

/** Validates path parameters and a request body; returns the body to send. */
function checkBody<S extends z.ZodType>(operation: string, method: string, schema: S, body: unknown, params: readonly PathParam[]): z.output<S> {
  const issues = pathParamIssues(params);
  const parsed = schema.safeParse(body);
  if (!parsed.success) issues.push(...zodIssues(parsed.error));
  if (issues.length > 0) throw invalidInput(operation, method, issues);
  return parsed.data as z.output<S>;
}

function zodIssues(error: z.ZodError, prefix = ''): ApiErrorIssue[] {
  const out: ApiErrorIssue[] = [];
  for (const issue of error.issues) {
    const path = [prefix, ...issue.path.map((p) => String(p))].filter((p) => p !== '').join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: path ? `${path}.${key}` : key, message: `unknown field "${key}" is not allowed` });
    } else {
      out.push({ path, message: issue.message });
    }
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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

function parseSuccess<T>(spec: CallSpec<T>, res: TransportResponse, base: { operation: string; method: string; path: string }, secrets: readonly string[]): ApiResponse<T> {
  const headerRequestId = cleanRequestId(headerValue(res.headers, 'x-request-id'), secrets);
  const fail = (detail: string, issues?: ApiErrorIssue[], requestId?: string): never => {
    const init: ApiErrorInit = { ...base, kind: 'invalidResponse', status: res.status, detail };
    if (issues) init.issues = issues;
    const rid = requestId ?? headerRequestId;
    if (rid !== undefined) init.requestId = rid;
    throw new ApiError(init);
  };
  const text = res.body.trim();
  if (spec.result === null && !spec.rawList && text === '') {
    return { data: undefined as T, status: res.status, ...(headerRequestId !== undefined ? { requestId: headerRequestId } : {}) };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    fail(`the response is not valid JSON (it starts with ${JSON.stringify(text.slice(0, 40))})`);
  }
  if (!isPlainObject(json)) return fail('the response is not a JSON object');
  const requestId = cleanRequestId(json.requestId, secrets) ?? headerRequestId;
    if (spec.rawList) {
    if (!('result' in json)) return fail('the response envelope has no "result"', undefined, requestId);
    if (!Array.isArray(json.result)) return fail('the result is not a list', [{ path: 'result', message: 'expected an array' }], requestId);
    const page: RawListPage = { items: json.result, bytes: Buffer.byteLength(res.body, 'utf8') };
    const totalCount = reportedTotal(json);
    if (totalCount !== undefined) page.totalCount = totalCount;
    return { data: page as T, status: res.status, ...(requestId !== undefined ? { requestId } : {}) };
  }
  if (spec.result === null) {
    return { data: undefined as T, status: res.status, ...(requestId !== undefined ? { requestId } : {}) };
  }
  if (!('result' in json)) return fail('the response envelope has no "result"', undefined, requestId);
  const parsed = spec.result.safeParse(json.result);
  if (!parsed.success) return fail('the result does not match the expected shape', zodIssues(parsed.error, 'result'), requestId);
  return { data: parsed.data, status: res.status, ...(requestId !== undefined ? { requestId } : {}) };
}

/** The list size a list envelope reports: `totalCount` at the top or in `meta` (`meta.total` in older wording). */
function reportedTotal(json: Record<string, unknown>): number | undefined {
  const meta = isPlainObject(json.meta) ? json.meta : undefined;
  for (const value of [json.totalCount, meta?.totalCount, meta?.total]) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  }
  return undefined;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} bytes`;
}

interface ErrorBodyInfo {
  text?: string;
  requestId?: string;
  json: boolean;
  html: boolean;
}

/** Characters of an error body looked at for its message. */
const ERROR_TEXT_SCAN = 16 * 1024;

/**
 * Server text and request ID from an error response (JSON envelope, OSS `{message}`, HTML or plain text). Linear and
 * bounded: only a prefix of the body is looked at, and a JSON body cut short (the transport reads at most 64 KiB of
 * an error body) still yields its leading `requestId` and `error`.
 */
function readErrorBody(res: TransportResponse, secrets: readonly string[]): ErrorBodyInfo {
  const contentType = (headerValue(res.headers, 'content-type') ?? '').toLowerCase();
  const raw = res.body.trimStart();
  const info: ErrorBodyInfo = { json: false, html: contentType.includes('text/html') || raw.startsWith('<') };
  const headerRequestId = cleanRequestId(headerValue(res.headers, 'x-request-id'), secrets);
  if (headerRequestId) info.requestId = headerRequestId;
  if (!info.html && (raw.startsWith('{') || contentType.includes('json'))) {
    let json: unknown;
    if (!res.truncated) {
      try {
        json = JSON.parse(raw);
      } catch {
        // Not JSON after all: fall through to text.
      }
    } else if (raw.startsWith('{')) {
      json = leadingJsonStrings(raw, ['error', 'message', 'requestId']);
    }
    if (isPlainObject(json)) {
      info.json = true;
      const message = typeof json.error === 'string' ? json.error : typeof json.message === 'string' ? json.message : undefined;
      if (message) info.text = shorten(message, 500);
      const rid = cleanRequestId(json.requestId, secrets);
      if (rid) info.requestId = rid;
      return info;
    }
  }
  const head = raw.slice(0, ERROR_TEXT_SCAN);
  if (info.html) {
    const text = collapse(decodeEntities(stripTags(htmlMessage(head))));
    if (text) info.text = shorten(text, 200);
  } else if (head) {
    info.text = shorten(collapse(head), 200);
  }
  return info;
}

/** The inside of the first `<pre>`, else `<h1>`, else `<title>`, else the whole text (found with indexOf: linear). */
function htmlMessage(html: string): string {
  const lower = html.toLowerCase();
  for (const tag of ['pre', 'h1', 'title']) {
    let from = 0;
    for (;;) {
      const open = lower.indexOf(`<${tag}`, from);
      if (open < 0) break;
      const after = lower.charAt(open + tag.length + 1);
      if (after === '>' || after === ' ' || after === '\t' || after === '\n' || after === '\r' || after === '/') {
        const gt = lower.indexOf('>', open);
        if (gt < 0) break;
        const close = lower.indexOf(`</${tag}`, gt);
        if (close < 0) break;
        return html.slice(gt + 1, close);
      }
      from = open + 1;
    }
  }
  return html;
}

/** Replaces every `<…>` with a space; an unclosed `<` ends the text. One pass. */
function stripTags(html: string): string {
  let out = '';
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out += html.slice(i);
      break;
    }
    out += html.slice(i, lt) + ' ';
    const gt = html.indexOf('>', lt);
    if (gt < 0) break;
    i = gt + 1;
  }
  return out;
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * The top-level string members named in `keys` of a JSON object that may be cut short. Scans once; a string cut off
 * by the end of the text is kept as far as it goes. Returns undefined when the text does not start like an object.
 */
function leadingJsonStrings(text: string, keys: readonly string[]): Record<string, string> | undefined {
  if (!text.startsWith('{')) return undefined;
  const found: Record<string, string> = {};
  let depth = 0;
  let i = 0;
  let lastKey: string | undefined;
  let expectValue = false;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const { value, end } = readJsonString(text, i);
      if (depth === 1 && !expectValue) {
        lastKey = value;
      } else if (depth === 1 && expectValue && lastKey !== undefined && keys.includes(lastKey) && !(lastKey in found)) {
        found[lastKey] = value;
      }
      if (depth === 1) expectValue = false;
      i = end;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ':' && depth === 1) expectValue = true;
    else if (c === ',' && depth === 1) {
      expectValue = false;
      lastKey = undefined;
    }
    if (depth === 1 && (c === '{' || c === '[') && expectValue) expectValue = false;
    i++;
  }
  return found;
}

/** A JSON string starting at `start` (a quote): its value and the index after it (or the end of the text). */
function readJsonString(text: string, start: number): { value: string; end: number } {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '"') break;
    else i++;
  }
  const closed = i < text.length;
  const literal = text.slice(start, closed ? i + 1 : Math.min(i, text.length));
  let body = literal;
  if (!closed) {
    // Drop an escape sequence cut in half by the end of the text.
    const backslash = body.lastIndexOf('\\');
    if (backslash > 0 && body.length - backslash <= 6) body = body.slice(0, backslash);
    body += '"';
  }
  let value: string;
  try {
    value = JSON.parse(body) as string;
  } catch {
    value = literal.slice(1).replace(/"$/, '');
  }
  return { value, end: closed ? i + 1 : text.length };
}

function decodeEntities(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

/** Wait in ms until an `X-RateLimit-Reset` value: epoch milliseconds, epoch seconds, or seconds from now. */
export function resetDelayMs(value: number, nowEpochMs: number): number {
  if (value >= 1e12) return value - nowEpochMs;
  if (value >= 1e9) return value * 1000 - nowEpochMs;
  return value * 1000;
}

function shorten(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
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

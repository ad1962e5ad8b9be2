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

export interface RequestOptions {
  signal?: AbortSignal;
}

export interface PageOptions {
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
}

declare const EXTENSION_VERSION: string | undefined;
const VERSION = typeof EXTENSION_VERSION === 'string' ? EXTENSION_VERSION : '0.0.0-dev';
export const DEFAULT_USER_AGENT = `observability-explorer/${VERSION}`;

export const DEFAULT_PAGE_SIZE = 1000;
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
  }

  /** Closes the dispatcher if the client created it. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  // ---- Organization, services, API keys ----

  async listOrganizations(opts?: RequestOptions): Promise<ApiResponse<Organization[]>> {
    return this.call({ operation: 'List organizations', method: 'GET', path: this.cloudPath([]), result: arrayOf(organizationSchema), retry: 'idempotent' }, opts);
  }

  async listServices(orgId?: string, opts?: RequestOptions): Promise<ApiResponse<Service[]>> {
    const org = orgId ?? this.connection.organizationId;
    return this.call({ operation: 'List services', method: 'GET', path: this.cloudPath([org, 'services']), result: arrayOf(serviceSchema), retry: 'idempotent' }, opts, [
      { name: 'organizationId', kind: 'uuid', value: org },
    ]);
  }

  async listApiKeys(orgId?: string, opts?: RequestOptions): Promise<ApiResponse<ApiKey[]>> {
    const org = orgId ?? this.connection.organizationId;
    return this.call({ operation: 'List API keys', method: 'GET', path: this.cloudPath([org, 'keys']), result: arrayOf(apiKeySchema), retry: 'idempotent' }, opts, [
      { name: 'organizationId', kind: 'uuid', value: org },
    ]);
  }

  // ---- Dashboards ----

  async listDashboards(serviceId: string, opts?: RequestOptions): Promise<ApiResponse<Dashboard[]>> {
    return this.call({ operation: 'List dashboards', method: 'GET', path: this.productPath(serviceId, 'dashboards'), result: arrayOf(dashboardSchema), retry: 'idempotent' }, opts, svc(serviceId));
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

  /** All alerts, fetched page by page (`limit`/`offset`) until a short page. */
  async listAlerts(serviceId: string, paging?: PageOptions & RequestOptions, opts?: RequestOptions): Promise<ApiResponse<Alert[]>> {
    return this.listPaged('List alerts', serviceId, 'alerts', alertSchema, paging, opts);
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

  async listSources(serviceId: string, opts?: RequestOptions): Promise<ApiResponse<Source[]>> {
    return this.call({ operation: 'List sources', method: 'GET', path: this.productPath(serviceId, 'sources'), result: arrayOf(sourceSchema), retry: 'idempotent' }, opts, svc(serviceId));
  }

  async listWebhooks(serviceId: string, paging?: PageOptions & RequestOptions, opts?: RequestOptions): Promise<ApiResponse<Webhook[]>> {
    return this.listPaged('List webhooks', serviceId, 'webhooks', webhookSchema, paging, opts);
  }

  async listSavedSearches(serviceId: string, paging?: PageOptions & RequestOptions, opts?: RequestOptions): Promise<ApiResponse<SavedSearch[]>> {
    return this.listPaged('List saved searches', serviceId, 'saved-searches', savedSearchSchema, paging, opts);
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

  private async listPaged<T>(
    operation: string,
    serviceId: string,
    resource: string,
    item: z.ZodType<T>,
    paging: (PageOptions & RequestOptions) | undefined,
    opts: RequestOptions | undefined,
  ): Promise<ApiResponse<T[]>> {
    const pageSize = paging?.pageSize ?? DEFAULT_PAGE_SIZE;
    const signal = opts?.signal ?? paging?.signal;
    const params = svc(serviceId);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
      throw invalidInput(operation, 'GET', [{ path: 'pageSize', message: 'must be a whole number from 1 to 1000' }]);
    }
    const path = this.productPath(serviceId, resource);
    const items: T[] = [];
    const seen = new Set<unknown>();
    let last: ApiResponse<T[]> | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      last = await this.call(
        { operation, method: 'GET', path, query: { limit: pageSize, offset: page * pageSize }, result: arrayOf(item), retry: 'idempotent' },
        signal ? { signal } : undefined,
        params,
      );
      let added = 0;
      for (const entry of last.data) {
        const id = (entry as { id?: unknown }).id;
        if (id !== undefined && seen.has(id)) continue;
        if (id !== undefined) seen.add(id);
        items.push(entry);
        added++;
      }
      // A short page ends the list; so does a server that ignores paging (a longer
      // page) or repeats itself (nothing new).
      if (last.data.length !== pageSize || added === 0) break;
    }
    const result: ApiResponse<T[]> = { data: items, status: last?.status ?? 200 };
    if (last?.requestId !== undefined) result.requestId = last.requestId;
    return result;
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

const arrays = new WeakMap<z.ZodType, z.ZodType>();

/** `z.array(item)`, built once per item schema. */
function arrayOf<T>(item: z.ZodType<T>): z.ZodType<T[]> {
  let schema = arrays.get(item);
  if (!schema) {
    // zod's `array` is reached through the item schema's own zod instance.
    schema = item.array();
    arrays.set(item, schema);
  }
  return schema as z.ZodType<T[]>;
}

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
  if (spec.result === null && text === '') {
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
  if (spec.result === null) {
    return { data: undefined as T, status: res.status, ...(requestId !== undefined ? { requestId } : {}) };
  }
  if (!('result' in json)) return fail('the response envelope has no "result"', undefined, requestId);
  const parsed = spec.result.safeParse(json.result);
  if (!parsed.success) return fail('the result does not match the expected shape', zodIssues(parsed.error, 'result'), requestId);
  return { data: parsed.data, status: res.status, ...(requestId !== undefined ? { requestId } : {}) };
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

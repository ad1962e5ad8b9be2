/**
 * SelfHostedClient: typed access to a self-hosted ClickStack / HyperDX deployment's External API v2, through the same
 * request engine as the cloud client (deadline, request ID, rate limit, retries, paging, bounds, error mapping,
 * redaction, no redirects followed) with the self-hosted flavor (`flavor.ts`). Same endpoint methods and schemas as
 * the cloud client; no organization or service: the deployment's team holds every resource.
 *
 * The personal API key is read with `await getSecret()` for every request and never kept; it travels only in the
 * `Authorization: Bearer` header to the configured origin.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import {
  alertWriteSchema,
  lazySchema,
  type Alert,
  type AlertWrite,
  type Dashboard,
  type DashboardWrite,
  type SavedSearch,
  type Source,
  type Webhook,
  sourceSchema,
} from '../../schema';
import type { dashboardUpdateSchema, dashboardValidationSchema } from '../../schema';
import { SERIES_AGG_FNS } from '../../schema/aggregation';
import { followServer } from '../../schema/serverRules';
import { plainHttpProblem } from '../connection';
import {
  invalidInput,
  RequestEngine,
  type ApiResponse,
  type EngineTuning,
  type ListResponse,
  type PageOptions,
  type RequestOptions,
} from '../engine';
import * as alerts from '../endpoints/alerts';
import { checkBody, getResource, type ServiceContext } from '../endpoints/common';
import * as dashboards from '../endpoints/dashboards';
import * as savedSearches from '../endpoints/savedSearches';
import * as sources from '../endpoints/sources';
import * as webhooks from '../endpoints/webhooks';
import { ApiError, type ApiErrorIssue } from '../errors';
import { RateLimiter } from '../rateLimiter';
import { isPlausibleApiKey, ossFlavor } from './flavor';

/** HyperDX allows 100 requests per minute per personal API key. */
export const OSS_RATE_LIMIT = { requests: 100, windowMs: 60_000 } as const;

export interface SelfHostedConnection {
  /** The deployment's API base URL (`https://hyperdx.example.com`, or with a path prefix behind a proxy). */
  baseUrl: string;
  /**
   * The user confirmed, for this connection, that the API key may travel unencrypted to this plain-HTTP, non-loopback
   * host. Without it such a URL is refused.
   */
  allowPlainHttp?: boolean;
}

/** The engine's tuning (user agent, dispatcher, timeouts, retries, request log, list bounds) as for the cloud client. */
export interface SelfHostedClientOptions extends EngineTuning {
  connection: SelfHostedConnection;
  /** The personal API key, read per request from secret storage. */
  getSecret: () => string | Promise<string>;
  /** Default: one limiter per personal API key with HyperDX's limit (OSS_RATE_LIMIT), whatever the address. */
  limiter?: RateLimiter;
}

/** Problems of a self-hosted connection; empty when it is usable. */
export function selfHostedConnectionIssues(cfg: SelfHostedConnection): ApiErrorIssue[] {
  const issues: ApiErrorIssue[] = [];
  let url: URL | undefined;
  try {
    url = new URL(cfg.baseUrl);
  } catch {
    issues.push({ path: 'baseUrl', message: 'must be an absolute URL such as https://hyperdx.example.com' });
  }
  if (!url) return issues;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    issues.push({ path: 'baseUrl', message: `must use https or http (got ${url.protocol.replace(/:$/, '')})` });
  } else if (plainHttpProblem(url) && cfg.allowPlainHttp !== true) {
    issues.push({
      path: 'baseUrl',
      message:
        'uses plain http to a host that is not this machine: the API key would travel unencrypted; confirm that for this connection or use https',
    });
  }
  if (url.username || url.password) {
    issues.push({ path: 'baseUrl', message: 'must not contain credentials; the API key is configured separately' });
  }
  if (url.search || cfg.baseUrl.includes('?')) {
    issues.push({ path: 'baseUrl', message: 'must not contain a query string' });
  }
  if (url.hash || cfg.baseUrl.includes('#')) issues.push({ path: 'baseUrl', message: 'must not contain a fragment' });
  return issues;
}

const limiters = new Map<string, RateLimiter>();

/**
 * The limiter of a personal API key, shared by every connection that uses it (HyperDX counts requests per key: two
 * connections to one deployment under two addresses still spend one budget). Kept by a digest of the key, never the
 * key itself.
 */
function limiterForKey(key: string): RateLimiter {
  const id = createHash('sha256').update(`observability-explorer rate budget\0${key}`, 'utf8').digest('base64url');
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = new RateLimiter(OSS_RATE_LIMIT);
    limiters.set(id, limiter);
  }
  return limiter;
}

/** HyperDX OSS alert channels are webhooks only, and its intervals have no `30s`. */
const OSS_INTERVALS: ReadonlySet<string> = new Set(['1m', '5m', '15m', '30m', '1h', '6h', '12h', '1d']);

/** What every self-hosted server refuses beyond the shared alert rules: `30s`, channels other than webhooks. */
function selfHostedAlertIssues(alert: unknown): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  if (typeof alert !== 'object' || alert === null) return out;
  const a = alert as { interval?: unknown; channel?: { type?: unknown }; channels?: unknown };
  if (typeof a.interval === 'string' && !OSS_INTERVALS.has(a.interval)) {
    out.push({ path: ['interval'], message: `a self-hosted server accepts ${[...OSS_INTERVALS].join(', ')}` });
  }
  if (a.channel && typeof a.channel === 'object' && a.channel.type !== 'webhook') {
    out.push({ path: ['channel', 'type'], message: 'a self-hosted server sends alerts to webhooks only' });
  }
  (Array.isArray(a.channels) ? (a.channels as { type?: unknown }[]) : []).forEach((c, i) => {
    if (c?.type !== 'webhook') {
      out.push({ path: ['channels', i, 'type'], message: 'a self-hosted server sends alerts to webhooks only' });
    }
  });
  return out;
}

export const ossAlertWriteSchema = lazySchema(() =>
  alertWriteSchema.superRefine((alert, ctx) => {
    for (const issue of selfHostedAlertIssues(alert)) ctx.addIssue({ code: 'custom', ...issue });
  }),
);

/**
 * Checks an alert body for a self-hosted server. What only newer HyperDX versions accept (an inline alert; see
 * schema/serverRules.ts) is sent as written and the server decides; what every version refuses is refused here.
 */
function checkSelfHostedAlert(operation: string, method: string, body: unknown): void {
  const parsed = ossAlertWriteSchema.safeParse(body);
  if (parsed.success) return;
  const issues = [
    ...parsed.error.issues.map((i) => ({
      path: i.path.map((p) => (typeof p === 'number' ? p : String(p))),
      message: i.message,
      severity: 'error' as const,
    })),
    // The shared rules stop at a field they refuse; these hold for every version whatever else the body says.
    ...selfHostedAlertIssues(body).map((i) => ({ ...i, severity: 'error' as const })),
  ];
  const seen = new Set<string>();
  const errors = followServer('alert', body, issues, 'selfHosted').filter((i) => {
    const key = `${i.path.join('.')} ${i.message}`;
    if (i.severity !== 'error' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (errors.length > 0) {
    throw invalidInput(
      operation,
      method,
      errors.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
}

export const teamSchema = lazySchema(() => z.looseObject({ id: z.string().min(1), name: z.string() }));
export type Team = z.infer<typeof teamSchema>;
export const teamMemberSchema = lazySchema(() =>
  z.looseObject({
    id: z.string().min(1),
    email: z.string(),
    name: z.string().optional(),
    isCurrentUser: z.boolean().optional(),
  }),
);
export type TeamMember = z.infer<typeof teamMemberSchema>;

export { SERIES_AGG_FNS };

/** Bucket sizes of the chart series route. */
export const SERIES_GRANULARITIES = [
  '30s',
  '1m',
  '5m',
  '10m',
  '15m',
  '30m',
  '1h',
  '2h',
  '6h',
  '12h',
  '1d',
  '2d',
  '7d',
  '30d',
  'auto',
] as const;
export type SeriesGranularity = (typeof SERIES_GRANULARITIES)[number];

/** One series of `POST /api/v2/charts/series`. */
export interface SeriesQuery {
  [key: string]: unknown;
  sourceId: string;
  aggFn: (typeof SERIES_AGG_FNS)[number];
  /** Quantile level, 0–1. */
  level?: number;
  field?: string;
  where: string;
  whereLanguage?: 'lucene' | 'sql';
  groupBy: string[];
  metricName?: string;
  metricDataType?: 'sum' | 'gauge' | 'histogram';
}

/** A millisecond timestamp as the server checks it (an integer of at least 13 digits). */
const millisecondTimestamp = lazySchema(() =>
  z
    .number()
    .int()
    .positive()
    .refine((v) => String(v).length >= 13, { message: 'Timestamp must be in milliseconds' }),
);

/** As the server's `externalQueryChartSeriesSchema` and the route's body schema; unknown series fields pass. */
export const seriesRequestSchema = lazySchema(() =>
  z.object({
    series: z
      .array(
        z.looseObject({
          sourceId: z.string().min(1),
          aggFn: z.enum(SERIES_AGG_FNS),
          level: z.number().min(0).max(1).optional(),
          field: z.string().optional(),
          where: z.string(),
          whereLanguage: z.enum(['lucene', 'sql']).optional(),
          groupBy: z.array(z.string()).max(10),
          sortOrder: z.enum(['desc', 'asc']).optional(),
          metricName: z.string().optional(),
          metricDataType: z.enum(['sum', 'gauge', 'histogram']).optional(),
        }),
      )
      .min(1)
      .max(5)
      .refine((all) => all.every((s) => JSON.stringify(s.groupBy) === JSON.stringify(all[0]?.groupBy)), {
        message: 'All series must have the same groupBy fields',
      }),
    startTime: millisecondTimestamp,
    endTime: millisecondTimestamp,
    granularity: z.enum(SERIES_GRANULARITIES).optional(),
    seriesReturnType: z.enum(['ratio', 'column']).optional(),
  }),
);
export type SeriesRequest = z.input<typeof seriesRequestSchema>;

/**
 * One bucket (and group) of chart data: `ts_bucket` (epoch ms), `group` (the group-by values in order) and
 * `series_<i>.data`, a number or a numeric string (ClickHouse's 64-bit values arrive as strings).
 */
export const seriesPointSchema = lazySchema(() =>
  z.looseObject({
    ts_bucket: z.number(),
    group: z.array(z.unknown()).optional(),
  }),
);
export type SeriesPoint = z.infer<typeof seriesPointSchema> & Record<string, unknown>;

/** Most buckets × groups one chart series answer may hold (a bound, reported as an error, never a silent cut). */
export const MAX_SERIES_POINTS = 500_000;
/** Most rows one search answer may hold (the server's own maximum). */
export const MAX_SEARCH_ROWS = 2000;

/** As the search route's body schema (`select` without `;` or a SELECT subquery). */
export const searchRequestSchema = lazySchema(() =>
  z.object({
    sourceId: z.string().min(1),
    startTime: z.iso.datetime({ offset: true }).optional(),
    endTime: z.iso.datetime({ offset: true }).optional(),
    where: z.string().max(8192).optional(),
    whereLanguage: z.enum(['lucene', 'sql']).optional(),
    select: z
      .string()
      .max(4096)
      .refine((v) => !/;|(?<!\w)SELECT\s/i.test(v), {
        message:
          'select must not contain semicolons or SELECT subqueries; use column references, map lookups, or scalar functions only',
      })
      .optional(),
    orderBy: z.string().max(1024).optional(),
    maxResults: z.number().int().min(1).max(MAX_SEARCH_ROWS).optional(),
    offset: z.number().int().min(0).max(10_000).optional(),
  }),
);
export type SearchRequest = z.input<typeof searchRequestSchema>;

export class SelfHostedClient {
  readonly connection: Readonly<SelfHostedConnection>;
  readonly engine: RequestEngine;
  private readonly ctx: ServiceContext;

  constructor(options: SelfHostedClientOptions) {
    const issues = selfHostedConnectionIssues(options.connection);
    if (issues.length > 0) {
      throw new ApiError({
        kind: 'invalidInput',
        operation: 'Connect',
        method: '-',
        path: '-',
        detail: 'the connection settings are invalid',
        issues,
      });
    }
    this.connection = Object.freeze({ ...options.connection });
    const { connection, getSecret, limiter, ...tuning } = options;
    this.engine = new RequestEngine({
      ...tuning,
      flavor: ossFlavor,
      baseUrl: connection.baseUrl,
      keyId: '',
      // A key that cannot be a header value is never sent; the error names no part of it.
      getSecret: async () => {
        const secret = (await getSecret()).trim();
        if (secret !== '' && !isPlausibleApiKey(secret)) {
          throw new Error('the stored personal API key is not valid (printable text without spaces)');
        }
        return secret;
      },
      ...(limiter ? { limiter } : { limiterForCredential: (cred) => limiterForKey(cred.secret) }),
    });
    this.ctx = { engine: this.engine, scope: {}, params: [] };
  }

  async close(): Promise<void> {
    await this.engine.close();
  }

  // ---- Dashboards ----

  listDashboards(opts?: RequestOptions): Promise<ListResponse<Dashboard>> {
    return dashboards.listDashboards(this.ctx, opts);
  }

  getDashboard(id: string, opts?: RequestOptions): Promise<ApiResponse<Dashboard>> {
    return dashboards.getDashboard(this.ctx, id, opts);
  }

  createDashboard(body: DashboardWrite, opts?: RequestOptions): Promise<ApiResponse<Dashboard>> {
    return dashboards.createDashboard(this.ctx, body, opts);
  }

  updateDashboard(
    id: string,
    body: z.input<typeof dashboardUpdateSchema>,
    opts?: RequestOptions,
  ): Promise<ApiResponse<Dashboard>> {
    return dashboards.updateDashboard(this.ctx, id, body, opts);
  }

  deleteDashboard(id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return dashboards.deleteDashboard(this.ctx, id, opts);
  }

  validateDashboard(
    body: DashboardWrite | Record<string, unknown>,
    opts?: RequestOptions,
  ): Promise<ApiResponse<z.infer<typeof dashboardValidationSchema>>> {
    return dashboards.validateDashboard(this.ctx, body, opts);
  }

  // ---- Alerts ----

  listAlerts(paging?: PageOptions & RequestOptions, opts?: RequestOptions): Promise<ListResponse<Alert>> {
    return alerts.listAlerts(this.ctx, paging, opts);
  }

  getAlert(id: string, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    return alerts.getAlert(this.ctx, id, opts);
  }

  /** Checked against what a self-hosted server accepts (webhook channels only, no `30s`) before anything is sent. */
  async createAlert(body: AlertWrite, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    checkSelfHostedAlert('Create alert', 'POST', body);
    return await alerts.createAlert(this.ctx, body, opts);
  }

  async updateAlert(id: string, body: AlertWrite, opts?: RequestOptions): Promise<ApiResponse<Alert>> {
    checkSelfHostedAlert('Update alert', 'PUT', body);
    return await alerts.updateAlert(this.ctx, id, body, opts);
  }

  deleteAlert(id: string, opts?: RequestOptions): Promise<ApiResponse<void>> {
    return alerts.deleteAlert(this.ctx, id, opts);
  }

  // ---- Sources, webhooks, saved searches ----

  listSources(opts?: RequestOptions): Promise<ListResponse<Source>> {
    return sources.listSources(this.ctx, opts);
  }

  /** One source (a self-hosted server serves it by ID; the cloud API does not). */
  getSource(id: string, opts?: RequestOptions): Promise<ApiResponse<Source>> {
    return getResource(this.ctx, 'Get source', 'sources', 'sourceId', id, sourceSchema, opts);
  }

  listWebhooks(paging?: PageOptions & RequestOptions, opts?: RequestOptions): Promise<ListResponse<Webhook>> {
    return webhooks.listWebhooks(this.ctx, paging, opts);
  }

  listSavedSearches(paging?: PageOptions & RequestOptions, opts?: RequestOptions): Promise<ListResponse<SavedSearch>> {
    return savedSearches.listSavedSearches(this.ctx, paging, opts);
  }

  // ---- Team (read-only) ----

  getTeam(opts?: RequestOptions): Promise<ApiResponse<Team>> {
    return this.engine.call(
      {
        operation: 'Get team',
        method: 'GET',
        path: ossFlavor.resourcePath({}, 'team'),
        result: teamSchema,
        retry: 'idempotent',
      },
      opts,
    );
  }

  listTeamMembers(opts?: RequestOptions): Promise<ListResponse<TeamMember>> {
    return this.engine.readList(
      { operation: 'List team members', path: ossFlavor.resourcePath({}, 'team', 'members'), item: teamMemberSchema },
      opts,
    );
  }

  // ---- Chart data and search ----

  /** Rows of a log or trace source (`POST /api/v2/search`); same as `searchEvents`. */
  search(body: SearchRequest, opts?: RequestOptions): Promise<ApiResponse<Record<string, unknown>[]>> {
    return this.searchEvents(body, opts);
  }

  /** Chart data (`POST /api/v2/charts/series`); same as `querySeries`. */
  chartSeries(body: SeriesRequest, opts?: RequestOptions): Promise<ApiResponse<SeriesPoint[]>> {
    return this.querySeries(body, opts);
  }

  /** Rows of a log or trace source (`POST /api/v2/search`): reads only, sent again on failure. */
  async searchEvents(body: SearchRequest, opts?: RequestOptions): Promise<ApiResponse<Record<string, unknown>[]>> {
    const checked = checkBody('Search events', 'POST', searchRequestSchema, body, []);
    return await this.engine.call(
      {
        operation: 'Search events',
        method: 'POST',
        path: ossFlavor.resourcePath({}, 'search'),
        body: checked,
        result: z.array(z.looseObject({})).max(MAX_SEARCH_ROWS),
        retry: 'idempotent',
      },
      opts,
    );
  }

  /** Chart data of up to 5 series over one time range (`POST /api/v2/charts/series`): reads only, sent again on failure. */
  async querySeries(body: SeriesRequest, opts?: RequestOptions): Promise<ApiResponse<SeriesPoint[]>> {
    const checked = checkBody('Query chart series', 'POST', seriesRequestSchema, body, []);
    return await this.engine.call(
      {
        operation: 'Query chart series',
        method: 'POST',
        path: ossFlavor.resourcePath({}, 'charts', 'series'),
        body: checked,
        result: z.array(seriesPointSchema).max(MAX_SERIES_POINTS) as unknown as z.ZodType<SeriesPoint[]>,
        retry: 'idempotent',
      },
      opts,
    );
  }
}

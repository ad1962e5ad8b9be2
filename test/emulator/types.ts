/** Shared types of the local API emulator (ClickHouse Cloud API + Managed ClickStack resources). */

export type JsonObject = Record<string, unknown>;

export type RateLimitHeaderMode = 'none' | 'x-ratelimit-reset' | 'retry-after';

export type EmulatorFlavor = 'cloud' | 'oss';

export type HyperdxVersion = 'newest' | 'older';

export interface EmulatorOptions {
  /**
   * Which API to serve: 'cloud' (default) is the ClickHouse Cloud API with Managed ClickStack; 'oss' is a self-hosted
   * HyperDX External API v2 (`/api/v2/...`, Bearer personal API key) over the same sample data (see oss/routes.ts).
   */
  flavor?: EmulatorFlavor;
  /**
   * The self-hosted flavor's HyperDX version: 'newest' (default) accepts what HyperDX accepts after the OSS OpenAPI
   * document was written (`aggFn: "increase"`, STATIC_LIST / PROMETHEUS_LABEL filters, inline alerts, alert
   * `displayName` and `tags`; see oss/newer.ts); 'older' follows the OSS OpenAPI document only, refusing those in
   * HyperDX's 400 shape `{message}` and dropping `displayName` / `tags`. Ignored by the Cloud flavor.
   */
  hyperdxVersion?: HyperdxVersion;
  /** TCP port; 0 or omitted picks a free port. */
  port?: number;
  /** Loopback address to bind; default 127.0.0.1. Non-loopback addresses are refused. */
  host?: string;
  /** Product path segment; default 'observability' (the live service uses 'clickstack'). */
  segment?: string;
  /** Requests per window per key; default 10 / 10 000 ms. `false` disables the limit. */
  rateLimit?: { requests: number; windowMs: number } | false;
  /** Header sent with a 429; default 'none' (the live service documents none). */
  rateLimitHeader?: RateLimitHeaderMode;
  /** 'sample' (default) seeds realistic data; 'empty' keeps the organization, services and keys only. */
  data?: 'sample' | 'empty';
  /** Extra generated alerts added to the first service (paging and performance tests). */
  alertCount?: number;
  /** Extra running services, each with its own sample data, after the three sample services. Default 0. */
  extraServices?: number;
  /**
   * Answer like a newer server: unknown fields (`futureField_<level>`) at every level of everything returned, and
   * `channels` beside `channel` on alerts. Default: on when the environment has OBS_EMULATOR_FUTURE=1, else off.
   */
  futureFields?: boolean;
  /**
   * Paged lists (alerts, webhooks, saved searches) return at most this many items whatever `limit` asks for.
   * Default: 7 when the environment has OBS_EMULATOR_FUTURE=1, else no cap (0 or false: no cap).
   */
  pageCap?: number | false;
  /**
   * Serve `GET …/sources/{id}` (in the spec). Default off: the live Cloud has been seen not to serve it (an HTML
   * 404 page, like any unserved route), so a client must not need it.
   */
  sourceGetById?: boolean;
  /**
   * The emulator's clock for its sample data: the embedded ClickHouse's data ends at this "now" (its 7 days lead up
   * to it) and the answers relative to now (a self-hosted search without `endTime`) use it. A number is a fixed time
   * in ms since the epoch; 'start' freezes the clock when the emulator starts; both are taken to the whole second
   * below. Default: the environment's OBS_EMULATOR_NOW (the same values: an ISO 8601 time, ms since the epoch or
   * `start`), else none: the data moves with the wall clock; `false` makes it move whatever the environment says.
   * Stored resources' own times (`createdAt`, `updatedAt`, ObjectIds) always follow the wall clock.
   */
  now?: number | 'start' | false;
}

/** A 200 response (or a 4xx error body) of the emulator that does not fit the spec. */
export interface ResponseIssue {
  method: string;
  path: string;
  /** The operation in the spec, e.g. `GET /clickstack/alerts`. */
  operation: string;
  requestId: string;
  issues: { path: string; message: string }[];
}

export interface FaultSpec {
  method?: string;
  /** Exact request path (without the query), a prefix ending in `*`, or a RegExp tested against the path. */
  path: string | RegExp;
  /** How many matching requests the fault applies to; default unlimited. */
  times?: number;
  status?: number;
  body?: string | object;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Hold the request (before answering it) until `release()` or `clear()`: a test decides when it returns. */
  hold?: boolean;
  reset?: 'before-headers' | 'mid-body';
  malformedJson?: boolean;
  /** Send the body in small chunks with this pause between them. */
  dripMs?: number;
}

export interface FaultController {
  add(f: FaultSpec): void;
  clear(): void;
  /** Lets the requests held by `hold` faults go on. */
  release(): void;
  /** How many requests are held now. */
  readonly holding: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Status sent; 0 when the connection was reset before headers. */
  status: number;
  requestId: string;
  authorized: boolean;
  body?: unknown;
  at: number;
}

export type AlertState = 'ALERT' | 'OK' | 'PENDING' | 'INSUFFICIENT_DATA' | 'DISABLED';

export interface AlertSilenced {
  by: string | null;
  at: string;
  until: string;
}

export interface AlertExecutionError {
  timestamp: string;
  type: 'QUERY_ERROR' | 'WEBHOOK_ERROR' | 'INVALID_ALERT' | 'UNKNOWN' | 'QUERY_TIMEOUT';
  message: string;
}

export interface StoredAlert {
  id: string;
  teamId: string;
  source: 'tile' | 'saved_search' | 'inline';
  dashboardId: string | null;
  tileId: string | null;
  savedSearchId: string | null;
  groupBy: string | null;
  threshold: number;
  thresholdMax: number | null;
  thresholdType: string;
  interval: string;
  scheduleOffsetMinutes: number | null;
  scheduleStartAt: string | null;
  channels: JsonObject[];
  name: string | null;
  message: string | null;
  note: string | null;
  numConsecutiveWindows: number | null;
  state: AlertState;
  silenced: AlertSilenced | null;
  executionErrors: AlertExecutionError[];
  createdAt: string;
  updatedAt: string;
  /** Fields of a newer server (`futureField_…`) sent back by a client; returned as they are. */
  extra?: JsonObject;
  /** The newest self-hosted HyperDX only (oss/newer.ts): an inline alert's chart, and the alert's display name and tags. */
  chartConfig?: JsonObject | null;
  displayName?: string;
  tags?: string[];
}

/** A dashboard as the API returns it (tiles carry `config`, never `series`). */
export interface StoredDashboard {
  id: string;
  name: string;
  tiles: JsonObject[];
  tags: string[];
  filters: JsonObject[];
  savedQuery: string | null;
  savedQueryLanguage: string | null;
  savedFilterValues: JsonObject[];
  containers: JsonObject[];
  /** Fields of a newer server (`futureField_…`) sent back by a client; returned as they are. */
  extra?: JsonObject;
}

export interface StoredWebhook {
  id: string;
  name: string;
  service: string;
  url: string;
  description?: string;
  body?: string;
  /** Write-only; never returned. */
  headers?: Record<string, string>;
  /** Write-only; never returned. */
  queryParams?: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  extra?: JsonObject;
}

export interface StoredSavedSearch extends JsonObject {
  id: string;
  name: string;
  sourceId: string;
  teamId: string;
  createdAt: string;
  updatedAt: string;
}

/** A ClickStack role (CASL permissions). `isDefault` and `userCount` are the server's own state, never returned. */
export interface StoredRole {
  id: string;
  name: string;
  description?: string;
  permissions: JsonObject[];
  isPredefined: boolean;
  createdAt: string;
  updatedAt: string;
  /** The team's default role for new users: it cannot be deleted. */
  isDefault: boolean;
  /** Users holding the role: it cannot be deleted while any do. */
  userCount: number;
  extra?: JsonObject;
}

export interface QueryEndpoint {
  id: string;
  roles: string[];
  openApiKeys: string[];
  allowedOrigins: string;
  extra?: JsonObject;
}

export interface ServiceData {
  teamId: string;
  dashboards: Map<string, StoredDashboard>;
  alerts: Map<string, StoredAlert>;
  sources: Map<string, JsonObject>;
  webhooks: Map<string, StoredWebhook>;
  savedSearches: Map<string, StoredSavedSearch>;
  roles: Map<string, StoredRole>;
  /**
   * The team's ClickHouse connections by ID (each Cloud service is its own team with its own; HyperDX refuses a source
   * or raw-SQL tile naming a connection of another team).
   */
  connections: Map<string, JsonObject>;
  queryEndpoint: QueryEndpoint | null;
}

export interface ApiKeyRecord extends JsonObject {
  id: string;
  name: string;
  state: 'enabled' | 'disabled';
  keySuffix: string;
}

export interface EmulatorState {
  organization: JsonObject & { id: string; name: string };
  services: (JsonObject & { id: string; name: string })[];
  keys: ApiKeyRecord[];
  /** Observability data per service ID. */
  data: Map<string, ServiceData>;
}

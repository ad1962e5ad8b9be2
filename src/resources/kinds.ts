import type * as z from 'zod';
import {
  alertToWriteBody,
  alertWriteSchema,
  dashboardToUpdateBody,
  dashboardUpdateSchema,
  dashboardWriteSchema,
  queryEndpointWriteSchema,
  roleCreateSchema,
  roleUpdateSchema,
  savedSearchToWriteBody,
  savedSearchWriteSchema,
  sourceToWriteBody,
  sourceWriteSchema,
  webhookToWriteBody,
  webhookWriteSchema,
  type Alert,
  type Dashboard,
  type QueryEndpoint,
  type Role,
  type SavedSearch,
  type Source,
  type Webhook,
} from '../schema';
import { withoutReadOnlyAndNulls } from '../schema/writeBody';
import { MASK, maskHeaderValue, maskWebhookUrl } from './dependents';
import type { DocumentKind, ResourceKind } from './model';

/**
 * The kinds of resource documents, one entry each: how a kind is named, where its documents live, which write schema
 * checks them, how a server object becomes editable text, what a new one starts as, and (for the kinds edited through
 * plain create / get / update requests) which client calls read and write it. Pure: no `vscode`.
 */

/** A response the client gives: the parsed data and the request ID. */
interface Answer<T> {
  readonly data: T;
  readonly requestId?: string;
}

/** The part of the API client the plain kinds call (`ObservabilityClient` satisfies it). */
export interface KindClient {
  listWebhooks(serviceId: string): Promise<{ readonly data: readonly Webhook[] }>;
  createWebhook(serviceId: string, body: never): Promise<Answer<Webhook>>;
  updateWebhook(serviceId: string, id: string, body: never): Promise<Answer<Webhook>>;
  getSavedSearch(serviceId: string, id: string): Promise<Answer<SavedSearch>>;
  createSavedSearch(serviceId: string, body: never): Promise<Answer<SavedSearch>>;
  updateSavedSearch(serviceId: string, id: string, body: never): Promise<Answer<SavedSearch>>;
  listSources(serviceId: string): Promise<{ readonly data: readonly Source[] }>;
  createSource(serviceId: string, body: never): Promise<Answer<Source>>;
  updateSource(serviceId: string, id: string, body: never): Promise<Answer<Source>>;
  getRole(serviceId: string, id: string): Promise<Answer<Role>>;
  createRole(serviceId: string, body: never): Promise<Answer<Role>>;
  updateRole(serviceId: string, id: string, body: never): Promise<Answer<Role>>;
}

/** Create / read / update of a plain kind. */
export interface KindRequests {
  get(client: KindClient, serviceId: string, id: string): Promise<Answer<{ readonly id: string }>>;
  create(client: KindClient, serviceId: string, body: unknown): Promise<Answer<{ readonly id: string }>>;
  update(client: KindClient, serviceId: string, id: string, body: unknown): Promise<Answer<{ readonly id: string }>>;
}

export interface KindSpec {
  readonly kind: DocumentKind;
  /** Lower-case name in messages ("saved search"). */
  readonly label: string;
  /** Path segment of its documents (`observability:/<c>/<s>/<folder>/<id>/<Name><suffix>`). */
  readonly folder: string;
  /** File name suffix of an existing resource (selects the JSON Schema). */
  readonly suffix: string;
  /** File name suffix of a resource not created yet (differs when create and update bodies differ). */
  readonly newSuffix: string;
  /** The explorer folder that shows it (refreshed after a change). */
  readonly treeKind: ResourceKind;
  /** One per service, no ID (the query endpoint). */
  readonly singleton?: boolean;
  /** Friendly key order of its documents. */
  readonly order: readonly string[];
  /** The write schema of a document (create and update bodies may differ). */
  schema(isNew: boolean): z.ZodType;
  /** The write body a server object is edited as (read-only fields left out; secrets masked). */
  editable(server: unknown): Record<string, unknown>;
  /** Plain create / read / update (the kinds without special steps of their own). */
  readonly requests?: KindRequests;
  /** Why an existing resource cannot be changed (predefined roles), if it cannot. */
  readOnly?(server: unknown): string | undefined;
}

const ALERT_ORDER = [
  'name',
  'source',
  'dashboardId',
  'tileId',
  'savedSearchId',
  'groupBy',
  'threshold',
  'thresholdMax',
  'thresholdType',
  'interval',
  'channel',
  'channels',
  'message',
  'note',
  'numConsecutiveWindows',
  'scheduleOffsetMinutes',
  'scheduleStartAt',
];

/** The body with its keys in `order` first, the rest after them as they come. */
export function ordered(body: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of order) if (key in body) out[key] = body[key];
  for (const [key, value] of Object.entries(body)) if (!(key in out)) out[key] = value;
  return out;
}

// ---- webhook secrets ----

const maskedRecord = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [
          k,
          typeof v === 'string' ? maskHeaderValue(v) : v,
        ]),
      )
    : value;

/**
 * A webhook body as diffs show it: the URL's secrets and every header and query parameter value masked. (Headers and
 * query parameters are write-only: the service never returns them, so they appear only where the user typed them.)
 */
export function maskedWebhookBody(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  if (typeof out.url === 'string') out.url = maskWebhookUrl(out.url);
  if ('headers' in out) out.headers = maskedRecord(out.headers);
  if ('queryParams' in out) out.queryParams = maskedRecord(out.queryParams);
  return out;
}

/** The secrets of a webhook body (URL, header and query parameter values), for redaction of messages and logs. */
export function webhookSecrets(body: Record<string, unknown> | undefined): string[] {
  if (!body) return [];
  const values: string[] = [];
  if (typeof body.url === 'string') values.push(body.url);
  for (const field of ['headers', 'queryParams']) {
    const record = body[field];
    if (record && typeof record === 'object') {
      for (const v of Object.values(record as Record<string, unknown>)) if (typeof v === 'string') values.push(v);
    }
  }
  return values.filter((v) => v.length >= 4);
}

/**
 * The body to send for a webhook document. The document shows the service's URL masked: left exactly as shown, the
 * service's URL is sent (the update keeps it); a URL or value that still holds the mask but was changed cannot be
 * sent (the mask would become the secret), so it is refused with a message saying what to do.
 */
export function unmaskWebhookBody(
  body: Record<string, unknown>,
  current: { readonly url?: string | null } | undefined,
): { ok: true; body: Record<string, unknown> } | { ok: false; path: string[]; message: string } {
  const out = { ...body };
  if (typeof out.url === 'string' && out.url.includes(MASK)) {
    if (current?.url && out.url === maskWebhookUrl(current.url)) {
      out.url = current.url;
    } else {
      return {
        ok: false,
        path: ['url'],
        message: `The URL holds masked parts (${MASK}): leave it exactly as shown to keep the service's URL, or type the whole new URL.`,
      };
    }
  }
  for (const field of ['headers', 'queryParams']) {
    const record = out[field];
    if (!record || typeof record !== 'object') continue;
    for (const [k, v] of Object.entries(record as Record<string, unknown>)) {
      if (typeof v === 'string' && v.includes(MASK)) {
        return {
          ok: false,
          path: [field, k],
          message: `"${k}" holds a masked value (${MASK}): the service never returns ${field === 'headers' ? 'header' : 'query parameter'} values, so type the value, or leave "${field}" out to keep the stored ones.`,
        };
      }
    }
  }
  return { ok: true, body: out };
}

/**
 * The write-only fields a webhook update clears without the document saying so: the service never returns headers or
 * query parameters, keeps the stored ones when an update leaves them out, but clears them when the destination (`url`
 * or `service`) changes, so that a secret is never sent to a new destination (HyperDX `controllers/webhook.ts`
 * updateWebhook; the newest spec says the same). An explicit `{}` clears them too, but that is typed and in the diff.
 */
export function webhookFieldsClearedByUpdate(
  current: { readonly url?: unknown; readonly service?: unknown } | undefined,
  body: Record<string, unknown>,
): Array<'headers' | 'queryParams'> {
  if (!current) return [];
  const destinationChanged = body.url !== current.url || body.service !== current.service;
  if (!destinationChanged) return [];
  return (['headers', 'queryParams'] as const).filter((field) => body[field] === undefined);
}

// ---- the kinds ----

const WEBHOOK_ORDER = ['name', 'service', 'url', 'description', 'headers', 'queryParams', 'body'];
const SAVED_SEARCH_ORDER = ['name', 'sourceId', 'select', 'where', 'whereLanguage', 'orderBy', 'tags', 'filters'];
const SOURCE_ORDER = ['name', 'kind', 'connection', 'from', 'timestampValueExpression'];
const ROLE_ORDER = ['name', 'description', 'permissions'];
const ROLE_READ_ONLY = ['id', 'isPredefined', 'teamId', 'createdAt', 'updatedAt'] as const;

/**
 * One item of a list: webhooks have no single read in the API, and the live Cloud does not serve the single read of
 * sources (only their list, one request).
 */
async function fromList<T extends { readonly id: string }>(
  what: string,
  id: string,
  list: Promise<{ readonly data: readonly T[] }>,
): Promise<Answer<T>> {
  const found = (await list).data.find((item) => item.id === id);
  if (!found) throw new Error(`The ${what} ${id} was not found on the service (it may have been deleted).`);
  return { data: found };
}

export const KINDS: { readonly [K in DocumentKind]: KindSpec } = {
  alert: {
    kind: 'alert',
    label: 'alert',
    folder: 'alerts',
    suffix: '.alert.json',
    newSuffix: '.alert.json',
    treeKind: 'alerts',
    order: ALERT_ORDER,
    schema: () => alertWriteSchema,
    editable: (server) => ordered(alertToWriteBody(server as Alert), ALERT_ORDER),
  },
  dashboard: {
    kind: 'dashboard',
    label: 'dashboard',
    folder: 'dashboards',
    suffix: '.dashboard.json',
    newSuffix: '.new-dashboard.json',
    treeKind: 'dashboards',
    order: ['name', 'tags', 'tiles', 'containers', 'filters', 'savedQuery', 'savedQueryLanguage', 'savedFilterValues'],
    schema: (isNew) => (isNew ? dashboardWriteSchema : dashboardUpdateSchema),
    editable: (server) => ordered(dashboardToUpdateBody(server as Dashboard), KINDS.dashboard.order),
  },
  queryEndpoint: {
    kind: 'queryEndpoint',
    label: 'query endpoint',
    folder: 'query-endpoint',
    suffix: '.query-endpoint.json',
    newSuffix: '.query-endpoint.json',
    treeKind: 'queryEndpoint',
    singleton: true,
    order: ['roles', 'openApiKeys', 'allowedOrigins'],
    schema: () => queryEndpointWriteSchema,
    editable: (server) => {
      const endpoint = server as QueryEndpoint | null;
      if (!endpoint) return queryEndpointTemplate();
      const { roles, openApiKeys, allowedOrigins } = endpoint;
      return { roles, openApiKeys, allowedOrigins: allowedOrigins ?? '' };
    },
  },
  webhook: {
    kind: 'webhook',
    label: 'webhook',
    folder: 'webhooks',
    suffix: '.webhook.json',
    newSuffix: '.webhook.json',
    treeKind: 'webhooks',
    order: WEBHOOK_ORDER,
    schema: () => webhookWriteSchema,
    editable: (server) => ordered(maskedWebhookBody(webhookToWriteBody(server as Webhook)), WEBHOOK_ORDER),
    requests: {
      get: (c, s, id) => fromList('webhook', id, c.listWebhooks(s)),
      create: (c, s, body) => c.createWebhook(s, body as never),
      update: (c, s, id, body) => c.updateWebhook(s, id, body as never),
    },
  },
  savedSearch: {
    kind: 'savedSearch',
    label: 'saved search',
    folder: 'saved-searches',
    suffix: '.saved-search.json',
    newSuffix: '.saved-search.json',
    treeKind: 'savedSearches',
    order: SAVED_SEARCH_ORDER,
    schema: () => savedSearchWriteSchema,
    editable: (server) => ordered(savedSearchToWriteBody(server as SavedSearch), SAVED_SEARCH_ORDER),
    requests: {
      get: (c, s, id) => c.getSavedSearch(s, id),
      create: (c, s, body) => c.createSavedSearch(s, body as never),
      update: (c, s, id, body) => c.updateSavedSearch(s, id, body as never),
    },
  },
  source: {
    kind: 'source',
    label: 'source',
    folder: 'sources',
    suffix: '.source.json',
    newSuffix: '.source.json',
    treeKind: 'sources',
    order: SOURCE_ORDER,
    schema: () => sourceWriteSchema,
    editable: (server) => ordered(sourceToWriteBody(server as Source), SOURCE_ORDER),
    requests: {
      get: (c, s, id) => fromList('source', id, c.listSources(s)),
      create: (c, s, body) => c.createSource(s, body as never),
      update: (c, s, id, body) => c.updateSource(s, id, body as never),
    },
  },
  role: {
    kind: 'role',
    label: 'role',
    folder: 'roles',
    suffix: '.role.json',
    newSuffix: '.new-role.json',
    treeKind: 'roles',
    order: ROLE_ORDER,
    schema: (isNew) => (isNew ? roleCreateSchema : roleUpdateSchema),
    editable: (server) => ordered(withoutReadOnlyAndNulls(server as Role, ROLE_READ_ONLY), ROLE_ORDER),
    requests: {
      get: (c, s, id) => c.getRole(s, id),
      create: (c, s, body) => c.createRole(s, body as never),
      update: (c, s, id, body) => c.updateRole(s, id, body as never),
    },
    readOnly: (server) =>
      (server as Role | undefined)?.isPredefined
        ? 'Predefined roles cannot be changed: the service refuses it. Create a role of your own instead.'
        : undefined,
  },
};

export const DOCUMENT_KINDS = Object.keys(KINDS) as DocumentKind[];

export function kindSpec(kind: DocumentKind): KindSpec {
  return KINDS[kind];
}

// ---- templates of new resources ----

export function queryEndpointTemplate(): Record<string, unknown> {
  return { roles: ['sql_console_read_only'], openApiKeys: [], allowedOrigins: '' };
}

export function dashboardTemplate(name = 'New dashboard'): Record<string, unknown> {
  return {
    name,
    tags: [],
    tiles: [
      {
        name: 'Notes',
        x: 0,
        y: 0,
        w: 12,
        h: 4,
        config: { displayType: 'markdown', markdown: 'Describe what this dashboard shows.' },
      },
    ],
  };
}

export function webhookTemplate(name = 'New webhook'): Record<string, unknown> {
  return {
    name,
    service: 'generic',
    url: 'https://example.com/hooks/alerts',
    headers: { 'Content-Type': 'application/json' },
    body: '{"text": "{{title}}: {{body}} {{link}}"}',
  };
}

export function savedSearchTemplate(name: string, sources: readonly Source[] | undefined): Record<string, unknown> {
  const source = sources?.find((s) => s.kind === 'log') ?? sources?.[0];
  return { name, sourceId: source?.id ?? '', select: '', where: '', whereLanguage: 'lucene', orderBy: '', tags: [] };
}

/** Kinds of sources a new one can be (promql is created in the UI). */
export const SOURCE_TEMPLATE_KINDS = ['log', 'trace', 'metric', 'session'] as const;
export type SourceTemplateKind = (typeof SOURCE_TEMPLATE_KINDS)[number];

/**
 * A new source of a kind, with the expressions the kind requires filled for the OpenTelemetry tables ClickStack
 * creates. The ClickHouse connection (and a session's trace source) is taken from the service's sources when it has
 * some; otherwise it is left empty for the user to fill in.
 */
export function sourceTemplate(
  kind: SourceTemplateKind,
  name: string,
  sources: readonly Source[] | undefined,
): Record<string, unknown> {
  const connection = sources?.find((s) => typeof s.connection === 'string' && s.connection !== '')?.connection ?? '';
  const base = { name, kind, connection };
  switch (kind) {
    case 'log':
      return {
        ...base,
        from: { databaseName: 'default', tableName: 'otel_logs' },
        timestampValueExpression: 'TimestampTime',
        defaultTableSelectExpression: 'Timestamp, ServiceName, SeverityText, Body',
        serviceNameExpression: 'ServiceName',
        severityTextExpression: 'SeverityText',
        bodyExpression: 'Body',
        eventAttributesExpression: 'LogAttributes',
        resourceAttributesExpression: 'ResourceAttributes',
        traceIdExpression: 'TraceId',
        spanIdExpression: 'SpanId',
        implicitColumnExpression: 'Body',
      };
    case 'trace':
      return {
        ...base,
        from: { databaseName: 'default', tableName: 'otel_traces' },
        timestampValueExpression: 'Timestamp',
        defaultTableSelectExpression: 'Timestamp, ServiceName, StatusCode, round(Duration / 1e6), SpanName',
        durationExpression: 'Duration',
        durationPrecision: 9,
        traceIdExpression: 'TraceId',
        spanIdExpression: 'SpanId',
        parentSpanIdExpression: 'ParentSpanId',
        spanNameExpression: 'SpanName',
        spanKindExpression: 'SpanKind',
        serviceNameExpression: 'ServiceName',
        statusCodeExpression: 'StatusCode',
        statusMessageExpression: 'StatusMessage',
        eventAttributesExpression: 'SpanAttributes',
        resourceAttributesExpression: 'ResourceAttributes',
      };
    case 'metric':
      return {
        ...base,
        from: { databaseName: 'default', tableName: '' },
        timestampValueExpression: 'TimeUnix',
        metricTables: {
          gauge: 'otel_metrics_gauge',
          histogram: 'otel_metrics_histogram',
          sum: 'otel_metrics_sum',
          summary: 'otel_metrics_summary',
          'exponential histogram': 'otel_metrics_exponential_histogram',
        },
        resourceAttributesExpression: 'ResourceAttributes',
        serviceNameExpression: 'ServiceName',
      };
    case 'session':
      return {
        ...base,
        from: { databaseName: 'default', tableName: 'hyperdx_sessions' },
        timestampValueExpression: 'TimestampTime',
        traceSourceId: sources?.find((s) => s.kind === 'trace')?.id ?? '',
        resourceAttributesExpression: 'ResourceAttributes',
      };
  }
}

export function roleTemplate(name = 'New role'): Record<string, unknown> {
  return { name, permissions: [{ action: 'read', subject: 'dashboard' }] };
}

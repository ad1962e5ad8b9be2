/** The API routes the emulator serves, with the live server's rules and side effects. */
import { randomUUID } from 'node:crypto';
import { alertFromBody, alertResponse } from './alerts';
import {
  cleanupDashboardAlerts,
  dashboardFromCreate,
  dashboardFromUpdate,
  dashboardIssues,
  dashboardResponse,
  deleteDashboardAlerts,
} from './dashboards';
import { badRequest, conflict, notFound } from './errors';
import { newObjectId, OBJECT_ID_PATTERN, UUID_PATTERN } from './ids';
import { filterKey, firstNonRenderableFilter, nonRenderableFilterMessage } from './savedSearchFilters';
import {
  checkSchema,
  formatIssue,
  futureKeys,
  type RequestSchemaName,
  type SchemaIssue,
  stripUnknown,
} from './schemas';
import type { EmulatorState, JsonObject, ServiceData, StoredRole, StoredSavedSearch, StoredWebhook } from './types';

export interface RouteContext {
  state: EmulatorState;
  params: string[];
  query: URLSearchParams;
  body: unknown;
  now: number;
  /** Most items a paged list returns, whatever `limit` asks for (future-fields mode); default: `limit`. */
  pageCap?: number;
  /** Set by the self-hosted flavor when it answers as the newest HyperDX (oss/newer.ts). */
  newer?: NewerHyperdx;
}

/** How the newest self-hosted HyperDX's additions pass the Cloud schema (the OSS layer has checked them already). */
export interface NewerHyperdx {
  /** The body as the Cloud schema can judge it. */
  cloudView(body: unknown): unknown;
  /** The stripped body with the newer parts put back as sent. */
  keepNewer(sent: unknown, stripped: JsonObject): JsonObject;
}

/** `result` for a 200 envelope; `undefined` means a DELETE-style `{status, requestId}` body. */
export type RouteResult = { result: unknown } | undefined;

export interface Route {
  method: string;
  pattern: RegExp;
  /** The operation in the spec, `METHOD /path`: the key of its 200 response schema (see schemas.ts). */
  spec: string;
  handler: (ctx: RouteContext) => RouteResult;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The body checked against the spec, with the keys the schema does not declare dropped (as the server does). */
function validBody(name: RequestSchemaName, body: unknown, newer?: NewerHyperdx): JsonObject {
  const issue = checkSchema(name, newer ? newer.cloudView(body) : body);
  if (issue) throw badRequest(formatIssue(issue));
  const stripped = stripUnknown(name, body as JsonObject);
  return newer ? newer.keepNewer(body, stripped) : stripped;
}

function organization(ctx: RouteContext): EmulatorState['organization'] {
  const id = ctx.params[0] ?? '';
  if (id !== ctx.state.organization.id) throw notFound(`Organization ${id} not found`);
  return ctx.state.organization;
}

function service(ctx: RouteContext): JsonObject & { id: string } {
  organization(ctx);
  const id = ctx.params[1] ?? '';
  const svc = ctx.state.services.find((s) => s.id === id);
  if (!svc) throw notFound(`Service ${id} not found`);
  return svc;
}

function serviceData(ctx: RouteContext): ServiceData {
  const svc = service(ctx);
  const data = ctx.state.data.get(svc.id);
  if (!data) throw notFound(`Service ${svc.id} not found`);
  return data;
}

function objectId(ctx: RouteContext, index: number): string {
  const id = ctx.params[index] ?? '';
  if (!OBJECT_ID_PATTERN.test(id)) throw badRequest('Invalid ObjectId');
  return id;
}

/**
 * limit 1–1000 (default 1000) and offset ≥ 0 (default 0); anything else is a 400. With a page cap, at most that many
 * items come back whatever `limit` says (a server may always return fewer than asked).
 */
function paginate<T>(items: T[], query: URLSearchParams, pageCap?: number): T[] {
  const parse = (name: string, def: number, min: number, max: number): number => {
    const raw = query.get(name);
    if (raw === null) return def;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
      throw badRequest(
        `Query validation failed: ${name}: must be an integer ${max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `between ${min} and ${max}`}`,
      );
    }
    return n;
  };
  const limit = parse('limit', 1000, 1, 1000);
  const offset = parse('offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const size = pageCap !== undefined && pageCap > 0 ? Math.min(limit, pageCap) : limit;
  return items.slice(offset, offset + size);
}

function webhookResponse(w: StoredWebhook): JsonObject {
  const out: JsonObject = { id: w.id, name: w.name, service: w.service, url: w.url };
  if (w.description !== undefined) out.description = w.description;
  if (w.body !== undefined && w.service === 'generic') out.body = w.body;
  out.createdAt = w.createdAt;
  out.updatedAt = w.updatedAt;
  return { ...out, ...w.extra };
}

/** Mongoose's `Types.ObjectId.isValid`: 24 hex digits, or any 12-character string. */
function isValidObjectId(v: unknown): boolean {
  return typeof v === 'string' && (OBJECT_ID_PATTERN.test(v.toLowerCase()) || v.length === 12);
}

/** A zod rule of the server broken: 400 `Body validation failed: /path: message`. */
const bodyRule = (path: string, message: string): never => {
  throw badRequest(formatIssue({ path, message }));
};

/** HyperDX `utils/validators.ts` isPrivateIp, for literal addresses (the server resolves no names here either). */
function isPrivateHost(hostname: string): boolean {
  const h = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) {
    const [a, b, c] = v4.slice(1, 4).map(Number) as [number, number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      a >= 224 ||
      (a === 100 && b >= 64 && b < 128) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b < 32) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0 && (c === 0 || c === 2)) ||
      (a === 198 && (b === 18 || b === 19)) ||
      (a === 198 && b === 51 && c === 100) ||
      (a === 203 && b === 0 && c === 113)
    );
  }
  if (h.includes(':')) {
    // IPv4-mapped / -compatible forms (the URL parser writes them in hex: ::ffff:7f00:1).
    const embedded = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h) ?? null;
    if (embedded && h !== '::1') {
      const hi = parseInt(embedded[1] ?? '0', 16);
      const lo = parseInt(embedded[2] ?? '0', 16);
      return isPrivateHost(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
    const dotted = /^::(?:ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/.exec(h);
    if (dotted?.[1]) return isPrivateHost(dotted[1]);
    return (
      h === '::1' ||
      h === '::' ||
      /^f[cd]/.test(h) ||
      /^fe[89ab]/.test(h) ||
      /^ff/.test(h) ||
      h.startsWith('2001:db8:') ||
      h.startsWith('100::')
    );
  }
  return false;
}

const HEADER_NAME = /^[!#$%&'*+\-.0-9A-Z^_`a-z|~]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\r\n\t\x00-\x1F\x7F]/;

/**
 * The server's webhook body rules (HyperDX `utils/zod.ts` externalWebhookCreateSchema, then `controllers/webhook.ts`
 * validateWebhookUrl), in its order and words: name trimmed, 1–1024; url a URL of at most 2048; description ≤ 2048;
 * body ≤ 16 KiB; at most 100 headers / query parameters with safe names and values; headers, queryParams and body are
 * refused for slack; then http(s) only, a slack URL must be on slack.com, no private or reserved address.
 */
function checkWebhookBody(body: JsonObject): { name: string; url: string; parsed: URL } {
  const name = String(body.name).trim();
  if (name.length === 0) bodyRule('/name', 'String must contain at least 1 character(s)');
  if (name.length > 1024) bodyRule('/name', 'String must contain at most 1024 character(s)');
  const url = String(body.url);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    bodyRule('/url', 'Invalid url');
  }
  if (url.length > 2048) bodyRule('/url', 'String must contain at most 2048 character(s)');
  if (typeof body.description === 'string' && body.description.length > 2048) {
    bodyRule('/description', 'String must contain at most 2048 character(s)');
  }
  if (typeof body.body === 'string' && body.body.length > 16 * 1024) {
    bodyRule('/body', 'String must contain at most 16384 character(s)');
  }
  if (isObject(body.headers)) {
    const entries = Object.entries(body.headers);
    for (const [k, v] of entries) {
      if (k.length === 0) bodyRule(`/headers/${k}`, 'Header name cannot be empty');
      if (k.length > 256) bodyRule(`/headers/${k}`, 'String must contain at most 256 character(s)');
      if (!HEADER_NAME.test(k)) {
        bodyRule(`/headers/${k}`, "Invalid header name. Only alphanumeric characters and !#$%&'*+-.^_`|~ are allowed");
      }
      if (/^\d/.test(k)) bodyRule(`/headers/${k}`, 'Header name cannot start with a number');
      if (String(v).length > 4096) bodyRule(`/headers/${k}`, 'String must contain at most 4096 character(s)');
      if (CONTROL_CHARS.test(String(v))) bodyRule(`/headers/${k}`, 'Header values cannot contain control characters');
    }
    if (entries.length > 100) bodyRule('/headers', 'A webhook cannot have more than 100 headers');
  }
  if (isObject(body.queryParams)) {
    const entries = Object.entries(body.queryParams);
    for (const [k, v] of entries) {
      if (k.length === 0) bodyRule(`/queryParams/${k}`, 'Query parameter name cannot be empty');
      if (CONTROL_CHARS.test(k)) {
        bodyRule(`/queryParams/${k}`, 'Query parameter names cannot contain control characters');
      }
      if (CONTROL_CHARS.test(String(v))) {
        bodyRule(`/queryParams/${k}`, 'Query parameter values cannot contain control characters');
      }
    }
    if (entries.length > 100) bodyRule('/queryParams', 'A webhook cannot have more than 100 query parameters');
  }
  if (body.service === 'slack') {
    for (const field of ['headers', 'queryParams', 'body']) {
      if (body[field] !== undefined) bodyRule(`/${field}`, `${field} is not supported for the slack webhook service`);
    }
  }
  return { name, url, parsed: parsed as URL };
}

/** controllers/webhook.ts validateWebhookUrl: a WebhookUrlValidationError is a 400 with its message. */
function checkWebhookUrl(body: JsonObject, u: URL, url: string): void {
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw badRequest('Webhook URL must use HTTP or HTTPS');
  const host = u.hostname.toLowerCase();
  if (body.service === 'slack' && host !== 'slack.com' && !host.endsWith('.slack.com')) {
    throw badRequest(`Slack Webhook URL ${url} does not have hostname that ends in 'slack.com'`);
  }
  if (isPrivateHost(u.hostname)) throw badRequest('Webhook URL resolves to a private or reserved address.');
}

function webhookFromBody(body: JsonObject, data: ServiceData, now: number, existing?: StoredWebhook): StoredWebhook {
  const { name, url, parsed } = checkWebhookBody(body);
  checkWebhookUrl(body, parsed, url);
  const service = String(body.service);
  // Unique index {team, service, name} (models/webhook.ts); the router answers a duplicate key with a 400.
  for (const other of data.webhooks.values()) {
    if (other.name === name && other.service === service && other.id !== existing?.id) {
      throw badRequest('A webhook with this service and name already exists');
    }
  }
  const stamp = new Date(now).toISOString();
  const w: StoredWebhook = {
    id: existing?.id ?? newObjectId(now),
    name,
    service,
    url,
    createdAt: existing?.createdAt ?? stamp,
    updatedAt: stamp,
  };
  // description and body: set or cleared by presence (updateWebhook's $set/$unset).
  if (typeof body.description === 'string') w.description = body.description;
  if (typeof body.body === 'string') w.body = body.body;
  // Write-only maps: omitted keeps the stored ones unless the url or service changes; {} clears them.
  const sameTarget = existing !== undefined && existing.url === url && existing.service === service;
  if (isObject(body.headers)) {
    if (Object.keys(body.headers).length > 0) w.headers = body.headers as Record<string, string>;
  } else if (sameTarget && existing.headers) w.headers = existing.headers;
  if (isObject(body.queryParams)) {
    if (Object.keys(body.queryParams).length > 0) w.queryParams = body.queryParams as Record<string, string>;
  } else if (sameTarget && existing.queryParams) w.queryParams = existing.queryParams;
  w.extra = futureKeys(body);
  return w;
}

/** Lists sorted by `_id`, as the server pages them (`.sort({ _id: 1 })`). */
const byId = <T extends { id: string }>(items: Iterable<T>): T[] =>
  [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/**
 * The source's `connection` must be one of the team's (HyperDX `validateConnectionId`, run after the body's schema):
 * 400 `connection must be an existing connection id` otherwise.
 */
function requireTeamConnection(body: JsonObject, data: ServiceData): void {
  if (typeof body.connection !== 'string' || !OBJECT_ID_PATTERN.test(body.connection)) {
    throw badRequest('connection must be a valid connection id');
  }
  if (!data.connections.has(body.connection)) throw badRequest('connection must be an existing connection id');
}

/**
 * HyperDX's dashboard check (`getMissingConnections`): a raw-SQL tile's `connectionId` must be one of the team's, else
 * 400 `Could not find the following connection IDs: …`.
 */
function requireTileConnections(body: unknown, data: ServiceData): void {
  const tiles = Array.isArray((body as { tiles?: unknown } | null)?.tiles) ? (body as { tiles: unknown[] }).tiles : [];
  const missing = new Set<string>();
  for (const tile of tiles) {
    const config = (tile as { config?: { configType?: unknown; connectionId?: unknown } } | null)?.config;
    if (config?.configType === 'sql' && typeof config.connectionId === 'string') {
      if (!data.connections.has(config.connectionId)) missing.add(config.connectionId);
    }
  }
  if (missing.size > 0) throw badRequest(`Could not find the following connection IDs: ${[...missing].join(', ')}`);
}

function sourceFromBody(body: JsonObject, id: string, data: ServiceData): JsonObject {
  const { id: _ignored, ...rest } = body;
  if (typeof rest.name !== 'string' || rest.name.trim() === '') {
    throw badRequest(formatIssue({ path: '/name', message: 'must not be empty' }));
  }
  if (typeof rest.section === 'string' && rest.section.length > 256) {
    throw badRequest(formatIssue({ path: '/section', message: 'must NOT have more than 256 characters' }));
  }
  if (Array.isArray(rest.querySettings) && rest.querySettings.length > 10) {
    throw badRequest(formatIssue({ path: '/querySettings', message: 'must NOT have more than 10 items' }));
  }
  if (
    rest.kind === 'trace' &&
    (typeof rest.durationPrecision !== 'number' || rest.durationPrecision < 0 || rest.durationPrecision > 9)
  ) {
    throw badRequest(formatIssue({ path: '/durationPrecision', message: 'must be between 0 and 9' }));
  }
  requireTeamConnection(rest, data);
  return { id, ...rest };
}

/**
 * The server's saved-search body (HyperDX `routers/external-api/v2/savedSearches.ts` savedSearchRequestSchema +
 * requireValidSourceId): name trimmed, 1–1024; sourceId an ObjectId of a source of the team (else 400 `sourceId must
 * be an existing source id`); select ≤ 4 KiB, where ≤ 8 KiB, orderBy ≤ 1 KiB; at most 100 filters; at most 50 tags
 * of at most 32 characters. Create and PUT
 * are full writes: an omitted select/where/orderBy becomes "", whereLanguage "lucene", tags and filters [].
 */
function savedSearchFromBody(
  body: JsonObject,
  data: ServiceData,
  now: number,
  existing?: StoredSavedSearch,
): StoredSavedSearch {
  const name = String(body.name).trim();
  if (name.length === 0) bodyRule('/name', 'String must contain at least 1 character(s)');
  if (name.length > 1024) bodyRule('/name', 'String must contain at most 1024 character(s)');
  if (!isValidObjectId(body.sourceId)) bodyRule('/sourceId', 'Invalid ObjectId');
  const limits: [string, number][] = [
    ['select', 4 * 1024],
    ['where', 8 * 1024],
    ['orderBy', 1024],
  ];
  for (const [k, max] of limits) {
    if (typeof body[k] === 'string' && (body[k] as string).length > max) {
      bodyRule(`/${k}`, `String must contain at most ${max} character(s)`);
    }
  }
  if (Array.isArray(body.filters) && body.filters.length > 100) {
    bodyRule('/filters', 'Array must contain at most 100 element(s)');
  }
  // common-utils tagsSchema: at most 50 tags of at most 32 characters.
  if (Array.isArray(body.tags)) {
    (body.tags as string[]).forEach((t, i) => {
      if (t.length > 32) bodyRule(`/tags/${i}`, 'String must contain at most 32 character(s)');
    });
    if (body.tags.length > 50) bodyRule('/tags', 'Array must contain at most 50 element(s)');
  }
  if (!data.sources.has(String(body.sourceId))) throw badRequest('sourceId must be an existing source id');
  const stamp = new Date(now).toISOString();
  return {
    ...futureKeys(body),
    id: existing?.id ?? newObjectId(now),
    name,
    select: typeof body.select === 'string' ? body.select : '',
    where: typeof body.where === 'string' ? body.where : '',
    whereLanguage: typeof body.whereLanguage === 'string' ? body.whereLanguage : 'lucene',
    orderBy: typeof body.orderBy === 'string' ? body.orderBy : '',
    sourceId: String(body.sourceId),
    tags: Array.isArray(body.tags) ? [...new Set(body.tags as string[])] : [],
    filters: Array.isArray(body.filters)
      ? (body.filters as JsonObject[]).map((f) =>
          f.type === undefined && typeof f.condition === 'string' ? { type: 'sql', ...f } : f,
        )
      : [],
    teamId: data.teamId,
    createdAt: existing?.createdAt ?? stamp,
    updatedAt: stamp,
  };
}

function roleResponse(r: StoredRole): JsonObject {
  const out: JsonObject = { id: r.id, name: r.name };
  if (r.description !== undefined) out.description = r.description;
  out.permissions = r.permissions;
  out.isPredefined = r.isPredefined;
  out.createdAt = r.createdAt;
  out.updatedAt = r.updatedAt;
  return { ...out, ...r.extra };
}

/**
 * Role writes as the spec describes them (HyperDX has no roles router; the rules below are the spec's words): a name
 * is required on create, "unique within the team and not colliding with a predefined role" (compared without case
 * and surrounding spaces); PUT replaces the permissions and, when sent, the name and description ("Omit to leave
 * the name unchanged"); predefined roles cannot be modified. Refusals are 400s, the only client error the spec
 * declares for these operations.
 */
function roleFromBody(body: JsonObject, data: ServiceData, now: number, existing?: StoredRole): StoredRole {
  if (existing?.isPredefined) throw badRequest('Predefined roles cannot be modified');
  let name = existing?.name ?? '';
  if (typeof body.name === 'string') {
    name = body.name.trim();
    if (name.length === 0) bodyRule('/name', 'must not be empty');
  }
  const key = name.toLowerCase();
  for (const other of data.roles.values()) {
    if (other.id !== existing?.id && other.name.trim().toLowerCase() === key) {
      throw badRequest(
        other.isPredefined
          ? `Role name "${name}" is reserved for a predefined role`
          : `A role named "${name}" already exists`,
      );
    }
  }
  const stamp = new Date(now).toISOString();
  const role: StoredRole = {
    id: existing?.id ?? newObjectId(now),
    name,
    permissions: body.permissions as JsonObject[],
    isPredefined: false,
    createdAt: existing?.createdAt ?? stamp,
    updatedAt: stamp,
    isDefault: existing?.isDefault ?? false,
    userCount: existing?.userCount ?? 0,
    extra: { ...existing?.extra, ...futureKeys(body) },
  };
  const description = typeof body.description === 'string' ? body.description : existing?.description;
  if (description !== undefined) role.description = description;
  return role;
}

function queryEndpointResponse(data: ServiceData): JsonObject {
  const q = data.queryEndpoint;
  if (!q) throw notFound('Service query endpoint not found');
  return { id: q.id, openApiKeys: q.openApiKeys, roles: q.roles, allowedOrigins: q.allowedOrigins, ...q.extra };
}

const ok = (result: unknown): RouteResult => ({ result });

export interface RouteOptions {
  /** Serve `GET …/sources/{id}` (see EmulatorOptions.sourceGetById). */
  sourceGetById?: boolean;
}

/** A JSON-pointer path of an issue (`/tiles/0/w`) as the dashboard validation writes it: `tiles.0.w`, '' for the body. */
function dottedIssuePath(pointer: string): string {
  return pointer
    .split('/')
    .filter((p) => p !== '')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** The 400 message of a refused dashboard write: the schema's words, or a tile rule's own message (empty path). */
function dashboardIssueMessage(issue: SchemaIssue): string {
  return issue.path === '' ? issue.message : formatIssue(issue);
}

export function buildRoutes(segment: string, options: RouteOptions = {}): Route[] {
  const org = '^/v1/organizations/([^/]+)';
  const svc = `${org}/services/([^/]+)`;
  const base = `${svc}/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
  // The spec's names for the same paths (the live segment is `clickstack`).
  const specKey = (method: string, path: string): string => {
    if (path.startsWith(base)) {
      const rest = path.slice(base.length);
      const names: Record<string, string> = {
        dashboards: 'clickStackDashboardId',
        alerts: 'clickStackAlertId',
        sources: 'clickStackSourceId',
        webhooks: 'clickStackWebhookId',
        'saved-searches': 'clickStackSavedSearchId',
        roles: 'clickStackRoleId',
      };
      const m = /^\/([a-z-]+)(\/\(\[\^\/\]\+\))?(.*)$/.exec(rest);
      const resource = m?.[1] ?? '';
      return `${method} /clickstack/${resource}${m?.[2] ? `/{${names[resource] ?? 'id'}}` : ''}${m?.[3] ?? ''}`;
    }
    return `${method} ${path.replace(/^\^/, '').replace(org.slice(1), '/v1/organizations/{organizationId}').replace('/services/([^/]+)', '/services/{serviceId}')}`;
  };
  const r = (method: string, path: string, handler: Route['handler']): Route => ({
    method,
    pattern: new RegExp(`${path}/?$`),
    spec: specKey(method, path),
    handler,
  });

  return [
    // Organizations, services, keys.
    r('GET', '^/v1/organizations', (ctx) => ok([ctx.state.organization])),
    r('GET', org, (ctx) => ok(organization(ctx))),
    r('GET', `${org}/services`, (ctx) => {
      organization(ctx);
      return ok(ctx.state.services);
    }),
    r('GET', svc, (ctx) => ok(service(ctx))),
    r('GET', `${org}/keys`, (ctx) => {
      organization(ctx);
      return ok(ctx.state.keys);
    }),

    // Service query endpoint.
    r('GET', `${svc}/serviceQueryEndpoint`, (ctx) => ok(queryEndpointResponse(serviceData(ctx)))),
    r('POST', `${svc}/serviceQueryEndpoint`, (ctx) => {
      const data = serviceData(ctx);
      const body = validBody('InstanceServiceQueryApiEndpointsPostRequest', ctx.body);
      const keyIds = new Set(ctx.state.keys.map((k) => k.id));
      const openApiKeys = Array.isArray(body.openApiKeys)
        ? [...new Set(body.openApiKeys as string[])]
        : (data.queryEndpoint?.openApiKeys ?? []);
      openApiKeys.forEach((k, i) => {
        if (!UUID_PATTERN.test(k)) {
          throw badRequest(
            formatIssue({ path: `/openApiKeys/${i}`, message: 'must be the UUID of an API key of the organization' }),
          );
        }
        if (!keyIds.has(k)) throw badRequest(`API key ${k} not found in organization`);
      });
      const roles = Array.isArray(body.roles)
        ? [...new Set(body.roles as string[])]
        : (data.queryEndpoint?.roles ?? []);
      const allowedOrigins =
        typeof body.allowedOrigins === 'string' ? body.allowedOrigins : (data.queryEndpoint?.allowedOrigins ?? '');
      // An upsert keeps what it does not send.
      const extra = { ...data.queryEndpoint?.extra, ...futureKeys(body) };
      data.queryEndpoint = { id: data.queryEndpoint?.id ?? randomUUID(), roles, openApiKeys, allowedOrigins, extra };
      return ok(queryEndpointResponse(data));
    }),
    r('DELETE', `${svc}/serviceQueryEndpoint`, (ctx) => {
      const data = serviceData(ctx);
      if (!data.queryEndpoint) throw notFound('Service query endpoint not found');
      data.queryEndpoint = null;
      return undefined;
    }),

    // Dashboards.
    r('GET', `${base}/dashboards`, (ctx) => {
      const data = serviceData(ctx);
      const list = [...data.dashboards.values()].sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
      return ok(list.map(dashboardResponse));
    }),
    r('POST', `${base}/dashboards/validate`, (ctx) => {
      const data = serviceData(ctx);
      const issue = checkSchema(
        'ClickStackCreateDashboardRequest',
        ctx.newer ? ctx.newer.cloudView(ctx.body) : ctx.body,
      );
      const errors = issue ? [issue] : dashboardIssues(ctx.body as JsonObject, 'create', data);
      // The answer's paths are dot-separated (`tiles.0.w`), empty for a problem of the whole body.
      const dotted = errors.map((e) => ({ path: dottedIssuePath(e.path), message: e.message }));
      if (errors.length > 0) return ok({ valid: false, errors: dotted, normalized: null });
      const stripped = stripUnknown('ClickStackCreateDashboardRequest', ctx.body as JsonObject);
      const body = ctx.newer ? ctx.newer.keepNewer(ctx.body, stripped) : stripped;
      const { id: _id, ...normalized } = dashboardResponse(dashboardFromCreate(body, true));
      return ok({ valid: true, errors: [], normalized });
    }),
    r('POST', `${base}/dashboards`, (ctx) => {
      const data = serviceData(ctx);
      const body = validBody('ClickStackCreateDashboardRequest', ctx.body, ctx.newer);
      const issues = dashboardIssues(ctx.body as JsonObject, 'create', data);
      if (issues[0]) throw badRequest(dashboardIssueMessage(issues[0]));
      requireTileConnections(ctx.body, data);
      const dashboard = dashboardFromCreate(body);
      data.dashboards.set(dashboard.id, dashboard);
      return ok(dashboardResponse(dashboard));
    }),
    r('GET', `${base}/dashboards/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const d = data.dashboards.get(objectId(ctx, 2));
      if (!d) throw notFound('Dashboard not found');
      return ok(dashboardResponse(d));
    }),
    r('PUT', `${base}/dashboards/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      const existing = data.dashboards.get(id);
      if (!existing) throw notFound('Dashboard not found');
      const body = validBody('ClickStackUpdateDashboardRequest', ctx.body, ctx.newer);
      const issues = dashboardIssues(ctx.body as JsonObject, 'update', data, existing);
      if (issues[0]) throw badRequest(dashboardIssueMessage(issues[0]));
      requireTileConnections(ctx.body, data);
      const next = dashboardFromUpdate(existing, body);
      data.dashboards.set(id, next);
      cleanupDashboardAlerts(data, next);
      return ok(dashboardResponse(next));
    }),
    r('DELETE', `${base}/dashboards/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      if (!data.dashboards.delete(id)) throw notFound('Dashboard not found');
      deleteDashboardAlerts(data, id);
      return undefined;
    }),

    // Alerts.
    r('GET', `${base}/alerts`, (ctx) => {
      const data = serviceData(ctx);
      return ok(paginate([...data.alerts.values()], ctx.query, ctx.pageCap).map((a) => alertResponse(a, true)));
    }),
    r('POST', `${base}/alerts`, (ctx) => {
      const data = serviceData(ctx);
      const alert = alertFromBody(
        validBody('ClickStackCreateAlertRequest', ctx.body, ctx.newer),
        data,
        undefined,
        ctx.now,
        !!ctx.newer,
      );
      data.alerts.set(alert.id, alert);
      return ok(alertResponse(alert));
    }),
    r('GET', `${base}/alerts/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const a = data.alerts.get(objectId(ctx, 2));
      if (!a) throw notFound('Alert not found');
      return ok(alertResponse(a));
    }),
    r('PUT', `${base}/alerts/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      const existing = data.alerts.get(id);
      if (!existing) throw notFound('Alert not found');
      const alert = alertFromBody(
        validBody('ClickStackUpdateAlertRequest', ctx.body, ctx.newer),
        data,
        existing,
        ctx.now,
        !!ctx.newer,
      );
      data.alerts.set(id, alert);
      return ok(alertResponse(alert));
    }),
    r('DELETE', `${base}/alerts/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      if (!data.alerts.delete(objectId(ctx, 2))) throw notFound('Alert not found');
      return undefined;
    }),

    // Sources.
    r('GET', `${base}/sources`, (ctx) => ok([...serviceData(ctx).sources.values()])),
    r('POST', `${base}/sources`, (ctx) => {
      const data = serviceData(ctx);
      const source = sourceFromBody(validBody('ClickStackSource', ctx.body), newObjectId(ctx.now), data);
      data.sources.set(String(source.id), source);
      return ok(source);
    }),
    // GET-by-id is in the spec, but the live Cloud has been seen not to serve it: off unless asked for, so the route
    // is then absent (an HTML 404 page, like any unserved route).
    ...(options.sourceGetById
      ? [
          r('GET', `${base}/sources/([^/]+)`, (ctx) => {
            const s = serviceData(ctx).sources.get(objectId(ctx, 2));
            if (!s) throw notFound('Source not found');
            return ok(s);
          }),
        ]
      : []),
    r('PUT', `${base}/sources/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      if (!data.sources.has(id)) throw notFound('Source not found');
      const source = sourceFromBody(validBody('ClickStackSource', ctx.body), id, data);
      data.sources.set(id, source);
      return ok(source);
    }),
    // Deleting a source touches nothing else (HyperDX controllers/sources.ts deleteSource is a bare
    // findOneAndDelete, with no hook on the model): tiles, dashboard filters, saved searches, alerts and other
    // sources' links that name it keep the dangling ID.
    r('DELETE', `${base}/sources/([^/]+)`, (ctx) => {
      if (!serviceData(ctx).sources.delete(objectId(ctx, 2))) throw notFound('Source not found');
      return undefined;
    }),

    // Webhooks.
    r('GET', `${base}/webhooks`, (ctx) =>
      ok(paginate(byId(serviceData(ctx).webhooks.values()), ctx.query, ctx.pageCap).map(webhookResponse)),
    ),
    r('POST', `${base}/webhooks`, (ctx) => {
      const data = serviceData(ctx);
      const w = webhookFromBody(validBody('ClickStackWebhookInput', ctx.body), data, ctx.now);
      data.webhooks.set(w.id, w);
      return ok(webhookResponse(w));
    }),
    r('PUT', `${base}/webhooks/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      // Body rules first (the router's validateRequest), then the lookup, then the URL rules (updateWebhook).
      const body = validBody('ClickStackWebhookInput', ctx.body);
      checkWebhookBody(body);
      const existing = data.webhooks.get(id);
      if (!existing) throw notFound('Webhook not found');
      const w = webhookFromBody(body, data, ctx.now, existing);
      data.webhooks.set(id, w);
      return ok(webhookResponse(w));
    }),
    r('DELETE', `${base}/webhooks/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      // HyperDX controllers/webhook.ts deleteWebhook counts alerts with `channel.webhookId` = id first (so the 409
      // comes before a 404), and only that field: `channel` mirrors channels[0], so a webhook used only by a later
      // channel does not block the delete and that alert keeps a dangling webhookId.
      const users = [...data.alerts.values()].filter((a) => a.channels[0]?.webhookId === id).length;
      if (users > 0) {
        throw conflict(
          `Cannot delete webhook: ${users} alert(s) still reference it. Reassign or remove those alerts first.`,
        );
      }
      if (!data.webhooks.delete(id)) throw notFound('Webhook not found');
      return undefined;
    }),

    // Saved searches.
    r('GET', `${base}/saved-searches`, (ctx) =>
      ok(paginate(byId(serviceData(ctx).savedSearches.values()), ctx.query, ctx.pageCap)),
    ),
    r('POST', `${base}/saved-searches`, (ctx) => {
      const data = serviceData(ctx);
      const s = savedSearchFromBody(validBody('ClickStackSavedSearchInput', ctx.body), data, ctx.now);
      // On create every filter must render in the sidebar.
      const bad = firstNonRenderableFilter(s.filters as JsonObject[]);
      if (bad >= 0) throw badRequest(nonRenderableFilterMessage(bad));
      data.savedSearches.set(s.id, s);
      return ok(s);
    }),
    r('GET', `${base}/saved-searches/([^/]+)`, (ctx) => {
      const s = serviceData(ctx).savedSearches.get(objectId(ctx, 2));
      if (!s) throw notFound('Saved search not found');
      return ok(s);
    }),
    r('PUT', `${base}/saved-searches/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      // The body and its sourceId are checked before the saved search is looked up, as the router does.
      const body = validBody('ClickStackSavedSearchInput', ctx.body);
      const existing = data.savedSearches.get(id);
      const s = savedSearchFromBody(body, data, ctx.now, existing);
      if (!existing) throw notFound('Saved search not found');
      // Filters stored unchanged are grandfathered (a GET → edit → PUT may echo a legacy filter back).
      const grandfathered = new Set(((existing.filters as JsonObject[] | undefined) ?? []).map(filterKey));
      const bad = firstNonRenderableFilter(s.filters as JsonObject[], grandfathered);
      if (bad >= 0) throw badRequest(nonRenderableFilterMessage(bad));
      data.savedSearches.set(id, s);
      return ok(s);
    }),
    // HyperDX controllers/savedSearch.ts deleteSavedSearch: deletes the alerts on the saved search
    // (deleteSavedSearchAlerts), then the saved search.
    r('DELETE', `${base}/saved-searches/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      if (!data.savedSearches.delete(id)) throw notFound('Saved search not found');
      for (const a of [...data.alerts.values()]) {
        if (a.savedSearchId === id) data.alerts.delete(a.id);
      }
      return undefined;
    }),

    // Roles.
    r('GET', `${base}/roles`, (ctx) => ok([...serviceData(ctx).roles.values()].map(roleResponse))),
    r('POST', `${base}/roles`, (ctx) => {
      const data = serviceData(ctx);
      const role = roleFromBody(validBody('ClickStackCreateRoleRequest', ctx.body), data, ctx.now);
      data.roles.set(role.id, role);
      return ok(roleResponse(role));
    }),
    r('GET', `${base}/roles/([^/]+)`, (ctx) => {
      const role = serviceData(ctx).roles.get(objectId(ctx, 2));
      if (!role) throw notFound('Role not found');
      return ok(roleResponse(role));
    }),
    r('PUT', `${base}/roles/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      const existing = data.roles.get(id);
      if (!existing) throw notFound('Role not found');
      const role = roleFromBody(validBody('ClickStackUpdateRoleRequest', ctx.body), data, ctx.now, existing);
      data.roles.set(id, role);
      return ok(roleResponse(role));
    }),
    // "Predefined roles, the team default user role, and roles assigned to users cannot be deleted" (spec).
    r('DELETE', `${base}/roles/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      const role = data.roles.get(id);
      if (!role) throw notFound('Role not found');
      if (role.isPredefined) throw badRequest('Predefined roles cannot be deleted');
      if (role.isDefault) throw badRequest('The team default user role cannot be deleted');
      if (role.userCount > 0) throw badRequest(`Cannot delete role: it is assigned to ${role.userCount} user(s)`);
      data.roles.delete(id);
      return undefined;
    }),
  ];
}

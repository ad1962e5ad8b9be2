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
import { checkSchema, formatIssue, futureKeys, type RequestSchemaName, stripUnknown } from './schemas';
import type { EmulatorState, JsonObject, ServiceData, StoredSavedSearch, StoredWebhook } from './types';

export interface RouteContext {
  state: EmulatorState;
  params: string[];
  query: URLSearchParams;
  body: unknown;
  now: number;
  /** Most items a paged list returns, whatever `limit` asks for (future-fields mode); default: `limit`. */
  pageCap?: number;
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
function validBody(name: RequestSchemaName, body: unknown): JsonObject {
  const issue = checkSchema(name, body);
  if (issue) throw badRequest(formatIssue(issue));
  return stripUnknown(name, body as JsonObject);
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
      throw badRequest(`Query validation failed: ${name}: must be an integer ${max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `between ${min} and ${max}`}`);
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

function webhookFromBody(body: JsonObject, data: ServiceData, now: number, existing?: StoredWebhook): StoredWebhook {
  const name = String(body.name);
  if (name.trim() === '') throw badRequest(formatIssue({ path: '/name', message: 'must not be empty' }));
  const url = String(body.url);
  if (!/^https?:\/\/[^\s/]+/i.test(url)) throw badRequest(formatIssue({ path: '/url', message: 'must be a valid http(s) URL' }));
  if (body.service === 'slack' && body.body !== undefined) throw badRequest(formatIssue({ path: '/body', message: 'is not allowed for slack webhooks' }));
  for (const other of data.webhooks.values()) {
    if (other.name === name && other.id !== existing?.id) throw conflict(`A webhook named "${name}" already exists`);
  }
  const stamp = new Date(now).toISOString();
  const w: StoredWebhook = { id: existing?.id ?? newObjectId(now), name, service: String(body.service), url, createdAt: existing?.createdAt ?? stamp, updatedAt: stamp };
  if (typeof body.description === 'string') w.description = body.description;
  if (typeof body.body === 'string') w.body = body.body;
  // Write-only maps: omitted keeps the stored ones unless the url or service changes; {} clears them.
  const sameTarget = existing !== undefined && existing.url === url && existing.service === w.service;
  if (isObject(body.headers)) w.headers = body.headers as Record<string, string>;
  else if (sameTarget && existing.headers) w.headers = existing.headers;
  if (isObject(body.queryParams)) w.queryParams = body.queryParams as Record<string, string>;
  else if (sameTarget && existing.queryParams) w.queryParams = existing.queryParams;
  w.extra = futureKeys(body);
  return w;
}

function sourceFromBody(body: JsonObject, id: string): JsonObject {
  const { id: _ignored, ...rest } = body;
  if (typeof rest.name !== 'string' || rest.name.trim() === '') throw badRequest(formatIssue({ path: '/name', message: 'must not be empty' }));
  if (typeof rest.section === 'string' && rest.section.length > 256) throw badRequest(formatIssue({ path: '/section', message: 'must NOT have more than 256 characters' }));
  if (Array.isArray(rest.querySettings) && rest.querySettings.length > 10) throw badRequest(formatIssue({ path: '/querySettings', message: 'must NOT have more than 10 items' }));
  if (rest.kind === 'trace' && (typeof rest.durationPrecision !== 'number' || rest.durationPrecision < 0 || rest.durationPrecision > 9)) {
    throw badRequest(formatIssue({ path: '/durationPrecision', message: 'must be between 0 and 9' }));
  }
  return { id, ...rest };
}

function savedSearchFromBody(body: JsonObject, data: ServiceData, now: number, existing?: StoredSavedSearch): StoredSavedSearch {
  if (String(body.name).trim() === '') throw badRequest(formatIssue({ path: '/name', message: 'must not be empty' }));
  if (String(body.sourceId).trim() === '') throw badRequest(formatIssue({ path: '/sourceId', message: 'must not be empty' }));
  const stamp = new Date(now).toISOString();
  const { id: _ignored, teamId: _team, createdAt: _c, updatedAt: _u, ...rest } = body;
  return {
    ...rest,
    id: existing?.id ?? newObjectId(now),
    name: String(body.name),
    sourceId: String(body.sourceId),
    tags: Array.isArray(body.tags) ? [...new Set(body.tags as string[])] : [],
    filters: Array.isArray(body.filters) ? (body.filters as JsonObject[]) : [],
    teamId: data.teamId,
    createdAt: existing?.createdAt ?? stamp,
    updatedAt: stamp,
  };
}

function queryEndpointResponse(data: ServiceData): JsonObject {
  const q = data.queryEndpoint;
  if (!q) throw notFound('Service query endpoint not found');
  return { id: q.id, openApiKeys: q.openApiKeys, roles: q.roles, allowedOrigins: q.allowedOrigins, ...q.extra };
}

const ok = (result: unknown): RouteResult => ({ result });

export function buildRoutes(segment: string): Route[] {
  const org = '^/v1/organizations/([^/]+)';
  const svc = `${org}/services/([^/]+)`;
  const base = `${svc}/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
  // The spec's names for the same paths (the live segment is `clickstack`).
  const specKey = (method: string, path: string): string => {
    if (path.startsWith(base)) {
      const rest = path.slice(base.length);
      const names: Record<string, string> = { dashboards: 'clickStackDashboardId', alerts: 'clickStackAlertId', sources: 'clickStackSourceId', webhooks: 'clickStackWebhookId', 'saved-searches': 'clickStackSavedSearchId' };
      const m = /^\/([a-z-]+)(\/\(\[\^\/\]\+\))?(.*)$/.exec(rest);
      const resource = m?.[1] ?? '';
      return `${method} /clickstack/${resource}${m?.[2] ? `/{${names[resource] ?? 'id'}}` : ''}${m?.[3] ?? ''}`;
    }
    return `${method} ${path.replace(/^\^/, '').replace(org.slice(1), '/v1/organizations/{organizationId}').replace('/services/([^/]+)', '/services/{serviceId}')}`;
  };
  const r = (method: string, path: string, handler: Route['handler']): Route => ({ method, pattern: new RegExp(`${path}/?$`), spec: specKey(method, path), handler });

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
      const openApiKeys = Array.isArray(body.openApiKeys) ? [...new Set(body.openApiKeys as string[])] : (data.queryEndpoint?.openApiKeys ?? []);
      openApiKeys.forEach((k, i) => {
        if (!UUID_PATTERN.test(k)) throw badRequest(formatIssue({ path: `/openApiKeys/${i}`, message: 'must be the UUID of an API key of the organization' }));
        if (!keyIds.has(k)) throw badRequest(`API key ${k} not found in organization`);
      });
      const roles = Array.isArray(body.roles) ? [...new Set(body.roles as string[])] : (data.queryEndpoint?.roles ?? []);
      const allowedOrigins = typeof body.allowedOrigins === 'string' ? body.allowedOrigins : (data.queryEndpoint?.allowedOrigins ?? '');
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
      const issue = checkSchema('ClickStackCreateDashboardRequest', ctx.body);
      const errors = issue ? [issue] : dashboardIssues(ctx.body as JsonObject, 'create', data);
      if (errors.length > 0) return ok({ valid: false, errors, normalized: null });
      const body = stripUnknown('ClickStackCreateDashboardRequest', ctx.body as JsonObject);
      const { id: _id, ...normalized } = dashboardResponse(dashboardFromCreate(body, true));
      return ok({ valid: true, errors: [], normalized });
    }),
    r('POST', `${base}/dashboards`, (ctx) => {
      const data = serviceData(ctx);
      const body = validBody('ClickStackCreateDashboardRequest', ctx.body);
      const issues = dashboardIssues(ctx.body as JsonObject, 'create', data);
      if (issues[0]) throw badRequest(formatIssue(issues[0]));
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
      const body = validBody('ClickStackUpdateDashboardRequest', ctx.body);
      const issues = dashboardIssues(ctx.body as JsonObject, 'update', data, existing);
      if (issues[0]) throw badRequest(formatIssue(issues[0]));
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
      return ok(paginate([...data.alerts.values()], ctx.query, ctx.pageCap).map(alertResponse));
    }),
    r('POST', `${base}/alerts`, (ctx) => {
      const data = serviceData(ctx);
      const alert = alertFromBody(validBody('ClickStackCreateAlertRequest', ctx.body), data, undefined, ctx.now);
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
      const alert = alertFromBody(validBody('ClickStackUpdateAlertRequest', ctx.body), data, existing, ctx.now);
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
      const source = sourceFromBody(validBody('ClickStackSource', ctx.body), newObjectId(ctx.now));
      data.sources.set(String(source.id), source);
      return ok(source);
    }),
    // No GET-by-id for sources: the live Cloud does not serve it (an HTML 404 page, like any unserved route).
    r('PUT', `${base}/sources/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      if (!data.sources.has(id)) throw notFound('Source not found');
      const source = sourceFromBody(validBody('ClickStackSource', ctx.body), id);
      data.sources.set(id, source);
      return ok(source);
    }),
    r('DELETE', `${base}/sources/([^/]+)`, (ctx) => {
      if (!serviceData(ctx).sources.delete(objectId(ctx, 2))) throw notFound('Source not found');
      return undefined;
    }),

    // Webhooks.
    r('GET', `${base}/webhooks`, (ctx) => ok(paginate([...serviceData(ctx).webhooks.values()], ctx.query, ctx.pageCap).map(webhookResponse))),
    r('POST', `${base}/webhooks`, (ctx) => {
      const data = serviceData(ctx);
      const w = webhookFromBody(validBody('ClickStackWebhookInput', ctx.body), data, ctx.now);
      data.webhooks.set(w.id, w);
      return ok(webhookResponse(w));
    }),
    r('PUT', `${base}/webhooks/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      const existing = data.webhooks.get(id);
      if (!existing) throw notFound('Webhook not found');
      const w = webhookFromBody(validBody('ClickStackWebhookInput', ctx.body), data, ctx.now, existing);
      data.webhooks.set(id, w);
      return ok(webhookResponse(w));
    }),
    r('DELETE', `${base}/webhooks/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      if (!data.webhooks.has(id)) throw notFound('Webhook not found');
      const users = [...data.alerts.values()].filter((a) => a.channels.some((c) => c.webhookId === id)).length;
      if (users > 0) throw conflict(`Webhook is used by ${users} alert${users === 1 ? '' : 's'}; update or delete ${users === 1 ? 'it' : 'them'} first`);
      data.webhooks.delete(id);
      return undefined;
    }),

    // Saved searches.
    r('GET', `${base}/saved-searches`, (ctx) => ok(paginate([...serviceData(ctx).savedSearches.values()], ctx.query, ctx.pageCap))),
    r('POST', `${base}/saved-searches`, (ctx) => {
      const data = serviceData(ctx);
      const s = savedSearchFromBody(validBody('ClickStackSavedSearchInput', ctx.body), data, ctx.now);
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
      const existing = data.savedSearches.get(id);
      if (!existing) throw notFound('Saved search not found');
      const s = savedSearchFromBody(validBody('ClickStackSavedSearchInput', ctx.body), data, ctx.now, existing);
      data.savedSearches.set(id, s);
      return ok(s);
    }),
    r('DELETE', `${base}/saved-searches/([^/]+)`, (ctx) => {
      const data = serviceData(ctx);
      const id = objectId(ctx, 2);
      if (!data.savedSearches.delete(id)) throw notFound('Saved search not found');
      for (const a of [...data.alerts.values()]) {
        if (a.savedSearchId === id) data.alerts.delete(a.id);
      }
      return undefined;
    }),
  ];
}

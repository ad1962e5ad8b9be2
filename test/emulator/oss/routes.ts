/**
 * The self-hosted flavor: the HyperDX External API v2 (`/api/v2/...`) as a layer over the Cloud flavor's store and
 * route handlers (the same objects, the same rules and side effects), with what differs on a self-hosted server:
 *
 * - auth: `Authorization: Bearer <personal API key>`; a missing or wrong key is `401` with the text body
 *   `Unauthorized` (Express `sendStatus`). Rate limit (100 requests / 60 s per key) runs before auth;
 * - bodies: `{data}` for one object or a list; `{data, meta: {total, limit, offset}}` plus `X-Total-Count` for the
 *   paged lists (alerts, webhooks, saved searches); `{}` after a delete; validate answers `{valid, errors, normalized}`;
 * - errors: `{message}` (zod paths dotted: `Body validation failed: tiles.0.name: Required`); a dashboard that does
 *   not exist is `404` text `Not Found` on GET and PUT, and its DELETE answers `200 {}`; an unserved route is
 *   Express's HTML "Cannot GET" page;
 * - no organization or service: one team per key (the first sample service's data, see seed.ts).
 *
 * Every request body is checked against the OSS spec before the shared handler runs, and every 200 body against the
 * OSS spec's response schema (see schemas.ts), both as the HyperDX version answered as extends them: by default the
 * newest (oss/newer.ts), with `hyperdxVersion: 'older'` the OSS document as it is.
 */
import { STATUS_CODES } from 'node:http';
import { ApiFailure } from '../errors';
import { OBJECT_ID_PATTERN } from '../ids';
import type { KeyRateLimiter } from '../rateLimit';
import { addFutureFields } from '../future';
import { buildRoutes, type Route } from '../routes';
import type { EmulatorState, HyperdxVersion, JsonObject, RecordedRequest } from '../types';
import { cloudView, keepNewer } from './newer';
import { chartSeries, ChartsFailure, searchRows, type SearchRequest, type SeriesRequest } from './charts';
import { checkOssRequest, checkOssResponse, dottedPath, formatOssIssue, hasOssResponseSchema } from './schemas';
import { ossData, SAMPLE_OSS_API_KEY, SAMPLE_OSS_INVITATIONS, SAMPLE_OSS_MEMBERS, SAMPLE_OSS_TEAM_NAME } from './seed';

export interface OssReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface OssRequest {
  state: EmulatorState;
  method: string;
  path: string;
  query: URLSearchParams;
  text: string;
  authorization: string | undefined;
  contentType: string | undefined;
  now: number;
  /** The emulator's frozen clock for its sample data (EmulatorOptions.now); undefined when it moves. */
  frozenNow?: number;
  pageCap?: number;
  /** Answer like a newer server (EmulatorOptions.futureFields): unknown fields at every level of what the store returns. */
  futureFields?: boolean;
  /** The HyperDX version answered as (EmulatorOptions.hyperdxVersion); default 'newest'. */
  hyperdxVersion?: HyperdxVersion;
  limiter: KeyRateLimiter | null;
  record: RecordedRequest;
  /** Called with every 200 body that does not fit the OSS spec. */
  onResponseIssues(operation: string, issues: { path: string; message: string }[]): void;
}

/** Top-level resources of the v2 router; each is mounted behind the rate limit and the key check. */
const MOUNTED = new Set([
  'alerts',
  'charts',
  'connections',
  'dashboards',
  'sources',
  'saved-searches',
  'search',
  'webhooks',
  'team',
]);

/** The Cloud flavor's handlers, reached with Cloud paths built from the OSS ones. */
const CLOUD_SEGMENT = 'observability';
const cloudRoutes: Route[] = buildRoutes(CLOUD_SEGMENT);

type Shape = 'one' | 'list' | 'paged' | 'empty' | 'validate' | 'raw';

interface OssRoute {
  method: string;
  pattern: RegExp;
  /** `METHOD /api/v2/...` as in the OSS spec. */
  operation: string;
  shape: Shape;
  /** The Cloud resource path (after `/{segment}`) to run, or a handler of the OSS layer itself. */
  cloud?: (id: string | undefined) => string;
  own?: (ctx: OwnContext) => unknown;
  /** An own handler that needs the embedded ClickHouse. */
  ownAsync?: (ctx: OwnContext) => Promise<unknown>;
  /** GET/PUT of a missing dashboard answer text `Not Found`; DELETE of one answers `{}`. */
  dashboard?: boolean;
}

interface OwnContext {
  state: EmulatorState;
  id: string | undefined;
  body: unknown;
  frozenNow: number | undefined;
}

const route = (
  method: string,
  path: string,
  shape: Shape,
  target: Pick<OssRoute, 'cloud' | 'own' | 'ownAsync' | 'dashboard'>,
): OssRoute => ({
  method,
  pattern: new RegExp(`^/api/v2${path.replace('{id}', '([^/]+)')}/?$`),
  operation: `${method} /api/v2${path}`,
  shape,
  ...target,
});

const ROUTES: OssRoute[] = [
  route('GET', '/dashboards', 'list', { cloud: () => '/dashboards' }),
  route('POST', '/dashboards/validate', 'validate', { cloud: () => '/dashboards/validate' }),
  route('POST', '/dashboards', 'one', { cloud: () => '/dashboards' }),
  route('GET', '/dashboards/{id}', 'one', { cloud: (id) => `/dashboards/${id}`, dashboard: true }),
  route('PUT', '/dashboards/{id}', 'one', { cloud: (id) => `/dashboards/${id}`, dashboard: true }),
  route('DELETE', '/dashboards/{id}', 'empty', { cloud: (id) => `/dashboards/${id}`, dashboard: true }),

  route('GET', '/alerts', 'paged', { cloud: () => '/alerts' }),
  route('POST', '/alerts', 'one', { cloud: () => '/alerts' }),
  route('GET', '/alerts/{id}', 'one', { cloud: (id) => `/alerts/${id}` }),
  route('PUT', '/alerts/{id}', 'one', { cloud: (id) => `/alerts/${id}` }),
  route('DELETE', '/alerts/{id}', 'empty', { cloud: (id) => `/alerts/${id}` }),

  route('GET', '/sources', 'list', { cloud: () => '/sources' }),
  route('POST', '/sources', 'one', { cloud: () => '/sources' }),
  // Self-hosted serves one source by ID (the Cloud API does not).
  route('GET', '/sources/{id}', 'one', {
    own: ({ state, id }) => {
      const source = ossData(state).sources.get(id ?? '');
      if (!source) throw new ApiFailure(404, 'Source not found');
      return source;
    },
  }),
  route('PUT', '/sources/{id}', 'one', { cloud: (id) => `/sources/${id}` }),
  route('DELETE', '/sources/{id}', 'empty', { cloud: (id) => `/sources/${id}` }),

  route('GET', '/webhooks', 'paged', { cloud: () => '/webhooks' }),
  route('POST', '/webhooks', 'one', { cloud: () => '/webhooks' }),
  route('PUT', '/webhooks/{id}', 'one', { cloud: (id) => `/webhooks/${id}` }),
  route('DELETE', '/webhooks/{id}', 'empty', { cloud: (id) => `/webhooks/${id}` }),

  route('GET', '/saved-searches', 'paged', { cloud: () => '/saved-searches' }),
  route('POST', '/saved-searches', 'one', { cloud: () => '/saved-searches' }),
  route('GET', '/saved-searches/{id}', 'one', { cloud: (id) => `/saved-searches/${id}` }),
  route('PUT', '/saved-searches/{id}', 'one', { cloud: (id) => `/saved-searches/${id}` }),
  route('DELETE', '/saved-searches/{id}', 'empty', { cloud: (id) => `/saved-searches/${id}` }),

  // Chart data from the embedded ClickHouse.
  route('POST', '/charts/series', 'list', {
    ownAsync: ({ state, body, frozenNow }) => chartSeries(state, body as SeriesRequest, frozenNow),
  }),
  // Rows of a log or trace source; answers `{data, rows}` itself.
  route('POST', '/search', 'raw', {
    ownAsync: ({ state, body, frozenNow }) => searchRows(state, body as SearchRequest, frozenNow),
  }),

  // The team, read-only.
  route('GET', '/team', 'one', { own: ({ state }) => ({ id: ossData(state).teamId, name: SAMPLE_OSS_TEAM_NAME }) }),
  route('GET', '/team/members', 'list', { own: () => SAMPLE_OSS_MEMBERS.map((m) => ({ ...m })) }),
  route('GET', '/team/invitations', 'list', { own: () => SAMPLE_OSS_INVITATIONS.map((i) => ({ ...i })) }),
];

/** Collections whose list is paged, with the store map that gives `meta.total`. */
const PAGED_TOTAL: Record<string, (state: EmulatorState) => number> = {
  'GET /api/v2/alerts': (s) => ossData(s).alerts.size,
  'GET /api/v2/webhooks': (s) => ossData(s).webhooks.size,
  'GET /api/v2/saved-searches': (s) => ossData(s).savedSearches.size,
};

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function json(status: number, value: unknown, extra: Record<string, string> = {}): OssReply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extra },
    body: JSON.stringify(value),
  };
}

function text(status: number, body: string): OssReply {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body };
}

/** `{message}` with the zod-style dotted path in validation messages. */
export function ossError(status: number, message: string): OssReply {
  const dotted = message.replace(
    /^((?:Body|Query|Params) validation failed: )(\/[^:]*): /,
    (_m, head: string, pointer: string) => {
      const path = dottedPath(pointer);
      return path === '' ? head : `${head}${path}: `;
    },
  );
  return json(status, { message: dotted });
}

/** What a fault with a status and no body looks like on a self-hosted server. */
export function ossFaultReply(status: number): OssReply {
  if (status === 401 || status === 403) return text(status, STATUS_CODES[status] ?? 'Error');
  return json(status, { message: STATUS_CODES[status] ?? 'Error' });
}

function bearerKey(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? (m[1] ?? null) : null;
}

/** The reply of a self-hosted HyperDX server, or null when the path is not an API v2 route (the caller's 404 page). */
export async function ossApi(req: OssRequest): Promise<OssReply | null> {
  const { method, path } = req;
  const version = req.hyperdxVersion ?? 'newest';
  const resource = /^\/api\/v2\/([^/]+)/.exec(path)?.[1];
  if (resource === undefined || !MOUNTED.has(resource)) {
    if (/^\/api\/v2\/?$/.test(path) && method === 'GET') {
      if (bearerKey(req.authorization) !== SAMPLE_OSS_API_KEY) return text(401, 'Unauthorized');
      req.record.authorized = true;
      const me = SAMPLE_OSS_MEMBERS[0] as (typeof SAMPLE_OSS_MEMBERS)[number];
      return json(200, {
        version: 'v2',
        user: { _id: me.id, email: me.email, name: me.name, team: ossData(req.state).teamId },
      });
    }
    return null;
  }

  // Rate limit first (keyed by the presented key, else by address), then the key check.
  if (req.limiter) {
    const waitMs = req.limiter.hit(`oss:${req.authorization ?? 'anonymous'}`);
    if (waitMs > 0) {
      const seconds = String(Math.max(1, Math.ceil(waitMs / 1000)));
      const reply = text(429, 'Too many requests, please try again later.');
      reply.headers['retry-after'] = seconds;
      reply.headers['ratelimit-limit'] = String(req.limiter.requests);
      reply.headers['ratelimit-remaining'] = '0';
      reply.headers['ratelimit-reset'] = seconds;
      return reply;
    }
  }
  if (bearerKey(req.authorization) !== SAMPLE_OSS_API_KEY) return text(401, 'Unauthorized');
  req.record.authorized = true;

  let matched: OssRoute | undefined;
  let id: string | undefined;
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(path);
    if (m) {
      matched = r;
      id = m[1] === undefined ? undefined : decodeSafe(m[1]);
      break;
    }
  }
  if (!matched) return null;

  let body: unknown;
  if (method === 'POST' || method === 'PUT') {
    // Express's JSON parser: a body without a JSON content type is not read and arrives as {}.
    if (req.text.trim().length === 0) body = {};
    else if (!/\bjson\b/i.test(req.contentType ?? '')) body = {};
    else {
      try {
        body = JSON.parse(req.text) as unknown;
      } catch {
        return json(400, { message: 'Invalid JSON payload' });
      }
    }
  }

  if (id !== undefined && !OBJECT_ID_PATTERN.test(id)) {
    return ossError(400, 'Params validation failed: id: Invalid ObjectId');
  }
  // Validate answers 200 with the problems; every other write is refused with 400.
  if (matched.shape !== 'validate' && body !== undefined) {
    const issue = checkOssRequest(matched.operation, body, version);
    if (issue) return ossError(400, formatOssIssue(issue));
  }

  if (matched.shape === 'validate') {
    const issue = checkOssRequest(matched.operation, body, version);
    if (issue) {
      return reply200(req, matched, {
        valid: false,
        errors: [{ path: dottedPath(issue.path), message: issue.message }],
        normalized: null,
      });
    }
  }

  let value: unknown;
  try {
    const own = { state: req.state, id, body, frozenNow: req.frozenNow };
    if (matched.ownAsync) value = await matched.ownAsync(own);
    else if (matched.own) value = matched.own(own);
    else value = runCloud(req, (matched.cloud as (id: string | undefined) => string)(id), body);
  } catch (e) {
    if (e instanceof ChartsFailure) return json(e.status, { error: e.message });
    if (!(e instanceof ApiFailure)) return json(500, { message: 'Something went wrong :(' });
    if (matched.dashboard && e.status === 404) {
      return method === 'DELETE' ? reply200(req, matched, {}) : text(404, 'Not Found');
    }
    return ossError(e.status, e.message);
  }

  switch (matched.shape) {
    case 'empty':
      return reply200(req, matched, {});
    case 'raw':
      return reply200(req, matched, value);
    case 'validate': {
      const out = (value ?? {}) as JsonObject;
      const errors = Array.isArray(out.errors) ? (out.errors as { path?: unknown; message?: unknown }[]) : [];
      return reply200(req, matched, {
        ...out,
        errors: errors.map((e) => ({ path: dottedPath(String(e.path ?? '')), message: String(e.message ?? '') })),
      });
    }
    case 'paged': {
      const total = PAGED_TOTAL[matched.operation]?.(req.state) ?? (Array.isArray(value) ? value.length : 0);
      const limit = Number(req.query.get('limit') ?? 1000);
      const offset = Number(req.query.get('offset') ?? 0);
      return reply200(
        req,
        matched,
        { data: value, meta: { total, limit, offset } },
        { 'x-total-count': String(total) },
      );
    }
    default:
      return reply200(req, matched, { data: value });
  }
}

function reply200(req: OssRequest, r: OssRoute, value: unknown, headers: Record<string, string> = {}): OssReply {
  if (hasOssResponseSchema(r.operation)) {
    const issues = checkOssResponse(r.operation, value, 5, req.hyperdxVersion ?? 'newest');
    if (issues.length > 0) req.onResponseIssues(r.operation, issues);
  }
  return json(200, value, headers);
}

/** Runs the Cloud flavor's handler for the first sample service; returns its `result`. */
function runCloud(req: OssRequest, resourcePath: string, body: unknown): unknown {
  const svc = req.state.services[0];
  if (!svc) throw new ApiFailure(500, 'No team');
  const cloudPath = `/v1/organizations/${req.state.organization.id}/services/${svc.id}/${CLOUD_SEGMENT}${resourcePath}`;
  for (const r of cloudRoutes) {
    if (r.method !== req.method) continue;
    const m = r.pattern.exec(cloudPath);
    if (!m) continue;
    const out = r.handler({
      state: req.state,
      params: m.slice(1).map((p) => decodeSafe(p)),
      query: req.query,
      body,
      now: req.now,
      ...(req.pageCap !== undefined && req.pageCap > 0 ? { pageCap: req.pageCap } : {}),
      ...((req.hyperdxVersion ?? 'newest') === 'newest' ? { newer: { cloudView, keepNewer } } : {}),
    });
    return req.futureFields && out !== undefined ? addFutureFields(r.spec, out.result) : out?.result;
  }
  throw new ApiFailure(404, 'Not Found');
}

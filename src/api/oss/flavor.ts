/**
 * The self-hosted flavor: a HyperDX (open-source ClickStack) deployment's External API v2.
 *
 * - Paths: `/api/v2/<resource>[/<id>]` under the deployment's base URL (any path prefix of the base URL, such as a
 *   reverse proxy's `/hyperdx`, is the engine's). No organization or service: the personal API key belongs to one
 *   team, which holds every resource.
 * - Auth: `Authorization: Bearer <personal API key>` (HyperDX: Team Settings → API Keys).
 * - Success: `{data: <object or list>}`; paged lists add `meta: {total, limit, offset}` (and an `X-Total-Count`
 *   header); a delete answers `{}`; dashboard validation answers `{valid, errors, normalized}` without `data`.
 * - Errors: `{message}` JSON, or the plain text of Express's `sendStatus` (`Unauthorized`, `Not Found`, `Forbidden`),
 *   or the HTML "Cannot GET /path" page of a route the server does not serve. No request ID of its own; one set by a
 *   proxy in `X-Request-Id` is kept.
 *
 * No `vscode` import. Every function here is total on server input (never throws) and linear in its input.
 */
import { parseErrorBody, type ErrorBodyShape } from '../errorBody';
import type {
  ApiCredential,
  ApiFlavor,
  ParsedError,
  ResourceKind,
  ResourceScope,
  Unwrapped,
  UnwrapExpect,
} from '../flavor';

/** The External API's root under the base URL. */
export const OSS_API_PREFIX = '/api/v2';

/** Where a self-hosted server puts the text of an error (it sends no request ID of its own). */
export const OSS_ERROR_SHAPE: ErrorBodyShape = { messageKeys: ['message', 'error'] };

/** Resource kinds a self-hosted server has no route for (Cloud RBAC roles). */
const NOT_ON_OSS: ReadonlySet<ResourceKind> = new Set(['roles']);

/** Thrown by `resourcePath` for a resource the self-hosted API does not have; names no secret. */
export class UnsupportedOnSelfHostedError extends Error {
  constructor(readonly resource: ResourceKind) {
    super(`A self-hosted HyperDX server has no "${resource}" API.`);
    this.name = 'UnsupportedOnSelfHostedError';
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A personal API key as HyperDX issues it: visible ASCII without spaces (a UUID in practice). */
export function isPlausibleApiKey(key: string): boolean {
  return /^[\x21-\x7e]{8,512}$/.test(key);
}

function totalOf(json: Record<string, unknown>): number | undefined {
  const meta = isPlainObject(json.meta) ? json.meta : undefined;
  const total = meta?.total;
  if (typeof total === 'number' && Number.isInteger(total) && total >= 0) return total;
  return undefined;
}

export const ossFlavor: ApiFlavor = {
  kind: 'oss',
  valuePath: 'data',

  authHeader(cred: ApiCredential): string {
    // A key that cannot be a header value is never sent (and never echoed: the message names no part of it).
    const key = cred.secret.trim();
    if (!isPlausibleApiKey(key)) {
      throw new Error('The personal API key is not valid: it must be printable text without spaces.');
    }
    return `Bearer ${key}`;
  },

  secretForms(cred: ApiCredential): string[] {
    const key = cred.secret.trim();
    if (key === '') return [];
    const forms = new Set([key, `Bearer ${key}`, encodeURIComponent(key)]);
    return [...forms];
  },

  resourcePath(_scope: ResourceScope, kind: ResourceKind, id?: string): string {
    if (NOT_ON_OSS.has(kind)) throw new UnsupportedOnSelfHostedError(kind);
    const base = `${OSS_API_PREFIX}/${kind}`;
    if (id === undefined || id === '') return base;
    // Sub-paths such as `members` (team), `series` (charts) or `validate` (dashboards) are single segments too.
    return `${base}/${encodeURIComponent(id)}`;
  },

  unwrap(json: unknown, expect: UnwrapExpect): Unwrapped {
    if (expect === 'none') return { ok: true, value: undefined };
    if (!isPlainObject(json)) return { ok: false, problem: 'the response is not a JSON object' };
    if (!('data' in json)) {
      // Dashboard validation is the one answer without a `data` wrapper.
      if (expect === 'one' && typeof json.valid === 'boolean' && Array.isArray(json.errors)) {
        return { ok: true, value: json };
      }
      return { ok: false, problem: 'the response has no "data"', path: 'data' };
    }
    const data = json.data;
    if (expect === 'list') {
      if (!Array.isArray(data)) return { ok: false, problem: 'the data is not a list', path: 'data' };
      const totalCount = totalOf(json);
      return { ok: true, value: data, ...(totalCount !== undefined ? { totalCount } : {}) };
    }
    // One value that is itself a list (chart series, search rows): the caller's schema decides.
    if (Array.isArray(data)) return { ok: true, value: data };
    // A server that failed to serialise an object can answer `{data: {}}` or `{data: null}` with 200.
    if (!isPlainObject(data)) return { ok: false, problem: 'the data is not an object', path: 'data' };
    if (Object.keys(data).length === 0) return { ok: false, problem: 'the data is an empty object', path: 'data' };
    return { ok: true, value: data };
  },

  parseError(
    _status: number,
    bodyText: string,
    headers: Record<string, string | string[] | undefined>,
    truncated?: boolean,
  ): ParsedError {
    // `{message}` from the v2 routers, `{error}` from the charts route and older servers; text from `sendStatus`.
    return parseErrorBody(bodyText, headers, truncated, OSS_ERROR_SHAPE);
  },

  pageQuery(limit: number, offset: number): Record<string, string | number> {
    return { limit, offset };
  },
};

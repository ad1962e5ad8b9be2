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
 * No `vscode` import. Every function here is total (never throws on server input) and linear in its input.
 */
import type { ApiCredential, ApiFlavor, ParsedError, ResourceKind, ResourceScope, Unwrapped, UnwrapExpect } from '../flavor';

/** The External API's root under the base URL. */
export const OSS_API_PREFIX = '/api/v2';

/** Characters of an error body looked at for its message. */
const ERROR_SCAN = 16 * 1024;

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

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== name) continue;
    return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

function totalOf(json: Record<string, unknown>, headers?: Record<string, string | string[] | undefined>): number | undefined {
  const meta = isPlainObject(json.meta) ? json.meta : undefined;
  const total = meta?.total;
  if (typeof total === 'number' && Number.isInteger(total) && total >= 0) return total;
  const header = headers ? headerValue(headers, 'x-total-count') : undefined;
  if (header !== undefined && /^\d{1,15}$/.test(header.trim())) return Number(header.trim());
  return undefined;
}

/** The inside of the first `<pre>`, else `<h1>`, else `<title>` (indexOf only: linear). */
function htmlText(html: string): string | undefined {
  const lower = html.toLowerCase();
  for (const tag of ['pre', 'h1', 'title']) {
    const open = lower.indexOf(`<${tag}>`);
    if (open < 0) continue;
    const start = open + tag.length + 2;
    const close = lower.indexOf(`</${tag}`, start);
    if (close < 0) continue;
    const text = html
      .slice(start, close)
      .replace(/<[^>]{0,200}>/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ')
      .trim();
    if (text) return text;
  }
  return undefined;
}

/**
 * The value of the top-level `"message"` (or `"error"`) string of a JSON object that may be cut short; the string
 * is kept as far as it goes. One bounded regular-expression pass.
 */
function leadingMessage(text: string): string | undefined {
  const m = /^\{\s*(?:"[^"\\]{0,64}"\s*:\s*(?:"(?:[^"\\]|\\.){0,2048}"|-?\d{1,20}|true|false|null)\s*,\s*){0,8}"(message|error)"\s*:\s*"((?:[^"\\]|\\.){0,4096})/.exec(text);
  if (!m) return undefined;
  const raw = m[2] ?? '';
  try {
    return JSON.parse(`"${raw.replace(/\\$/, '')}"`) as string;
  } catch {
    return raw;
  }
}

export const ossFlavor: ApiFlavor = {
  kind: 'oss',

  authHeader(cred: ApiCredential): string {
    // A key that cannot be a header value is never sent (and never echoed: the message names no part of it).
    const key = cred.secret.trim();
    if (!isPlausibleApiKey(key)) throw new Error('The personal API key is not valid: it must be printable text without spaces.');
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
      if (expect === 'one' && typeof json.valid === 'boolean' && Array.isArray(json.errors)) return { ok: true, value: json };
      return { ok: false, problem: 'the response has no "data"', path: 'data' };
    }
    const data = json.data;
    if (expect === 'list') {
      if (!Array.isArray(data)) return { ok: false, problem: 'the data is not a list', path: 'data' };
      const totalCount = totalOf(json);
      return { ok: true, value: data, ...(totalCount !== undefined ? { totalCount } : {}) };
    }
    // A server that failed to serialise an object can answer `{data: {}}` or `{data: null}` with 200.
    if (!isPlainObject(data)) return { ok: false, problem: 'the data is not an object', path: 'data' };
    if (Object.keys(data).length === 0) return { ok: false, problem: 'the data is an empty object', path: 'data' };
    return { ok: true, value: data };
  },

  parseError(_status: number, bodyText: string, headers: Record<string, string | string[] | undefined>, truncated?: boolean): ParsedError {
    const out: ParsedError = {};
    const requestId = headerValue(headers, 'x-request-id');
    if (requestId !== undefined && requestId.trim() !== '') out.requestId = requestId.trim();
    const contentType = (headerValue(headers, 'content-type') ?? '').toLowerCase();
    const raw = (bodyText.length > ERROR_SCAN ? bodyText.slice(0, ERROR_SCAN) : bodyText).trimStart();
    if (contentType.includes('text/html') || raw.startsWith('<')) {
      out.html = true;
      const text = htmlText(raw);
      if (text) out.message = text;
      return out;
    }
    if (raw.startsWith('{') || contentType.includes('json')) {
      let json: unknown;
      if (!truncated && bodyText.length <= ERROR_SCAN) {
        try {
          json = JSON.parse(raw);
        } catch {
          json = undefined;
        }
      }
      if (isPlainObject(json)) {
        out.json = true;
        const message = typeof json.message === 'string' ? json.message : typeof json.error === 'string' ? json.error : undefined;
        if (message !== undefined && message.trim() !== '') out.message = message;
        if (typeof json.code === 'string' && json.code.trim() !== '') out.code = json.code;
        if (out.requestId === undefined && typeof json.requestId === 'string' && json.requestId.trim() !== '') out.requestId = json.requestId;
        return out;
      }
      const partial = leadingMessage(raw);
      if (partial !== undefined) {
        out.json = true;
        if (partial.trim() !== '') out.message = partial;
        return out;
      }
    }
    // Express `sendStatus` and proxies: a short text body (`Unauthorized`, `Not Found`, `Too many requests, …`).
    const text = raw.replace(/\s+/g, ' ').trim();
    if (text !== '') out.message = text.length > 500 ? `${text.slice(0, 500)}…` : text;
    return out;
  },

  pageQuery(limit: number, offset: number): Record<string, string | number> {
    return { limit, offset };
  },
};

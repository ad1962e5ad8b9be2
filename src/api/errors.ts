/**
 * The one error type of the API client. Every failure — bad input, transport,
 * HTTP status, malformed response, cancellation — becomes an `ApiError` whose
 * `kind` callers switch on and whose `message` reads well on its own.
 *
 * Server text (error text, request ID, issue texts) goes through `sanitizeServerText` here, so neither the message
 * nor the fields of an ApiError carry links, control or bidi characters, line breaks or unbounded text.
 */
import { MAX_SERVER_TEXT, cleanRequestId, sanitizeServerText } from './sanitize';

export type ApiErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'routeNotServed'
  | 'conflict'
  | 'rateLimited'
  | 'invalidRequest'
  | 'serverError'
  | 'network'
  | 'timeout'
  | 'invalidResponse'
  | 'invalidInput'
  | 'cancelled';

export interface ApiErrorIssue {
  path: string;
  message: string;
}

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** Human name of the operation, e.g. "List alerts". */
  operation: string;
  method: string;
  /** Request path without query string. */
  path: string;
  status?: number;
  /** The server's own error text (`error`, or `message`, or a short text body). */
  serverMessage?: string;
  requestId?: string;
  issues?: ApiErrorIssue[];
  /** Whether trying the same operation again later may succeed. Defaults by kind. */
  retryable?: boolean;
  /** What went wrong when there is no server text (transport errors, parse errors). */
  detail?: string;
  /** Replaces the default hint for the kind. */
  hint?: string;
  /** Milliseconds the server asked to wait (429). */
  retryAfterMs?: number;
  cause?: unknown;
}

const RETRYABLE_KINDS: ReadonlySet<ApiErrorKind> = new Set(['rateLimited', 'serverError', 'network', 'timeout']);

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly serverMessage?: string;
  readonly requestId?: string;
  readonly issues?: ApiErrorIssue[];
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  /** The hint that was appended to the message, if any. */
  readonly hint?: string;
  /** What went wrong when there is no server text (transport or parse problem). */
  readonly detail?: string;

  constructor(raw: ApiErrorInit) {
    const init = sanitizeInit(raw);
    const hint = init.hint ?? defaultHint(init);
    super(formatMessage(init, hint), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.operation = init.operation;
    this.method = init.method;
    this.path = init.path;
    if (init.status !== undefined) this.status = init.status;
    if (init.serverMessage !== undefined) this.serverMessage = init.serverMessage;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    if (init.issues !== undefined) this.issues = init.issues;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (hint !== undefined) this.hint = hint;
    if (init.detail !== undefined) this.detail = init.detail;
    this.retryable = init.retryable ?? RETRYABLE_KINDS.has(init.kind);
  }

  static is(value: unknown, kind?: ApiErrorKind): value is ApiError {
    return value instanceof ApiError && (kind === undefined || value.kind === kind);
  }
}

/** The init with every piece of text that can come from the server made plain and bounded. */
function sanitizeInit(raw: ApiErrorInit): ApiErrorInit {
  const init: ApiErrorInit = { ...raw };
  if (raw.serverMessage !== undefined) {
    const text = sanitizeServerText(raw.serverMessage, 500);
    if (text) init.serverMessage = text;
    else delete init.serverMessage;
  }
  if (raw.detail !== undefined) init.detail = sanitizeServerText(raw.detail, 500);
  if (raw.requestId !== undefined) {
    const id = cleanRequestId(raw.requestId);
    if (id) init.requestId = id;
    else delete init.requestId;
  }
  if (raw.hint !== undefined) init.hint = sanitizeServerText(raw.hint, 500);
  if (raw.issues !== undefined) {
    init.issues = raw.issues.map((i) => ({
      path: sanitizeServerText(i.path, 200),
      message: sanitizeServerText(i.message, MAX_SERVER_TEXT),
    }));
  }
  return init;
}

/** The error kind for an HTTP status that is not a success. */
export function kindForStatus(status: number, htmlBody: boolean): ApiErrorKind {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return htmlBody ? 'routeNotServed' : 'notFound';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rateLimited';
  if (status >= 500) return 'serverError';
  if (status >= 300 && status < 400) return 'invalidResponse';
  return 'invalidRequest';
}

const KIND_SUMMARY: Record<ApiErrorKind, string> = {
  unauthorized: 'not authorized',
  forbidden: 'permission denied',
  notFound: 'not found',
  routeNotServed: 'endpoint not served',
  conflict: 'conflict',
  rateLimited: 'rate limited',
  invalidRequest: 'request rejected',
  serverError: 'server error',
  network: 'network error',
  timeout: 'timed out',
  invalidResponse: 'unexpected response',
  invalidInput: 'invalid input',
  cancelled: 'cancelled',
};

function defaultHint(init: ApiErrorInit): string | undefined {
  switch (init.kind) {
    case 'unauthorized':
      return 'Check the API key ID and secret (the key may be disabled, expired or deleted).';
    case 'forbidden':
      return "The API key's role lacks access: the key needs the 'manage ClickStack API' permission (View and manage ClickStack API) for this service.";
    case 'notFound':
      return 'It may have been deleted, or the organization or service ID is wrong.';
    case 'routeNotServed':
      return `The server does not serve ${init.method} ${init.path}: the product path segment is probably wrong (the live service uses 'clickstack'), or this endpoint is not available on this service yet.`;
    case 'conflict':
      return 'The resource is in use or was changed by someone else; refresh and try again.';
    case 'rateLimited': {
      const wait =
        init.retryAfterMs !== undefined
          ? ` Try again in ${Math.max(1, Math.ceil(init.retryAfterMs / 1000))} s.`
          : ' Wait a few seconds and try again.';
      return `The API key is rate limited (the service allows 10 requests per 10 seconds per key).${wait}`;
    }
    case 'invalidRequest':
      return undefined;
    case 'serverError':
      return 'The service had a problem; try again later.';
    case 'network':
      return 'Check the base URL, the network connection and the proxy settings (http.proxy, HTTPS_PROXY, NO_PROXY).';
    case 'timeout':
      return 'The service did not answer in time; try again, or raise the request timeout setting.';
    case 'invalidResponse':
      return init.status !== undefined && init.status >= 300 && init.status < 400
        ? 'Redirects are not followed, so credentials never go to another address; check the base URL.'
        : 'The response did not have the expected shape; the service may be a different version than expected.';
    case 'invalidInput':
    case 'cancelled':
      return undefined;
  }
}

function formatMessage(init: ApiErrorInit, hint: string | undefined): string {
  const parts: string[] = [];
  let head = `${init.operation} failed: `;
  if (init.status !== undefined) {
    head += `HTTP ${init.status}`;
    const text = init.serverMessage ?? init.detail;
    head += text ? ` — ${text}` : ` (${KIND_SUMMARY[init.kind]})`;
    if (init.serverMessage && init.detail) head += ` (${init.detail})`;
  } else {
    head += init.detail ?? init.serverMessage ?? KIND_SUMMARY[init.kind];
  }
  if (init.requestId) head += ` (requestId ${init.requestId})`;
  parts.push(endSentence(head));
  if (init.issues && init.issues.length > 0) {
    const shown = init.issues.slice(0, 5).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
    const more = init.issues.length > 5 ? `; and ${init.issues.length - 5} more` : '';
    parts.push(endSentence(shown.join('; ') + more));
  }
  if (hint) parts.push(hint);
  return parts.join(' ');
}

function endSentence(s: string): string {
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

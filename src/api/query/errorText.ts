/**
 * The query client's error reader: ClickHouse's error text and the query host's error answers, out of server text.
 *
 * Every parse of server text here is bounded before it runs: a text is cut to `MAX_ERROR_BODY` first, and only a
 * JSON object whose objects and arrays have been counted (at most `MAX_ERROR_CONTAINERS`) is given to `JSON.parse`.
 * Anything else is read as plain text, from a prefix of `ERROR_SCAN` characters, with linear scans only.
 */
import { kindForStatus } from '../errors';
import { countJsonContainers } from '../jsonBounds';
import { sanitizeServerText } from '../sanitize';
import type { ClickHouseErrorInfo, Fail, QueryError, RequestBase } from './queryError';

/** Longest ClickHouse error text kept (characters), after it is made plain. */
export const MAX_CLICKHOUSE_TEXT = 1000;
/** Characters of an error text looked at for ClickHouse's error text. */
export const ERROR_SCAN = 16 * 1024;
/** Bytes of an error response read (the rest is not waited for). */
export const MAX_ERROR_BODY = 1024 * 1024;
/** Objects and arrays an error body may hold to be parsed as JSON (the query host's holds two). */
const MAX_ERROR_CONTAINERS = 1000;
/** The live query host's answer for a stopped service (HTTP 404). */
const STOPPED_SERVICE_MESSAGE = 'ClickHouse service is currently unavailable. Please try again later.';

/**
 * A small JSON object out of server text: parsed only when the text is at most `MAX_ERROR_BODY` characters, starts
 * with `{` and holds at most `MAX_ERROR_CONTAINERS` objects and arrays; otherwise (or when it is not JSON) undefined.
 */
export function parseSmallObject(text: string): Record<string, unknown> | undefined {
  if (text.length > MAX_ERROR_BODY) return undefined;
  const t = text.trim();
  if (!t.startsWith('{') || countJsonContainers(t, MAX_ERROR_CONTAINERS) > MAX_ERROR_CONTAINERS) return undefined;
  try {
    const value: unknown = JSON.parse(t);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The code and details of a query host error object (`{"error":{"code","details"}}`), if it is one. */
function jsonClickHouseError(parsed: Record<string, unknown>): { code: number; details: string } | undefined {
  const e = parsed.error;
  if (!e || typeof e !== 'object') return undefined;
  // The query host sends the code as a string ("62") or a number (241).
  const raw = (e as { code?: unknown }).code;
  const c = typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw)) ? Number(raw) : NaN;
  const d = (e as { details?: unknown; message?: unknown }).details ?? (e as { message?: unknown }).message;
  return Number.isInteger(c) && typeof d === 'string' && d ? { code: c, details: d } : undefined;
}

/** The code and details of a `Code: N. …` text, looked for in its first `ERROR_SCAN` characters. */
function textClickHouseError(body: string): { code: number; details: string } | undefined {
  const head = body.slice(0, ERROR_SCAN);
  const at = head.indexOf('Code: ');
  const m = at < 0 ? null : /^Code: (\d{1,9})\./.exec(head.slice(at, at + 20));
  return m ? { code: Number(m[1]), details: head.slice(at + m[0].length).trim() } : undefined;
}

/** ClickHouse's error text out of a query host error body (`{"error":{"code","details"}}`, or plain text). */
export function parseClickHouseError(body: string): ClickHouseErrorInfo | undefined {
  const cut = body.length > MAX_ERROR_BODY ? body.slice(0, MAX_ERROR_BODY) : body;
  const parsed = parseSmallObject(cut);
  const found = parsed ? jsonClickHouseError(parsed) : textClickHouseError(cut);
  if (!found) return undefined;
  const details = found.details.slice(0, ERROR_SCAN);
  const prefixed = /^Code: \d+\./.test(details)
    ? details
    : `Code: ${found.code}. ${details.startsWith('DB::Exception') ? details : `DB::Exception: ${details}`}`;
  const stripped = withoutVersion(prefixed);
  const name = /\(([A-Z][A-Z0-9_]{1,100})\)$/.exec(stripped.slice(-110))?.[1];
  const text = sanitizeServerText(stripped, MAX_CLICKHOUSE_TEXT);
  if (!text) return undefined;
  return { code: found.code, ...(name ? { name } : {}), text };
}

/** The text without the closing `<size> <tag>__exception__` line of a tagged error, if it ends with one (linear). */
export function withoutExceptionTrailer(text: string): string {
  const t = text.trimEnd();
  if (!t.endsWith('__exception__')) return t.trim();
  const lineStart = t.lastIndexOf('\n') + 1;
  return /^\d+ \S+__exception__$/.test(t.slice(lineStart)) ? t.slice(0, lineStart).trim() : t.trim();
}

/** The text without ClickHouse's trailing `(version …)` (found with indexOf: linear in any input). */
function withoutVersion(text: string): string {
  const t = text.trimEnd();
  const at = t.lastIndexOf('(version ');
  // `(version 24.8.4.13)`, or as ClickHouse's HTTP interface writes it, `(version 24.8.4.13 (official build))`.
  if (at >= 0 && /^\(version [^()]{0,100}(?:\([^()]{0,100}\))?\)$/.test(t.slice(at))) return t.slice(0, at).trimEnd();
  return t;
}

/** The `error` (or `message`) string of a small JSON error object. */
export function jsonError(body: string): string | undefined {
  const parsed = parseSmallObject(body);
  const e = parsed?.error ?? parsed?.message;
  return typeof e === 'string' ? e : undefined;
}

/** The first `MAX_ERROR_BODY` bytes of an error response's body as text ('' when it cannot be read). */
export async function readErrorBody(body: AsyncIterable<Buffer>, cancel: () => void): Promise<string> {
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of body) {
      size += c.length;
      if (size > MAX_ERROR_BODY) break;
      chunks.push(c);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch {
    return ''; // The status says enough.
  } finally {
    cancel();
  }
}

/** What an error answer is read with: the request, the transport, and the headers that matter. */
export interface ErrorAnswer {
  status: number;
  text: string;
  base: RequestBase & { requestId?: string };
  fail: Fail;
  /** The ClickHouse HTTP interface (not the query endpoint). */
  clickHouseHttp: boolean;
  contentType: string;
  /** `X-ClickHouse-Exception-Code`. */
  exceptionCode?: string | undefined;
}

/** ClickHouse's error of an answer: from its body, or its plain text with the code the header names. */
function clickHouseErrorOf(a: ErrorAnswer): ClickHouseErrorInfo | undefined {
  return (
    parseClickHouseError(a.text) ??
    (a.exceptionCode && /^\d+$/.test(a.exceptionCode) && a.text.trim()
      ? parseClickHouseError(`Code: ${a.exceptionCode}. ${a.text.trim()}`)
      : undefined)
  );
}

/** The failure of a 206 (the query host's answer for an idle or stopped service). */
function serviceStateFailure({ status, text, base, fail }: ErrorAnswer): QueryError {
  const data = parseSmallObject(text)?.data;
  if (data === 'Confirm wake service') {
    return fail({
      ...base,
      kind: 'invalidRequest',
      reason: 'serviceIdle',
      status,
      serverMessage: 'Confirm wake service',
      hint: 'The service is idle; running the query wakes it, which can take a minute and starts billing.',
      retryable: false,
    });
  }
  if (data === 'Service is stopped') {
    return fail({
      ...base,
      kind: 'invalidRequest',
      reason: 'serviceStopped',
      status,
      serverMessage: 'Service is stopped',
      hint: 'Start the service in the ClickHouse Cloud console, then run the query again.',
      retryable: false,
    });
  }
  return fail({
    ...base,
    kind: 'invalidResponse',
    reason: 'other',
    status,
    serverMessage: text.slice(0, 300) || undefined,
    detail: 'the query host answered 206 without a known service state',
  });
}

/** The failure of a 401 or 403. */
function accessFailure(a: ErrorAnswer): QueryError {
  const { status, text, base, fail } = a;
  const kind = status === 401 ? 'unauthorized' : 'forbidden';
  if (a.clickHouseHttp) {
    const ch = clickHouseErrorOf(a);
    return fail({
      ...base,
      kind,
      reason: 'accessDenied',
      status,
      serverMessage: ch?.text ?? (text.trim().slice(0, 300) || undefined),
      ...(ch ? { clickHouse: ch } : {}),
      hint: 'ClickHouse refused the user or password (or this user may not run the statement). Set the ClickHouse access again, then retry.',
    });
  }
  return fail({
    ...base,
    kind,
    reason: 'keyNotEnabled',
    status,
    serverMessage: jsonError(text) ?? (text.trim().slice(0, 300) || undefined),
    hint: "This API key is not enabled on the service's query endpoint (or its ID or secret is wrong). Enable the key on the query endpoint, then run the query again.",
  });
}

/** The failure of an answer that is not a success (429 aside: the client handles it with the rate budget). */
export function statusFailure(a: ErrorAnswer): QueryError {
  const { status, text, base, fail } = a;
  if (status === 206) return serviceStateFailure(a);
  if (status === 401 || status === 403) return accessFailure(a);
  // A stopped service, as the live query host answers it (a 404 with this message).
  if (status === 404 && jsonError(text) === STOPPED_SERVICE_MESSAGE) {
    return fail({
      ...base,
      kind: 'invalidRequest',
      reason: 'serviceStopped',
      status,
      serverMessage: STOPPED_SERVICE_MESSAGE,
      hint: 'The service is stopped (or not reachable). Start it in the ClickHouse Cloud console, then run the query again.',
      retryable: false,
    });
  }
  // ClickHouse's own HTTP interface names the code in a header and sends the message as plain text.
  const ch = clickHouseErrorOf(a);
  if (ch) {
    return fail({
      ...base,
      kind: status >= 500 ? 'serverError' : 'invalidRequest',
      reason: 'sql',
      status,
      serverMessage: ch.text,
      clickHouse: ch,
      retryable: false,
    });
  }
  const message = jsonError(text);
  if (status === 500 && message === 'Timeout error.') {
    return fail({
      ...base,
      kind: 'timeout',
      reason: 'gatewayTimeout',
      status,
      serverMessage: message,
      hint: 'The query host stopped waiting; the statement may still be running on the service.',
      retryable: false,
    });
  }
  const html = /text\/html/i.test(a.contentType) || /^\s*</.test(text);
  return fail({
    ...base,
    kind: kindForStatus(status, html),
    reason: 'other',
    status,
    serverMessage: message ?? (html ? undefined : text.trim().slice(0, 300) || undefined),
    retryable: false,
  });
}

/**
 * Reading an error response of any API flavor: a JSON body (whole, or cut short by the transport's error-body limit),
 * an HTML page (proxy, gateway, login page) or plain text. Linear and bounded: only a prefix of the body is looked
 * at. Raw text only: callers sanitise and redact it.
 */
import type { ParsedError } from './flavor';
import { headerValue } from './http';

export interface ErrorBodyShape {
  /** Top-level string members holding the message, first found wins (`error`, `message`). */
  messageKeys: readonly string[];
  /** Top-level member holding the request ID, when the API puts one in the body. */
  requestIdKey?: string;
  /** Top-level member holding a machine-readable code. */
  codeKey?: string;
  /** Response header holding the request ID (default `x-request-id`). */
  requestIdHeader?: string;
}

/**
 * Message, code and request ID of an error response. JSON messages are cut at 500 characters, HTML and text ones at
 * 200. A JSON body cut short still yields its leading message and request ID.
 */
export function parseErrorBody(
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
  truncated: boolean | undefined,
  shape: ErrorBodyShape,
): ParsedError {
  const contentType = (headerValue(headers, 'content-type') ?? '').toLowerCase();
  const raw = bodyText.trimStart();
  const out: ParsedError = { json: false, html: contentType.includes('text/html') || raw.startsWith('<') };
  const headerRequestId = headerValue(headers, shape.requestIdHeader ?? 'x-request-id');
  if (headerRequestId) out.requestId = headerRequestId;
  if (!out.html && (raw.startsWith('{') || contentType.includes('json'))) {
    let json: unknown;
    const keys = [
      ...shape.messageKeys,
      ...(shape.requestIdKey ? [shape.requestIdKey] : []),
      ...(shape.codeKey ? [shape.codeKey] : []),
    ];
    if (!truncated) {
      try {
        json = JSON.parse(raw);
      } catch {
        // Not JSON after all: fall through to text.
      }
    } else if (raw.startsWith('{')) {
      json = leadingJsonStrings(raw, keys);
    }
    if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
      const obj = json as Record<string, unknown>;
      out.json = true;
      for (const key of shape.messageKeys) {
        const value = obj[key];
        if (typeof value === 'string' && value) {
          out.message = shorten(value, 500);
          break;
        }
      }
      if (shape.requestIdKey) {
        const rid = obj[shape.requestIdKey];
        if (typeof rid === 'string' && rid) out.requestId = rid;
      }
      if (shape.codeKey) {
        const code = obj[shape.codeKey];
        if (typeof code === 'string' && code) out.code = shorten(code, 100);
        else if (typeof code === 'number' && Number.isFinite(code)) out.code = String(code);
      }
      return out;
    }
  }
  const head = raw.slice(0, ERROR_TEXT_SCAN);
  if (out.html) {
    const text = collapse(decodeEntities(stripTags(htmlMessage(head))));
    if (text) out.message = shorten(text, 200);
  } else if (head) {
    out.message = shorten(collapse(head), 200);
  }
  return out;
}

export function shorten(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Characters of an error body looked at for its message. */
const ERROR_TEXT_SCAN = 16 * 1024;

/** The inside of the first `<pre>`, else `<h1>`, else `<title>`, else the whole text (found with indexOf: linear). */
function htmlMessage(html: string): string {
  const lower = html.toLowerCase();
  for (const tag of ['pre', 'h1', 'title']) {
    let from = 0;
    for (;;) {
      const open = lower.indexOf(`<${tag}`, from);
      if (open < 0) break;
      const after = lower.charAt(open + tag.length + 1);
      if (after === '>' || after === ' ' || after === '\t' || after === '\n' || after === '\r' || after === '/') {
        const gt = lower.indexOf('>', open);
        if (gt < 0) break;
        const close = lower.indexOf(`</${tag}`, gt);
        if (close < 0) break;
        return html.slice(gt + 1, close);
      }
      from = open + 1;
    }
  }
  return html;
}

/** Replaces every `<…>` with a space; an unclosed `<` ends the text. One pass. */
function stripTags(html: string): string {
  let out = '';
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out += html.slice(i);
      break;
    }
    out += html.slice(i, lt) + ' ';
    const gt = html.indexOf('>', lt);
    if (gt < 0) break;
    i = gt + 1;
  }
  return out;
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * The top-level string members named in `keys` of a JSON object that may be cut short. Scans once; a string cut off
 * by the end of the text is kept as far as it goes. Returns undefined when the text does not start like an object.
 */
function leadingJsonStrings(text: string, keys: readonly string[]): Record<string, string> | undefined {
  if (!text.startsWith('{')) return undefined;
  const found: Record<string, string> = {};
  let depth = 0;
  let i = 0;
  let lastKey: string | undefined;
  let expectValue = false;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const { value, end } = readJsonString(text, i);
      if (depth === 1 && !expectValue) {
        lastKey = value;
      } else if (depth === 1 && expectValue && lastKey !== undefined && keys.includes(lastKey) && !(lastKey in found)) {
        found[lastKey] = value;
      }
      if (depth === 1) expectValue = false;
      i = end;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ':' && depth === 1) expectValue = true;
    else if (c === ',' && depth === 1) {
      expectValue = false;
      lastKey = undefined;
    }
    if (depth === 1 && (c === '{' || c === '[') && expectValue) expectValue = false;
    i++;
  }
  return found;
}

/** A JSON string starting at `start` (a quote): its value and the index after it (or the end of the text). */
function readJsonString(text: string, start: number): { value: string; end: number } {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '"') break;
    else i++;
  }
  const closed = i < text.length;
  const literal = text.slice(start, closed ? i + 1 : Math.min(i, text.length));
  let body = literal;
  if (!closed) {
    // Drop an escape sequence cut in half by the end of the text.
    const backslash = body.lastIndexOf('\\');
    if (backslash > 0 && body.length - backslash <= 6) body = body.slice(0, backslash);
    body += '"';
  }
  let value: string;
  try {
    value = JSON.parse(body) as string;
  } catch {
    value = literal.slice(1).replace(/"$/, '');
  }
  return { value, end: closed ? i + 1 : text.length };
}

function decodeEntities(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

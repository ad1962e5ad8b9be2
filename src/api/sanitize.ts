/**
 * The one place server text is made safe to show. Everything the service (or anything pretending to be it) sends
 * that ends up in front of the user — error text, request IDs, resource names in messages — goes through
 * `sanitizeServerText`: VS Code renders `[text](target)` in notifications as a clickable link (including `command:`
 * links), and a terminal escape, a bidi override or a line break can make a message say something it does not.
 *
 * All functions here are linear in their input and look at a bounded prefix of it.
 */

/** Longest text kept by default (characters). */
export const MAX_SERVER_TEXT = 300;
/** Longest request ID accepted. */
export const MAX_REQUEST_ID = 128;

/** Characters looked at, at most: the input is cut before any other work. */
const SCAN_LIMIT = 16 * 1024;

/** ANSI / VT escape sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), and two-character escapes. */
const ANSI =
  // eslint-disable-next-line no-control-regex
  /\x1b\[[0-?]{0,32}[ -/]{0,8}[@-~]|\x9b[0-?]{0,32}[ -/]{0,8}[@-~]|\x1b\][^\x07\x1b]{0,512}(?:\x07|\x1b\\)?|\x1b[@-_]/g;
/** C0 and C1 controls (tab, CR and LF included: they become spaces), DEL. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/** Bidi embeddings, overrides, isolates and marks; zero-width characters. (Line separators are whitespace.) */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * Makes server text plain: removes escape sequences, control, bidi and zero-width characters, collapses whitespace,
 * neutralises link syntax (`[a](b)`, `command:`/`javascript:` targets, `<http://…>` autolinks, `$(icon)` codicons) and
 * caps the length (with "…"). Returns '' for anything that is not a string.
 */
export function sanitizeServerText(text: unknown, max = MAX_SERVER_TEXT): string {
  if (typeof text !== 'string' || text === '') return '';
  let s = text.length > SCAN_LIMIT ? text.slice(0, SCAN_LIMIT) : text;
  s = s.replace(ANSI, '').replace(CONTROLS, ' ').replace(INVISIBLE, '');
  s = s.replace(/\s+/g, ' ').trim();
  // `[label](target)` is a link in notifications and hovers: break the `](` pair.
  s = s.replace(/\]\s*\(/g, '] (');
  // Autolinks `<https://…>` and link-like schemes that run code.
  s = s.replace(/<(?=[a-z][a-z0-9+.-]{0,30}:)/gi, '‹').replace(/\b(command|javascript|vbscript)\s*:/gi, '$1 :');
  // `$(name)` renders as a codicon in some places.
  s = s.replace(/\$\(/g, '$ (');
  if (s.length > max) s = `${s.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
  return s;
}

/** Request IDs as the service makes them: letters, digits and `._:-`, 1–128 characters (a UUID in practice). */
const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * A request ID from a response, or undefined when it is not in a sane shape or carries any of `secrets` (a server
 * that echoes the Authorization header back must not get the key shown or logged).
 */
export function cleanRequestId(value: unknown, secrets: readonly string[] = []): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_REQUEST_ID || !REQUEST_ID.test(value)) return undefined;
  const lower = value.toLowerCase();
  // A short secret (a ClickHouse password of 1–3 characters) hides the ID when it is the ID or one of its parts
  // between `._:-` (in any case): never a part of a UUID, whose shortest part has 4 characters.
  const parts = new Set(lower.split(/[._:-]/));
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret === '') continue;
    if (secret.length < 4) {
      if (parts.has(secret.toLowerCase())) return undefined;
      continue;
    }
    if (lower.includes(secret.toLowerCase()) || (value.length >= 8 && secret.includes(value))) return undefined;
  }
  return value;
}

/**
 * The punctuation that can start Markdown syntax (emphasis, links, images, code, HTML, entities, headings, lists,
 * tables, strikethrough, `$(icon)`), `.` and `@` (so `www.…` and `a@b.c` are no autolinks), and the `:` of `://`
 * (so `https://…` is none). `/`, `:` elsewhere and `,;?'"=%^` stay as they are: the source stays readable.
 */
const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#+\-.!|<>~&@$]|:(?=\/\/)/g;

/**
 * Escapes text for insertion into Markdown (hovers, tooltips, Markdown documents) with backslashes (CommonMark), so no
 * emphasis, link, image, HTML, entity, heading, list, `$(icon)` or autolink (`https://…`, `www.…`, `a@b.c`) can form
 * from it. Apply to text that is already plain (see `markdownText`).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(MARKDOWN_SPECIAL, '\\$&');
}

/** Server text for a Markdown string: sanitised (see `sanitizeServerText`), then escaped. */
export function markdownText(text: unknown, max = MAX_SERVER_TEXT): string {
  return escapeMarkdown(sanitizeServerText(text, max));
}

/** Server text as a Markdown code span (IDs, types): sanitised, backticks replaced, never empty. */
export function markdownCode(text: unknown, max = MAX_SERVER_TEXT): string {
  const plain = sanitizeServerText(text, max).replace(/`/g, "'");
  return plain ? `\`${plain}\`` : '`?`';
}

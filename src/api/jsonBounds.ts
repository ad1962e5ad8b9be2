/**
 * Bounds on what `JSON.parse` can build from a response. The bytes of a response are bounded by the transport, but a
 * few bytes can stand for much more heap: `{},` is three bytes and an object of ~50 bytes, so a 20 MB list page of
 * them builds ~450 MiB and stalls the extension host for seconds. The objects and arrays of a JSON text are counted
 * first, in one linear pass that stops at the bound, and a text over it is refused with an error that names the
 * bound instead of being parsed. (Numbers and strings cost about what their text costs; the byte caps bound them.)
 *
 * Counted: each `{` and `[` outside strings. Strings are skipped with `indexOf`, so the pass costs a fraction of the
 * parse it guards.
 */

/** Objects and arrays one response of the management or self-hosted API may hold (a 500,000-point series holds 1 M). */
export const MAX_RESPONSE_CONTAINERS = 2_000_000;
/** Objects and arrays the pages of one list may hold together. */
export const MAX_LIST_CONTAINERS = 10_000_000;
/** Objects and arrays one row of a SQL result may hold. */
export const MAX_ROW_CONTAINERS = 1_000_000;
/** Objects and arrays the rows of one SQL result may hold together. */
export const MAX_RESULT_CONTAINERS = 4_000_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const NEWLINE = 0x0a;

/** The index of the quote that closes the string opened at `open`, or -1 when it does not close before `end`. */
function closingQuote(text: string, open: number, end: number): number {
  let from = open + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0 || q >= end) return -1;
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return q;
    from = q + 1;
  }
}

/**
 * The objects and arrays of a JSON text, counted up to `limit`: returns a number above `limit` as soon as the count
 * passes it (the rest of the text is not looked at).
 */
export function countJsonContainers(text: string, limit = Number.POSITIVE_INFINITY): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const q = closingQuote(text, i, text.length);
      if (q < 0) return count;
      i = q;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++count > limit) return count;
    }
  }
  return count;
}

/** What `scanLines` found in a text of lines (JSONCompactEachRow: one JSON value per line). */
export interface LineScan {
  /** Lines in the text (newlines + 1). */
  lines: number;
  /** Objects and arrays counted over every line. */
  containers: number;
  /** The first line (0-based) that holds more than the bound per line, if one does. */
  overLine?: number;
}

/**
 * Counts the objects and arrays of each line of `text` as `countJsonContainers` does, in one pass. Stops at the first
 * line over `perLine`, or when the whole text passes `total` (then `containers` is above `total`).
 */
export function scanLines(text: string, perLine: number, total: number): LineScan {
  let lines = 1;
  let containers = 0;
  let inLine = 0;
  let lineEnd = text.indexOf('\n');
  if (lineEnd < 0) lineEnd = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE) {
      lines++;
      inLine = 0;
      lineEnd = text.indexOf('\n', i + 1);
      if (lineEnd < 0) lineEnd = text.length;
    } else if (c === QUOTE) {
      // A newline never occurs inside a JSON string: a string left open ends with its line.
      const q = closingQuote(text, i, lineEnd);
      i = q < 0 ? lineEnd - 1 : q;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      containers++;
      if (++inLine > perLine) return { lines, containers, overLine: lines - 1 };
      if (containers > total) return { lines, containers };
    }
  }
  return { lines, containers };
}

/** `4000000` as `4,000,000`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * The objects and arrays of one line that arrives in pieces (UTF-8 bytes, no newline among them), counted as
 * `scanLines` counts them: the quote, backslash and brackets are single bytes that never occur inside a multi-byte
 * character, so the bytes are scanned as they come, with the string state carried from one piece to the next.
 */
export class PartialLineScan {
  /** Objects and arrays counted so far. */
  containers = 0;
  private inString = false;
  private escaped = false;

  /** Counts `bytes` (stops counting once the count passes `limit`); returns the count so far. */
  add(bytes: Uint8Array, limit = Number.POSITIVE_INFINITY): number {
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
      } else if (c === QUOTE) this.inString = true;
      else if ((c === OPEN_OBJECT || c === OPEN_ARRAY) && ++this.containers > limit) break;
    }
    return this.containers;
  }

  /** A new line starts. */
  reset(): void {
    this.containers = 0;
    this.inString = false;
    this.escaped = false;
  }
}

/**
 * Bounds on what `JSON.parse` can build from a response. The bytes of a response are bounded by the transport, but a
 * few bytes can stand for much more heap: `{},` is three bytes and an object, so a 20 MB list page of them builds
 * ~450 MiB and stalls the extension host for seconds. The values of a JSON text are counted first, in one linear pass
 * that stops at the bound, and a text over it is refused with an error that names the bound instead of being parsed.
 *
 * Counted: every object and array, and every member or item after the first in one (each `{`, `[` and `,` outside
 * strings). That is at least the number of objects and arrays built and at most one more than the number of values.
 */

/** Values one response of the management or self-hosted API may hold (a 500,000-point chart series fits). */
export const MAX_RESPONSE_VALUES = 4_000_000;
/** Values the pages of one list may hold together. */
export const MAX_LIST_VALUES = 10_000_000;
/** Values one row of a SQL result may hold. */
export const MAX_ROW_VALUES = 1_000_000;
/** Values the rows of one SQL result may hold together. */
export const MAX_RESULT_VALUES = 4_000_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const COMMA = 0x2c;
const NEWLINE = 0x0a;

/**
 * The values of a JSON text, counted up to `limit`: returns a number above `limit` as soon as the count passes it
 * (the rest of the text is not looked at).
 */
export function countJsonValues(text: string, limit = Number.POSITIVE_INFINITY): number {
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY || c === COMMA) {
      if (++count > limit) return count;
    }
  }
  return count;
}

/** What `scanLines` found in a text of lines (JSONCompactEachRow: one JSON value per line). */
export interface LineScan {
  /** Lines in the text (newlines + 1). */
  lines: number;
  /** Values counted over every line. */
  values: number;
  /** The first line (0-based) that holds more than the bound per line, if one does. */
  overLine?: number;
}

/**
 * Counts the values of each line of `text` as `countJsonValues` does, in one pass. Stops at the first line over
 * `perLine`, or when the whole text passes `total` (then `values` is above `total`).
 */
export function scanLines(text: string, perLine: number, total: number): LineScan {
  let lines = 1;
  let values = 0;
  let inLine = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE) {
      // A newline never occurs inside a JSON string: a line is a value of its own.
      lines++;
      inLine = 0;
      inString = false;
      continue;
    }
    if (inString) {
      if (c === BACKSLASH && text.charCodeAt(i + 1) !== NEWLINE) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY || c === COMMA) {
      values++;
      if (++inLine > perLine) return { lines, values, overLine: lines - 1 };
      if (values > total) return { lines, values };
    }
  }
  return { lines, values };
}

/** `4000000` as `4,000,000`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

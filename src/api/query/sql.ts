/**
 * SQL text helpers for the query endpoint: splitting a document into statements (`;` outside strings, quoted
 * identifiers and comments) and telling read statements from the rest.
 */

export interface Statement {
  /** The statement text without the trailing `;` and surrounding blank space. */
  text: string;
  /** Offsets in the source of the first and after the last character of `text`. */
  start: number;
  end: number;
}

/** Statements of `source`, in order; empty ones (only comments or blanks) are left out. */
export function splitStatements(source: string): Statement[] {
  const out: Statement[] = [];
  let begin = 0;
  const push = (endExclusive: number): void => {
    const slice = source.slice(begin, endExclusive);
    const lead = slice.length - slice.trimStart().length;
    const text = slice.trim();
    if (text && stripComments(text).trim()) out.push({ text, start: begin + lead, end: begin + lead + text.length });
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '-' && next === '-') {
      const nl = source.indexOf('\n', i);
      i = nl < 0 ? source.length : nl + 1;
    } else if (c === '/' && next === '*') {
      const close = source.indexOf('*/', i + 2);
      i = close < 0 ? source.length : close + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      i = skipQuoted(source, i, c);
    } else if (c === ';') {
      push(i);
      begin = i + 1;
      i++;
    } else i++;
  }
  push(source.length);
  return out;
}

function skipQuoted(s: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < s.length) {
    if (s[i] === '\\') i += 2;
    else if (s[i] === quote) {
      if (s[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return s.length;
}

/** The text with comments replaced by spaces (strings kept). */
export function stripComments(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const nl = sql.indexOf('\n', i);
      const end = nl < 0 ? sql.length : nl;
      out += ' '.repeat(end - i);
      i = end;
    } else if (c === '/' && next === '*') {
      const close = sql.indexOf('*/', i + 2);
      const end = close < 0 ? sql.length : close + 2;
      out += ' '.repeat(end - i);
      i = end;
    } else if (c === "'" || c === '"' || c === '`') {
      const end = skipQuoted(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const READ_KEYWORDS = new Set(['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN']);

/** The first keyword of a statement, upper case ('' when there is none). */
export function leadingKeyword(sql: string): string {
  const m = /^[\s(]*([A-Za-z]+)/.exec(stripComments(sql));
  return m ? (m[1] as string).toUpperCase() : '';
}

/** True for statements that only read: SELECT, WITH, SHOW, DESCRIBE, EXPLAIN. */
export function isReadOnlyStatement(sql: string): boolean {
  return READ_KEYWORDS.has(leadingKeyword(sql));
}

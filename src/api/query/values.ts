/**
 * Cell values of a query result: ClickHouse's 64-bit (and wider) integers, which JSON formats quote by default and a
 * JavaScript number holds exactly only up to 2^53, and the statistics header of a result.
 */
import type { QueryStats } from './client';
import { parseSmallObject } from './errorText';

/** (U)Int64/128/256, also inside Nullable or LowCardinality: the types ClickHouse may quote in JSON. */
export function isWideInteger(type: string): boolean {
  let t = type.trim();
  for (
    let m = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(t);
    m;
    m = /^(?:Nullable|LowCardinality)\((.*)\)$/.exec(t)
  ) {
    t = (m[1] as string).trim();
  }
  return /^U?Int(?:64|128|256)$/.test(t);
}

/** A 64-bit (or wider) integer cell: a number when a JavaScript number holds it exactly, else its decimal text. */
export function readWideInteger(v: unknown): unknown {
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) return v;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}

/**
 * A JSON text with every bare integer literal beyond ±(2^53 − 1) quoted, so `JSON.parse` keeps its exact digits
 * (for a query host that does not pass the quoting setting on). Strings and other numbers are left as they are.
 */
export function quoteUnsafeIntegers(json: string): string {
  if (!/\d{16}/.test(json)) return json;
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i] as string;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      continue;
    }
    if (ch === '-' || (ch >= '0' && ch <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(json.slice(i, i + 400));
      if (!m) continue;
      const token = m[0];
      if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(Number(token))) {
        out += `${json.slice(from, i)}"${token}"`;
        from = i + token.length;
      }
      i += token.length - 1;
    }
  }
  return from === 0 ? json : out + json.slice(from);
}

/** `X-ClickHouse-Summary` (a small JSON object) as statistics. */
export function parseSummary(header: string): QueryStats | undefined {
  const s = parseSmallObject(header);
  if (!s) return undefined;
  const num = (v: unknown): number | undefined =>
    v === undefined ? undefined : Number.isFinite(Number(v)) ? Number(v) : undefined;
  const stats: QueryStats = {};
  const rr = num(s.read_rows);
  const rb = num(s.read_bytes);
  const el = num(s.elapsed_ns);
  if (rr !== undefined) stats.readRows = rr;
  if (rb !== undefined) stats.readBytes = rb;
  if (el !== undefined) stats.elapsedNs = el;
  return stats;
}

/**
 * A search's model (no `vscode`): the two statements of `renderSearch` run through the SQL route the previews use, and
 * what the panel draws of them — the rows as bounded, sanitised text, and the histogram's counts per bucket and
 * severity (logs) or status code (spans). Server text is cut and stripped of ANSI and control characters here, and
 * the webview sets it as text only.
 */
import type { QueryResult, RunQueryOptions } from '../api/query';
import {
  columnsByTable,
  columnsOfTablesSql,
  renderSearch,
  sortingKeySql,
  tableKey,
  tableOfSource,
  type SourceLike,
} from '../render';
import { sqlString } from '../render/sql';

/** Characters of one cell in the rows list; of one value in a row's details; map keys shown per map. */
export const CELL_CHARS = 500;
export const DETAIL_CHARS = 64 * 1024;
export const MAP_KEYS = 500;
/** Rows a search fetches (the newest first) and bytes it reads at most. */
export const SEARCH_ROWS = 1000;
export const SEARCH_BYTES = 32 * 1024 * 1024;

export type RunSql = (connectionId: string, opts: RunQueryOptions) => Promise<QueryResult>;

export interface SearchScope {
  connectionId: string;
  serviceId: string;
}

export interface SearchRequest {
  source: SourceLike & { id?: string; name?: string };
  condition: string;
  language: 'lucene' | 'sql';
  range: { from: number; to: number };
  columns?: Record<string, string> | undefined;
  sortingKey?: string | undefined;
  limit?: number | undefined;
  /** Columns shown (default: the source's `defaultTableSelectExpression`). */
  select?: string | undefined;
}

export interface HistogramModel {
  /** Bucket starts (epoch ms), ascending. */
  buckets: number[];
  /** Stack names (severities or status codes; '' when the source names none). */
  groups: string[];
  /** counts[group][bucket]. */
  counts: number[][];
  /** Events counted over the whole range. */
  total: number;
  bucketMs: number;
}

export interface SearchModel {
  columns: string[];
  /** Raw cells of each row, as the server sent them (details read them). */
  raw: unknown[][];
  histogram: HistogramModel;
  rowsSql: string;
  histogramSql: string;
  /** Index of the trace ID column in the rows, when the source names one and it is shown. */
  traceIdColumn: number;
  notes: string[];
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)?|\u001b[@-_]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** Text of a value cut to `max` characters, ANSI sequences and control characters removed (tabs and newlines kept). */
export function boundedText(value: unknown, max: number): string {
  let s: string;
  if (value === null || value === undefined) s = '';
  else if (typeof value === 'string') s = value;
  else if (typeof value === 'object') s = jsonCut(value, max);
  else s = String(value);
  // Scan a little more than shown, so stripped characters do not leave the cut short.
  if (s.length > max * 2 + 64) s = s.slice(0, max * 2 + 64);
  s = s.replace(ANSI, '').replace(CONTROLS, '');
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** JSON of an object, cut: maps and arrays beyond MAP_KEYS entries are left out. */
function jsonCut(value: object, max: number): string {
  const entries = Array.isArray(value) ? value.slice(0, MAP_KEYS) : Object.entries(value).slice(0, MAP_KEYS);
  try {
    const s = JSON.stringify(Array.isArray(value) ? entries : Object.fromEntries(entries as [string, unknown][]));
    return s.length > max * 2 ? s.slice(0, max * 2) : s;
  } catch {
    return '';
  }
}

/** Epoch ms of a ClickHouse time cell ("YYYY-MM-DD hh:mm:ss[.fff]" in UTC, seconds or ms). */
export function timeOf(v: unknown): number {
  if (typeof v === 'number') return v < 1e11 ? v * 1000 : v;
  if (typeof v === 'string') {
    if (/^\d+(\.\d+)?$/.test(v)) return timeOf(Number(v));
    const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}${v.length <= 10 ? 'T00:00:00' : ''}Z`;
    return Date.parse(iso);
  }
  return NaN;
}

/** Column types of the source's table and its sorting key (both optional: the search runs without them). */
export async function tableFacts(
  run: (sql: string) => Promise<QueryResult>,
  source: SourceLike,
): Promise<{ columns?: Record<string, string>; sortingKey?: string }> {
  const table = tableOfSource(source);
  if (!table) return {};
  const out: { columns?: Record<string, string>; sortingKey?: string } = {};
  try {
    const cols = columnsByTable([table], (await run(columnsOfTablesSql([table]))).rows).get(tableKey(table));
    if (cols) out.columns = cols;
  } catch {
    // Lucene fields then map by name only.
  }
  const keySql = sortingKeySql(source);
  if (keySql) {
    try {
      const key = (await run(keySql)).rows[0]?.[0];
      if (typeof key === 'string') out.sortingKey = key;
    } catch {
      // The default order then reads the timestamp columns only.
    }
  }
  return out;
}

function rendered(req: SearchRequest) {
  const r = renderSearch({
    source: req.source,
    condition: req.condition,
    language: req.language,
    range: req.range,
    columns: req.columns,
    sortingKey: req.sortingKey,
    limit: req.limit ?? SEARCH_ROWS,
    select: req.select,
  });
  if (!r.ok) throw new Error(r.reason);
  return r;
}

/**
 * Runs a search's statements (rows first, then the histogram: one statement in flight per search); with `histogram`
 * false, the rows only (a live tail's rows since its last run).
 */
export async function runSearch(
  run: (sql: string) => Promise<QueryResult>,
  req: SearchRequest,
  histogram = true,
): Promise<SearchModel> {
  const r = rendered(req);
  const rows = await run(r.rows.sql);
  const columns = rows.columns.map((c) => c.name);
  const traceExpr = typeof req.source.traceIdExpression === 'string' ? req.source.traceIdExpression.trim() : '';
  return {
    columns,
    raw: rows.rows as unknown[][],
    histogram: histogram ? await runHistogram(run, req) : emptyHistogram(),
    rowsSql: r.rows.sql,
    histogramSql: r.histogram.sql,
    traceIdColumn: traceExpr ? columns.indexOf(traceExpr) : -1,
    notes: r.notes,
  };
}

/** The histogram of a search alone. */
export async function runHistogram(
  run: (sql: string) => Promise<QueryResult>,
  req: SearchRequest,
): Promise<HistogramModel> {
  const r = rendered(req);
  return histogramOf(await run(r.histogram.sql), r.histogram);
}

export function emptyHistogram(): HistogramModel {
  return { buckets: [], groups: [], counts: [], total: 0, bucketMs: 60_000 };
}

interface HistogramShape {
  granularity: { seconds: number };
  range: { from: number; to: number };
  columns: { time?: { index: number } | undefined; values: { index: number }[]; groups: { index: number }[] };
}

/** Counts per bucket and stack out of the histogram statement's rows. */
export function histogramOf(result: QueryResult, shape: HistogramShape): HistogramModel {
  const t = shape.columns.time?.index ?? 0;
  const v = shape.columns.values[0]?.index ?? 1;
  const g = shape.columns.groups[0]?.index;
  const byGroup = new Map<string, Map<number, number>>();
  const times = new Set<number>();
  let total = 0;
  for (const row of result.rows) {
    const at = timeOf(row[t]);
    const n = Number(row[v]);
    if (!Number.isFinite(at) || !Number.isFinite(n)) continue;
    const group = g === undefined ? '' : boundedText(row[g], 100);
    times.add(at);
    const m = byGroup.get(group) ?? new Map<number, number>();
    m.set(at, (m.get(at) ?? 0) + n);
    byGroup.set(group, m);
    total += n;
  }
  const bucketMs = shape.granularity.seconds * 1000;
  const buckets: number[] = [];
  const start = Math.floor(shape.range.from / bucketMs) * bucketMs;
  for (let at = start; at <= shape.range.to && buckets.length < 2000; at += bucketMs) buckets.push(at);
  for (const at of times) if (!buckets.includes(at)) buckets.push(at);
  buckets.sort((a, b) => a - b);
  const groups = [...byGroup.keys()].sort();
  const counts = groups.map((name) => buckets.map((at) => byGroup.get(name)!.get(at) ?? 0));
  return { buckets, groups, counts, total, bucketMs };
}

/** Values longer than this are left out of the statement that finds a row again (the others find it). */
const MATCH_CHARS = 1000;

/**
 * Every column of a row shown in the list (`SELECT *`), found again by the values of its plain columns (a timestamp,
 * service, severity, body…), as the search page reads a row's details. Undefined when it cannot be found that way.
 */
export async function fullRow(
  run: (sql: string) => Promise<QueryResult>,
  source: SourceLike,
  columns: readonly string[],
  row: readonly unknown[],
): Promise<{ columns: string[]; row: unknown[] } | undefined> {
  const table = tableOfSource(source);
  if (!table) return undefined;
  const conds: string[] = [];
  columns.forEach((c, i) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(c)) return;
    const v = row[i];
    if (typeof v === 'string' && v.length <= MATCH_CHARS) conds.push(`${c} = ${sqlString(v)}`);
    else if (typeof v === 'number' && Number.isFinite(v)) conds.push(`${c} = ${v}`);
  });
  if (conds.length === 0) return undefined;
  const result = await run(`SELECT * FROM ${tableKey(table)} WHERE ${conds.join(' AND ')} LIMIT 1`);
  const first = result.rows[0];
  return first ? { columns: result.columns.map((c) => c.name), row: first as unknown[] } : undefined;
}

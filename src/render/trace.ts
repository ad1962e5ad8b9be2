/**
 * A trace's statements (pure: no `vscode`, no network): its spans from a trace source and its log lines from a log
 * source, read through the sources' own expressions, bounded in rows and in the length of every value, and the rows
 * they return read back into spans and log lines by ./traceRows.ts.
 */
import { sqlString, tableRef } from './sql';
import type { SourceLike, TimeRange } from './tile';

/** Spans read of one trace at most (one more row is asked, to tell that the trace was cut). */
export const TRACE_MAX_SPANS = 100_000;
/** Log lines of one trace at most. */
export const TRACE_MAX_LOGS = 1_000;
/** Characters kept of each value: names and IDs, attribute values, event attribute values (stack traces). */
export const TRACE_CUTS = { id: 64, name: 500, value: 4_000, event: 16_000, events: 100 } as const;

/** A trace ID as ClickStack shows it: 32 hexadecimal digits. */
export const TRACE_ID = /^[0-9a-f]{32}$/;

export interface TraceSpan {
  spanId: string;
  parentSpanId: string;
  name: string;
  service: string;
  kind: string;
  /** Start, epoch milliseconds (with the fraction). */
  startMs: number;
  durationMs: number;
  statusCode: string;
  statusMessage: string;
  attributes: Record<string, string>;
  resource: Record<string, string>;
  events: { timeMs: number; name: string; attributes: Record<string, string> }[];
}

export interface TraceLogLine {
  timeMs: number;
  spanId: string;
  severity: string;
  service: string;
  body: string;
}

export type TraceStatement = { ok: true; sql: string; maxRows: number } | { ok: false; reason: string };

function expr(source: SourceLike, key: string): string | undefined {
  const v = source[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

const cut = (e: string, n: number) => `substringUTF8(toString(${e}), 1, ${n})`;
const nanos = (e: string) => `toString(toUnixTimestamp64Nano(toDateTime64(${e}, 9)))`;
const cutMap = (e: string, n: number) =>
  `mapApply((k, v) -> (substringUTF8(toString(k), 1, 200), substringUTF8(toString(v), 1, ${n})), ${e})`;

function rangeCondition(ts: string, range: TimeRange | undefined): string {
  if (!range) return '';
  const from = Math.floor(+range.from);
  const to = Math.ceil(+range.to);
  return ` AND ${ts} >= fromUnixTimestamp64Milli(toInt64(${from})) AND ${ts} <= fromUnixTimestamp64Milli(toInt64(${to}))`;
}

/** Milliseconds of the source's duration expression (`durationPrecision` digits of a second, default 3). */
function durationMs(source: SourceLike, duration: string): string {
  const p = typeof source.durationPrecision === 'number' ? Math.min(9, Math.max(0, source.durationPrecision)) : 3;
  return p >= 3 ? `toFloat64(${duration}) / ${10 ** (p - 3)}` : `toFloat64(${duration}) * ${10 ** (3 - p)}`;
}

/** The statement reading the spans of `traceId` from a trace source, oldest first, at most `TRACE_MAX_SPANS` + 1. */
export function renderTraceSpans(source: SourceLike, traceId: string, range?: TimeRange): TraceStatement {
  const table = source.from?.tableName;
  const ts = expr(source, 'timestampValueExpression');
  const need = ['traceIdExpression', 'spanIdExpression', 'parentSpanIdExpression', 'durationExpression'] as const;
  const missing = need.filter((k) => !expr(source, k));
  if (source.kind !== 'trace') return { ok: false, reason: 'The source is not a trace source.' };
  if (!table || !ts || missing.length > 0) {
    return {
      ok: false,
      reason: `The trace source has no ${[!table ? 'table' : '', ...missing].filter(Boolean).join(', ')}.`,
    };
  }
  const e = (k: string, fallback = "''") => expr(source, k) ?? fallback;
  const events = expr(source, 'spanEventsValueExpression');
  const select = [
    `${nanos(ts)} AS start_ns`,
    `${cut(e('spanIdExpression'), TRACE_CUTS.id)} AS span_id`,
    `${cut(e('parentSpanIdExpression'), TRACE_CUTS.id)} AS parent_span_id`,
    `${cut(e('spanNameExpression'), TRACE_CUTS.name)} AS span_name`,
    `${cut(e('serviceNameExpression'), TRACE_CUTS.name)} AS service_name`,
    `${cut(e('spanKindExpression'), TRACE_CUTS.id)} AS span_kind`,
    `${durationMs(source, e('durationExpression'))} AS duration_ms`,
    `${cut(e('statusCodeExpression'), TRACE_CUTS.id)} AS status_code`,
    `${cut(e('statusMessageExpression'), TRACE_CUTS.value)} AS status_message`,
    `${expr(source, 'eventAttributesExpression') ? cutMap(e('eventAttributesExpression'), TRACE_CUTS.value) : 'map()'} AS attributes`,
    `${expr(source, 'resourceAttributesExpression') ? cutMap(e('resourceAttributesExpression'), TRACE_CUTS.value) : 'map()'} AS resource`,
    events
      ? `arrayMap(t -> ${nanos('t')}, arraySlice(${events}.Timestamp, 1, ${TRACE_CUTS.events})) AS event_times`
      : `CAST([], 'Array(String)') AS event_times`,
    events
      ? `arrayMap(n -> ${cut('n', TRACE_CUTS.name)}, arraySlice(${events}.Name, 1, ${TRACE_CUTS.events})) AS event_names`
      : `CAST([], 'Array(String)') AS event_names`,
    events
      ? `arrayMap(m -> ${cutMap('m', TRACE_CUTS.event)}, arraySlice(${events}.Attributes, 1, ${TRACE_CUTS.events})) AS event_attributes`
      : `CAST([], 'Array(Map(String, String))') AS event_attributes`,
  ];
  const sql = [
    `SELECT ${select.join(',\n  ')}`,
    `FROM ${tableRef(source.from?.databaseName, table)}`,
    `WHERE ${e('traceIdExpression')} = ${sqlString(traceId)}${rangeCondition(ts, range)}`,
    `ORDER BY ${ts} ASC`,
    `LIMIT ${TRACE_MAX_SPANS + 1}`,
  ].join('\n');
  return { ok: true, sql, maxRows: TRACE_MAX_SPANS + 1 };
}

/** The statement reading a log source's lines of `traceId`, oldest first, at most `TRACE_MAX_LOGS` + 1. */
export function renderTraceLogs(source: SourceLike, traceId: string, range?: TimeRange): TraceStatement {
  const table = source.from?.tableName;
  const ts = expr(source, 'displayedTimestampValueExpression') ?? expr(source, 'timestampValueExpression');
  const traceIdExpr = expr(source, 'traceIdExpression');
  if (source.kind !== 'log') return { ok: false, reason: 'The source is not a log source.' };
  if (!table || !ts || !traceIdExpr) return { ok: false, reason: 'The log source names no trace ID expression.' };
  const e = (k: string) => expr(source, k) ?? "''";
  const sql = [
    `SELECT ${nanos(ts)} AS time_ns, ${cut(e('spanIdExpression'), TRACE_CUTS.id)} AS span_id,`,
    `  ${cut(e('severityTextExpression'), TRACE_CUTS.id)} AS severity, ${cut(e('serviceNameExpression'), TRACE_CUTS.name)} AS service_name,`,
    `  ${cut(e('bodyExpression'), TRACE_CUTS.value)} AS body`,
    `FROM ${tableRef(source.from?.databaseName, table)}`,
    `WHERE ${traceIdExpr} = ${sqlString(traceId)}${rangeCondition(ts, range)}`,
    `ORDER BY ${ts} ASC`,
    `LIMIT ${TRACE_MAX_LOGS + 1}`,
  ].join('\n');
  return { ok: true, sql, maxRows: TRACE_MAX_LOGS + 1 };
}

/**
 * The one statement that gives the recent production exceptions of a pick: for a trace source (its span events named
 * `exception`) and, when there is one, its log source (logs whose attributes carry `exception.stacktrace`), over
 * [from, to), the exceptions grouped by where they were recorded (span event or log), their type and their stack
 * trace, with
 *   - occurrences: on a trace source with a `sampleRateExpression` each span's events weigh its sample rate (as the
 *     code aggregate weighs calls); logs weigh 1;
 *   - the first and last time seen (epoch milliseconds), the latest message and stack trace, and the latest trace ID
 *     that is set (an example to open).
 * A stack trace that repeats its message (Node's and Java's first line, Python's last) is grouped without it, so the
 * same throw with different messages is one group. Exceptions without a stack trace cannot be placed and are left
 * out. The groups with the most occurrences come first, at most `limit`; every row carries the number of groups and
 * of occurrences over the whole range, so the cut is said (`readExceptionAggregate`). Type, message and stack are cut
 * to bounded lengths.
 */
import { sqlString, splitTopLevel, tableRef } from '../api/query/sqlText';
import type { TraceSourceLike } from './aggregate';
import type { LogSourceLike } from './logCounts';

export const DEFAULT_EXCEPTION_LIMIT = 100;
export const MAX_EXCEPTION_LIMIT = 1000;
export const MAX_TYPE_CHARS = 512;
export const MAX_MESSAGE_CHARS = 2000;
export const MAX_STACK_CHARS = 64 * 1024;
/** A message shorter than this is not taken out of its stack trace (it could stand in for digits of line numbers). */
export const MIN_STRIPPED_MESSAGE = 4;

export type ExceptionStatement =
  { ok: true; sql: string; limit: number; logs: boolean } | { ok: false; reason: string };

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function range(opts: { range: { from: number; to: number } }, ts: string): string[] {
  return [
    `${ts} >= fromUnixTimestamp64Milli(${opts.range.from})`,
    `${ts} < fromUnixTimestamp64Milli(${opts.range.to})`,
  ];
}

/** The columns every part gives: origin, type, message, stack, trace, at_ms, w, stack_key. */
function columns(origin: string, attrs: string, traceId: string, ts: string, weight: string): string {
  const m = (key: string) => `${attrs}[${sqlString(key)}]`;
  const message = m('exception.message');
  const stack = m('exception.stacktrace');
  return [
    `${sqlString(origin)} AS origin`,
    `substring(${m('exception.type')}, 1, ${MAX_TYPE_CHARS}) AS exc_type`,
    `${message} AS exc_message`,
    `${stack} AS exc_stack`,
    `toString(${traceId}) AS trace_id`,
    `toInt64(toUnixTimestamp64Milli(toDateTime64(${ts}, 3))) AS at_ms`,
    `toUInt64(${weight}) AS w`,
    `cityHash64(if(length(${message}) >= ${MIN_STRIPPED_MESSAGE}, replaceAll(${stack}, ${message}, ''), ${stack})) AS stack_key`,
  ].join(', ');
}

function spanPart(source: TraceSourceLike, opts: { range: { from: number; to: number } }): string | { reason: string } {
  if (source.kind !== undefined && source.kind !== 'trace') return { reason: 'the source is not a trace source' };
  const table = text(source.from?.tableName);
  if (!table) return { reason: 'the source names no table' };
  const ts = splitTopLevel(text(source.timestampValueExpression) ?? '')[0];
  if (!ts) return { reason: 'the source has no timestamp expression' };
  const events = text(source.spanEventsValueExpression) ?? 'Events';
  const rate = text(source.sampleRateExpression);
  const weight = rate ? `greatest(toUInt64OrZero(toString(${rate})), 1)` : '1';
  const where = [...range(opts, ts), `ev_name = 'exception'`, `ev_attrs['exception.stacktrace'] != ''`];
  const filter = text(source.tableFilterExpression);
  if (filter) where.push(`(${filter})`);
  return [
    `SELECT ${columns('span', 'ev_attrs', text(source.traceIdExpression) ?? 'TraceId', ts, weight)}`,
    `FROM ${tableRef(text(source.from?.databaseName), table)}`,
    `ARRAY JOIN ${events}.Name AS ev_name, ${events}.Attributes AS ev_attrs`,
    `WHERE ${where.join(' AND ')}`,
  ].join('\n');
}

function logPart(source: LogSourceLike, opts: { range: { from: number; to: number } }): string | { reason: string } {
  if (source.kind !== undefined && source.kind !== 'log') return { reason: 'the source is not a log source' };
  const table = text(source.from?.tableName);
  if (!table) return { reason: 'the log source names no table' };
  const ts = splitTopLevel(text(source.timestampValueExpression) ?? '')[0];
  if (!ts) return { reason: 'the log source has no timestamp expression' };
  const attrs = text(source.eventAttributesExpression) ?? 'LogAttributes';
  const where = [...range(opts, ts), `${attrs}['exception.stacktrace'] != ''`];
  const filter = text(source.tableFilterExpression);
  if (filter) where.push(`(${filter})`);
  return [
    `SELECT ${columns('log', attrs, text(source.traceIdExpression) ?? 'TraceId', ts, '1')}`,
    `FROM ${tableRef(text(source.from?.databaseName), table)}`,
    `WHERE ${where.join(' AND ')}`,
  ].join('\n');
}

/** The statement for a trace source (and its log source, when there is one) and a range, or the reason there is none. */
export function exceptionAggregateSql(
  traces: TraceSourceLike,
  logs: LogSourceLike | undefined,
  opts: { range: { from: number; to: number }; limit?: number | undefined },
): ExceptionStatement {
  const { from, to } = opts.range;
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from >= to) {
    return { ok: false, reason: 'the time range is empty or not whole milliseconds' };
  }
  const spans = spanPart(traces, opts);
  if (typeof spans !== 'string') return { ok: false, reason: spans.reason };
  const logged = logs ? logPart(logs, opts) : undefined;
  const parts = typeof logged === 'string' ? [spans, logged] : [spans];
  const limit = Math.min(MAX_EXCEPTION_LIMIT, Math.max(1, Math.floor(opts.limit ?? DEFAULT_EXCEPTION_LIMIT)));
  const sql = [
    'SELECT',
    '  origin,',
    '  exc_type AS exception_type,',
    `  argMax(substring(exc_message, 1, ${MAX_MESSAGE_CHARS}), at_ms) AS exception_message,`,
    `  argMax(substring(exc_stack, 1, ${MAX_STACK_CHARS}), at_ms) AS stacktrace,`,
    '  sum(w) AS occurrences,',
    '  min(at_ms) AS first_ms,',
    '  max(at_ms) AS last_ms,',
    "  argMaxIf(trace_id, at_ms, trace_id != '') AS example_trace,",
    '  count() OVER () AS groups_total,',
    '  sum(sum(w)) OVER () AS occurrences_total',
    `FROM (\n${parts.join('\nUNION ALL\n')}\n)`,
    'GROUP BY origin, exc_type, stack_key',
    'ORDER BY occurrences DESC, origin, exception_type, stack_key',
    `LIMIT ${limit}`,
  ].join('\n');
  return { ok: true, sql, limit, logs: typeof logged === 'string' };
}

/** One group of the statement's result. */
export interface ExceptionGroup {
  origin: 'span' | 'log';
  type: string;
  message: string;
  stacktrace: string;
  count: number;
  /** Epoch milliseconds. */
  first: number;
  last: number;
  /** The latest trace ID set, '' when none is. */
  traceId: string;
}

export interface ExceptionAggregate {
  groups: ExceptionGroup[];
  /** Groups over the whole range, and how many of them (and of their occurrences) the limit left out. */
  total: number;
  cut: number;
  cutCount: number;
}

function num(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
}

/** The statement's rows (JSON objects by column name) as groups, with the cut. */
export function readExceptionAggregate(rows: readonly Record<string, unknown>[]): ExceptionAggregate {
  const groups: ExceptionGroup[] = rows.map((r) => ({
    origin: r.origin === 'log' ? 'log' : 'span',
    type: String(r.exception_type ?? ''),
    message: String(r.exception_message ?? ''),
    stacktrace: String(r.stacktrace ?? ''),
    count: num(r.occurrences),
    first: num(r.first_ms),
    last: num(r.last_ms),
    traceId: String(r.example_trace ?? ''),
  }));
  const total = rows.length > 0 ? num(rows[0]?.groups_total) : 0;
  const all = rows.length > 0 ? num(rows[0]?.occurrences_total) : 0;
  const shown = groups.reduce((s, g) => s + g.count, 0);
  return { groups, total, cut: Math.max(0, total - groups.length), cutCount: Math.max(0, all - shown) };
}

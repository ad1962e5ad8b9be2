/**
 * The figures of one function over time, fetched when the user asks (one bounded statement): for the aggregate's
 * groups that a lens shows (file, function, namespace), calls and errors per time bucket (weighed by the sample rate
 * as the aggregate weighs them), the slowest spans and the latest failing spans, at most EXAMPLES of each, each with
 * its trace ID. The buckets are aligned to multiples of their length since the epoch (UTC), at most MAX_BUCKETS over
 * the range; the range is [from, to). Also the SQL condition that selects the same spans, for a search.
 */
import { sqlString } from '../api/query/sqlText';
import type { TraceSourceLike } from './aggregate';
import { text, traceExpressions, type TraceExpressions } from './traceExpressions';

export const EXAMPLES = 5;
export const MAX_BUCKETS = 30;
/** Most groups a statement names (a lens joins one group in the common case). */
export const MAX_GROUPS = 20;
const STEPS = [60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400, 7 * 86_400];

export interface CodeGroup {
  file: string;
  function: string;
  namespace: string;
}

export interface DetailOptions {
  range: { from: number; to: number };
  groups: readonly CodeGroup[];
}

export type DetailStatement =
  { ok: true; sql: string; stepSeconds: number; maxRows: number } | { ok: false; reason: string };

/** The bucket length for a range: the shortest step that keeps the buckets at most MAX_BUCKETS. */
export function bucketSeconds(rangeMs: number): number {
  return STEPS.find((s) => rangeMs / 1000 / s <= MAX_BUCKETS) ?? (STEPS[STEPS.length - 1] as number);
}

function groupsCondition(e: TraceExpressions, groups: readonly CodeGroup[]): string {
  const one = (g: CodeGroup) =>
    `(${e.file} = ${sqlString(g.file)} AND ${e.function} = ${sqlString(g.function)} AND ${e.namespace} = ${sqlString(g.namespace)})`;
  return groups.length === 1 ? one(groups[0] as CodeGroup) : `(${groups.map(one).join(' OR ')})`;
}

/** The statement, or the reason there is none. */
export function codeDetailSql(source: TraceSourceLike, opts: DetailOptions): DetailStatement {
  const ex = traceExpressions(source);
  if (!ex.ok) return ex;
  const { e } = ex;
  const { from, to } = opts.range;
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from >= to) {
    return { ok: false, reason: 'the time range is empty or not whole milliseconds' };
  }
  const groups = opts.groups.slice(0, MAX_GROUPS);
  if (groups.length === 0) return { ok: false, reason: 'no function to show' };
  const step = bucketSeconds(to - from);
  const where = [
    `${e.ts} >= fromUnixTimestamp64Milli(${from})`,
    `${e.ts} < fromUnixTimestamp64Milli(${to})`,
    groupsCondition(e, groups),
    ...(e.filter ? [`(${e.filter})`] : []),
  ].join(' AND ');
  const traceId = text(source.traceIdExpression) ?? 'TraceId';
  const spanId = text(source.spanIdExpression) ?? 'SpanId';
  const status = text(source.statusCodeExpression) ?? 'StatusCode';
  const message = text(source.statusMessageExpression) ?? "''";
  const at = `toUnixTimestamp64Milli(toDateTime64(${e.ts}, 3))`;
  const example = (part: string, extra: string, order: string) =>
    [
      `SELECT * FROM (SELECT ${sqlString(part)} AS part, toInt64(${at}) AS at_ms, toFloat64(1) AS calls,`,
      `    toFloat64(${e.isError}) AS errors, toString(${traceId}) AS trace_id, toString(${spanId}) AS span_id,`,
      `    ${e.ms} AS duration_ms, toString(${status}) AS status, substring(toString(${message}), 1, 300) AS message`,
      `  FROM ${e.table} WHERE ${where}${extra} ORDER BY ${order} LIMIT ${EXAMPLES})`,
    ].join('\n');
  const calls = e.weight ? `sum(${e.weight})` : 'count()';
  const errors = e.weight ? `sumIf(${e.weight}, ${e.isError})` : `countIf(${e.isError})`;
  const sql = [
    `SELECT 'bucket' AS part,`,
    `    toInt64(toUnixTimestamp(toStartOfInterval(toDateTime(${e.ts}), INTERVAL ${step} SECOND))) * 1000 AS at_ms,`,
    `    toFloat64(${calls}) AS calls, toFloat64(${errors}) AS errors, '' AS trace_id, '' AS span_id,`,
    `    toFloat64(0) AS duration_ms, '' AS status, '' AS message`,
    `  FROM ${e.table} WHERE ${where} GROUP BY at_ms`,
    'UNION ALL',
    example('slow', '', `duration_ms DESC, at_ms DESC, span_id`),
    'UNION ALL',
    example('failing', ` AND ${e.isError}`, `at_ms DESC, span_id`),
    'ORDER BY part, at_ms',
  ].join('\n');
  return { ok: true, sql, stepSeconds: step, maxRows: MAX_BUCKETS + 2 + 2 * EXAMPLES };
}

/** The SQL condition that selects the spans of these groups (for a search of them), or undefined. */
export function codeSearchCondition(source: TraceSourceLike, groups: readonly CodeGroup[]): string | undefined {
  const ex = traceExpressions(source);
  if (!ex.ok || groups.length === 0) return undefined;
  return groupsCondition(ex.e, groups.slice(0, MAX_GROUPS));
}

/** The condition of failing spans, for a search of them. */
export function failingCondition(source: TraceSourceLike): string | undefined {
  const ex = traceExpressions(source);
  return ex.ok ? ex.e.isError : undefined;
}

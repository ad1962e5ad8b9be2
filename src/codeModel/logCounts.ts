/**
 * How many production logs each logger call wrote: one statement per log source and range counting, for each LIKE
 * pattern of `logLiterals.ts`, the log bodies it matches (`countIf(body LIKE pattern)`), over [from, to). Patterns
 * are deduplicated and at most MAX_PATTERNS are counted in one statement; the rest are reported as cut.
 */
import { sqlString, splitTopLevel, tableRef } from '../api/query/sqlText';

/** The log source fields the statement reads. */
export interface LogSourceLike {
  kind?: string | undefined;
  from?: { databaseName?: string | null | undefined; tableName?: string | null | undefined } | undefined;
  timestampValueExpression?: string | null | undefined;
  bodyExpression?: string | null | undefined;
  implicitColumnExpression?: string | null | undefined;
  serviceNameExpression?: string | null | undefined;
  tableFilterExpression?: string | null | undefined;
  [key: string]: unknown;
}

export const MAX_PATTERNS = 200;

export type LogCountsStatement =
  | {
      ok: true;
      sql: string;
      /** The patterns counted, in the order of the columns c0, c1, … */ patterns: string[];
      cut: number;
    }
  | { ok: false; reason: string };

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The statement counting the bodies each pattern matches, or the reason there is none. */
export function logCountsSql(
  source: LogSourceLike,
  opts: { range: { from: number; to: number }; patterns: readonly string[]; services?: readonly string[] | undefined },
): LogCountsStatement {
  if (source.kind !== undefined && source.kind !== 'log') {
    return { ok: false, reason: 'the source is not a log source' };
  }
  const table = text(source.from?.tableName);
  if (!table) return { ok: false, reason: 'the source names no table' };
  const ts = splitTopLevel(text(source.timestampValueExpression) ?? '')[0];
  if (!ts) return { ok: false, reason: 'the source has no timestamp expression' };
  const body = splitTopLevel(text(source.bodyExpression) ?? text(source.implicitColumnExpression) ?? '')[0];
  if (!body) return { ok: false, reason: 'the source has no body expression' };
  const { from, to } = opts.range;
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from >= to) {
    return { ok: false, reason: 'the time range is empty or not whole milliseconds' };
  }
  const unique = [...new Set(opts.patterns.filter((p) => p !== ''))];
  const patterns = unique.slice(0, MAX_PATTERNS);
  if (patterns.length === 0) return { ok: false, reason: 'no log message to count' };
  const where = [`${ts} >= fromUnixTimestamp64Milli(${from})`, `${ts} < fromUnixTimestamp64Milli(${to})`];
  const filter = text(source.tableFilterExpression);
  if (filter) where.push(`(${filter})`);
  if (opts.services && opts.services.length > 0) {
    where.push(
      `${text(source.serviceNameExpression) ?? 'ServiceName'} IN (${opts.services.map(sqlString).join(', ')})`,
    );
  }
  const counts = patterns.map((p, i) => `  countIf(${body} LIKE ${sqlString(p)}) AS c${i}`);
  const sql = [
    'SELECT',
    counts.join(',\n'),
    `FROM ${tableRef(text(source.from?.databaseName), table)}`,
    `WHERE ${where.join('\n  AND ')}`,
  ].join('\n');
  return { ok: true, sql, patterns, cut: unique.length - patterns.length };
}

/** Counts by pattern from the statement's one row. */
export function readLogCounts(
  row: Record<string, unknown> | undefined,
  patterns: readonly string[],
): Map<string, number> {
  const out = new Map<string, number>();
  patterns.forEach((p, i) => {
    const v = row?.[`c${i}`];
    const n = typeof v === 'number' ? v : Number(v);
    out.set(p, Number.isFinite(n) ? n : 0);
  });
  return out;
}

/**
 * The one statement that gives production figures per function: for a trace source and a time range, spans grouped
 * by file, function and namespace as their code attributes name them (both generations: `code.file.path` or else
 * `code.filepath`, `code.function.name` or else `code.function`, and `code.namespace`), with
 *   - calls: the span count; on a source with a `sampleRateExpression`, each span weighs its sample rate, as HyperDX
 *     weighs it (`greatest(toUInt64OrZero(toString(rate)), 1)`, summed);
 *   - errors: spans whose status code is `Error` (or `STATUS_CODE_ERROR`, as older exporters wrote it), weighed alike;
 *   - p95 duration in milliseconds (the source's duration expression over 10^(precision - 3), as HyperDX converts
 *     it): `quantile(0.95)` — ClickHouse's reservoir sample, exact up to 8,192 spans per group and an estimate above
 *     — or, weighted, `quantileTDigestWeighted(0.95)`, a t-digest estimate (what HyperDX uses for sampled sources);
 *   - the smallest line the spans name (0 when none does).
 * The groups with the most calls come first, at most `limit` of them; every row also carries the number of groups
 * and calls over the whole range, so the cut is said (`readAggregate`). Values are cut to MAX_KEY_CHARS characters
 * before grouping, so oversized attributes cannot blow up the result. The range is [from, to).
 */
import { sqlString } from '../api/query/sqlText';
import { traceExpressions } from './traceExpressions';

export { MAX_KEY_CHARS } from './traceExpressions';

/** The trace source fields the statement reads (a source response carries them; others are ignored). */
export interface TraceSourceLike {
  kind?: string | undefined;
  from?: { databaseName?: string | null | undefined; tableName?: string | null | undefined } | undefined;
  timestampValueExpression?: string | null | undefined;
  durationExpression?: string | null | undefined;
  durationPrecision?: number | null | undefined;
  statusCodeExpression?: string | null | undefined;
  eventAttributesExpression?: string | null | undefined;
  serviceNameExpression?: string | null | undefined;
  sampleRateExpression?: string | null | undefined;
  tableFilterExpression?: string | null | undefined;
  [key: string]: unknown;
}

export interface AggregateOptions {
  /** Epoch milliseconds; `from` included, `to` excluded. */
  range: { from: number; to: number };
  /** Most groups returned (default DEFAULT_LIMIT, at most MAX_LIMIT). */
  limit?: number | undefined;
  /** Only these services (by the source's service name expression). */
  services?: readonly string[] | undefined;
}

export interface QuantileUsed {
  function: 'quantile' | 'quantileTDigestWeighted';
  level: number;
  /** How exact the figure is, for the user. */
  note: string;
}

export type AggregateStatement =
  { ok: true; sql: string; limit: number; weighted: boolean; quantile: QuantileUsed } | { ok: false; reason: string };

export const DEFAULT_LIMIT = 500;
export const MAX_LIMIT = 10_000;
const LEVEL = 0.95;

/** The statement for a trace source and range, or the reason there is none. */
export function codeAggregateSql(source: TraceSourceLike, opts: AggregateOptions): AggregateStatement {
  const ex = traceExpressions(source);
  if (!ex.ok) return ex;
  const { e } = ex;
  const { from, to } = opts.range;
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from >= to) {
    return { ok: false, reason: 'the time range is empty or not whole milliseconds' };
  }
  const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(opts.limit ?? DEFAULT_LIMIT)));
  const { weight, ms, isError } = e;
  const calls = weight ? `sum(${weight})` : 'count()';
  const errors = weight ? `sumIf(${weight}, ${isError})` : `countIf(${isError})`;
  const p95 = weight ? `quantileTDigestWeighted(${LEVEL})(${ms}, toUInt32(${weight}))` : `quantile(${LEVEL})(${ms})`;
  const line = e.line;
  const where = [
    `${e.ts} >= fromUnixTimestamp64Milli(${from})`,
    `${e.ts} < fromUnixTimestamp64Milli(${to})`,
    `(code_file != '' OR code_function != '')`,
  ];
  if (e.filter) where.push(`(${e.filter})`);
  if (opts.services && opts.services.length > 0) {
    where.push(`${e.service} IN (${opts.services.map(sqlString).join(', ')})`);
  }
  const sql = [
    'SELECT',
    `  ${e.file} AS code_file,`,
    `  ${e.function} AS code_function,`,
    `  ${e.namespace} AS code_namespace,`,
    `  minIf(${line}, ${line} > 0) AS code_line,`,
    `  ${calls} AS calls,`,
    `  ${errors} AS errors,`,
    `  ${p95} AS p95_ms,`,
    `  count() OVER () AS groups_total,`,
    `  sum(${calls}) OVER () AS calls_total`,
    `FROM ${e.table}`,
    `WHERE ${where.join('\n  AND ')}`,
    'GROUP BY code_file, code_function, code_namespace',
    'ORDER BY calls DESC, code_file, code_function, code_namespace',
    `LIMIT ${limit}`,
  ].join('\n');
  const quantile: QuantileUsed = weight
    ? {
        function: 'quantileTDigestWeighted',
        level: LEVEL,
        note: 'p95 estimated with a t-digest weighted by the sample rate',
      }
    : {
        function: 'quantile',
        level: LEVEL,
        note: 'p95 exact up to 8,192 spans per function, from a random sample of 8,192 above',
      };
  return { ok: true, sql, limit, weighted: weight !== undefined, quantile };
}

/** One group of the statement's result. */
export interface CodeFigures {
  file: string;
  function: string;
  namespace: string;
  /** The smallest line the spans name, 0 when none does. */
  line: number;
  calls: number;
  errors: number;
  /** Milliseconds; null when ClickHouse gives no number (no span with a readable duration). */
  p95Ms: number | null;
}

export interface CodeAggregate {
  rows: CodeFigures[];
  /** Groups over the whole range, and how many of them (and of their calls) the limit left out. */
  groups: number;
  cut: number;
  cutCalls: number;
}

function num(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** The statement's rows (JSON objects by column name) as figures, with the cut. */
export function readAggregate(rows: readonly Record<string, unknown>[]): CodeAggregate {
  const out: CodeFigures[] = rows.map((r) => ({
    file: String(r.code_file ?? ''),
    function: String(r.code_function ?? ''),
    namespace: String(r.code_namespace ?? ''),
    line: num(r.code_line) ?? 0,
    calls: num(r.calls) ?? 0,
    errors: num(r.errors) ?? 0,
    p95Ms: num(r.p95_ms),
  }));
  const groups = num(rows[0]?.groups_total) ?? out.length;
  const callsTotal = num(rows[0]?.calls_total) ?? 0;
  const shown = out.reduce((s, r) => s + r.calls, 0);
  return { rows: out, groups, cut: Math.max(0, groups - out.length), cutCalls: Math.max(0, callsTotal - shown) };
}

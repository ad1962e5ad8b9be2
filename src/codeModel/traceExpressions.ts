/**
 * The SQL expressions over a trace source that the code figures read, as the aggregate and the on-demand detail use
 * them alike: the span's code attributes of both generations, its duration in milliseconds (the source's duration
 * expression over 10^(precision - 3), as HyperDX converts it), whether it failed, and its sample weight (HyperDX's
 * `greatest(toUInt64OrZero(toString(rate)), 1)`) on a source with a `sampleRateExpression`.
 */
import { sqlString, splitTopLevel, tableRef } from '../api/query/sqlText';
import type { TraceSourceLike } from './aggregate';

/** Values are cut to this many characters before grouping, so oversized attributes cannot blow up a result. */
export const MAX_KEY_CHARS = 1024;

export interface TraceExpressions {
  table: string;
  ts: string;
  /** Duration in milliseconds (Float64). */
  ms: string;
  isError: string;
  /** The span's sample weight; undefined on a source without a sample rate. */
  weight: string | undefined;
  file: string;
  function: string;
  namespace: string;
  line: string;
  service: string;
  /** The source's table filter, when it has one. */
  filter: string | undefined;
}

export function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** `m['stable']` when it is set, else `m['old']`. */
function either(map: string, stable: string, old: string): string {
  const a = `${map}[${sqlString(stable)}]`;
  return `if(${a} != '', ${a}, ${map}[${sqlString(old)}])`;
}

/** The expressions of a trace source, or the reason there are none. */
export function traceExpressions(
  source: TraceSourceLike,
): { ok: true; e: TraceExpressions } | { ok: false; reason: string } {
  if (source.kind !== undefined && source.kind !== 'trace') {
    return { ok: false, reason: 'the source is not a trace source' };
  }
  const table = text(source.from?.tableName);
  if (!table) return { ok: false, reason: 'the source names no table' };
  const ts = splitTopLevel(text(source.timestampValueExpression) ?? '')[0];
  if (!ts) return { ok: false, reason: 'the source has no timestamp expression' };
  const duration = text(source.durationExpression);
  if (!duration) return { ok: false, reason: 'the source has no duration expression' };
  const precision = Number.isInteger(source.durationPrecision) ? (source.durationPrecision as number) : 9;
  const attrs = text(source.eventAttributesExpression) ?? 'SpanAttributes';
  const status = text(source.statusCodeExpression) ?? 'StatusCode';
  const rate = text(source.sampleRateExpression);
  const cut = (e: string) => `substring(${e}, 1, ${MAX_KEY_CHARS})`;
  return {
    ok: true,
    e: {
      table: tableRef(text(source.from?.databaseName), table),
      ts,
      ms: `toFloat64OrDefault(toString((${duration})/1e${precision - 3}))`,
      isError: `${status} IN ('Error', 'STATUS_CODE_ERROR')`,
      weight: rate ? `greatest(toUInt64OrZero(toString(${rate})), 1)` : undefined,
      file: cut(either(attrs, 'code.file.path', 'code.filepath')),
      function: cut(either(attrs, 'code.function.name', 'code.function')),
      namespace: cut(`${attrs}['code.namespace']`),
      line: `toUInt32OrZero(${either(attrs, 'code.line.number', 'code.lineno')})`,
      service: text(source.serviceNameExpression) ?? 'ServiceName',
      filter: text(source.tableFilterExpression),
    },
  };
}

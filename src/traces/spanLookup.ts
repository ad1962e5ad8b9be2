/**
 * Finding a span (no `vscode`): a span ID given without its trace (a SQL result with a `SpanId` column and no
 * `TraceId`) is looked up in the trace source by the source's span ID expression, in a bounded window (one statement,
 * one row), and its trace opened; a span ID picks its row in the trace's waterfall.
 */
import { sqlString, tableRef, type SourceLike } from '../render';
import type { TraceRange } from './window';

/** A span ID as ClickStack shows it: 16 hexadecimal digits. */
export const SPAN_ID = /^[0-9a-f]{16}$/;

/** Without a row's time, a span is looked for in the last day only. */
export const SPAN_LOOKUP_MS = 24 * 60 * 60 * 1000;

export function normalizeSpanId(text: string): string | undefined {
  const id = text.trim().toLowerCase();
  return SPAN_ID.test(id) ? id : undefined;
}

function expr(source: SourceLike, key: string): string | undefined {
  const v = source[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/**
 * The statement reading the trace ID of span `spanId` in `range` (epoch ms), one row; undefined when the source
 * names no table, time, span ID or trace ID expression.
 */
export function renderSpanLookup(source: SourceLike, spanId: string, range: TraceRange): string | undefined {
  const table = source.from?.tableName;
  const ts = expr(source, 'timestampValueExpression')?.split(',')[0]?.trim();
  const span = expr(source, 'spanIdExpression');
  const trace = expr(source, 'traceIdExpression');
  if (!table || !ts || !span || !trace) return undefined;
  return [
    `SELECT toString(${trace}) AS trace_id, ${ts} AS ts`,
    `FROM ${tableRef(source.from?.databaseName, table)}`,
    `WHERE ${span} = ${sqlString(spanId)}`,
    `  AND ${ts} >= fromUnixTimestamp64Milli(toInt64(${Math.floor(range.from)}))`,
    `  AND ${ts} <= fromUnixTimestamp64Milli(toInt64(${Math.ceil(range.to)}))`,
    'LIMIT 1',
  ].join('\n');
}

/** The waterfall row of a span (its first row when the ID is met twice), or -1. */
export function rowOfSpan(
  tree: { spans: readonly { spanId: string }[]; rows: readonly { span: number }[] },
  spanId: string,
): number {
  return tree.rows.findIndex((r) => tree.spans[r.span]?.spanId === spanId);
}

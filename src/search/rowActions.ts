/**
 * What a row's buttons do (no `vscode`): given the row's fields and the page's message, the details to show, the
 * trace to open, the text to copy, or the search changed (add to search, exclude, show column).
 */
import { sqlString } from '../render/sql';
import { appendCondition, fieldCondition, type DetailField } from './details';
import type { SearchRequest } from './model';
import type { FromPage, ToPage } from './protocol';

export type RowEffect =
  | { kind: 'details'; message: ToPage }
  /** `spanId`: the span to select in the trace (a span ID field of the row). */
  | { kind: 'openTrace'; traceId: string; spanId?: string }
  | { kind: 'copy'; text: string }
  /** The request was changed: search again. */
  | { kind: 'search' }
  | undefined;

export function rowEffect(m: FromPage, fields: readonly DetailField[], req: SearchRequest): RowEffect {
  if (!('index' in m)) return undefined;
  const traceExpr = String(req.source.traceIdExpression ?? '');
  const f = 'field' in m && typeof m.field === 'number' ? fields[m.field] : undefined;
  const trace = fields.find((x) => x.column === traceExpr && x.key === undefined && x.value !== '');
  const spanExprs = [req.source.spanIdExpression, req.source.parentSpanIdExpression].filter(
    (e): e is string => typeof e === 'string' && e !== '',
  );
  const isSpan = (x: DetailField) =>
    trace !== undefined && x.key === undefined && x.value !== '' && spanExprs.includes(x.column);
  switch (m.type) {
    case 'details':
      return {
        kind: 'details',
        message: {
          type: 'details',
          index: m.index,
          fields: fields.map((x) => ({
            name: x.name,
            value: x.value,
            more: x.more,
            trace: x.column === traceExpr && x.key === undefined && x.value !== '',
            ...(isSpan(x) ? { span: true } : {}),
          })),
        },
      };
    case 'openTrace':
      if (f && trace && isSpan(f)) return { kind: 'openTrace', traceId: trace.value, spanId: f.value };
      return f && f.value !== '' ? { kind: 'openTrace', traceId: f.value } : undefined;
    case 'copy':
      return f ? { kind: 'copy', text: f.value } : undefined;
    case 'addToSearch':
      if (!f || f.more !== undefined) return undefined;
      req.condition = appendCondition(req.condition, fieldCondition(f, f.value, req.language, m.negate), req.language);
      return { kind: 'search' };
    case 'showColumn': {
      if (!f || f.more !== undefined) return undefined;
      const expr = f.key === undefined ? f.column : `${f.column}[${sqlString(f.key)}]`;
      const current = req.select ?? String(req.source.defaultTableSelectExpression ?? '');
      if (current.split(',').some((c) => c.trim() === expr)) return undefined;
      req.select = current.trim() ? `${current}, ${expr}` : expr;
      return { kind: 'search' };
    }
    default:
      return undefined;
  }
}

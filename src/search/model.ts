/**
 * A search's model (no `vscode`): the two statements of `renderSearch` run through the SQL route the previews use, and
 * what the panel draws of them — the rows as bounded, sanitised text, and the histogram's counts per bucket and
 * severity (logs) or status code (spans). Server text is cut and stripped of ANSI and control characters here, and
 * the webview sets it as text only.
 */
import type { QueryResult } from '../api/query';
import { emptyHistogram, runHistogram, type HistogramModel } from './histogram';
import { rendered, type SearchRequest } from './request';

export { SEARCH_BYTES, SEARCH_ROWS, type RunSql, type SearchRequest, type SearchScope } from './request';
export { emptyHistogram, histogramOf, runHistogram, type HistogramModel } from './histogram';
export { boundedText, CELL_CHARS, DETAIL_CHARS, MAP_KEYS, timeOf } from './text';
export { fullRow, tableFacts } from './tableFacts';

export interface SearchModel {
  columns: string[];
  /** Raw cells of each row, as the server sent them (details read them). */
  raw: unknown[][];
  histogram: HistogramModel;
  rowsSql: string;
  histogramSql: string;
  /** Index of the trace ID column in the rows, when the source names one and it is shown. */
  traceIdColumn: number;
  /** Index of the span ID column in the rows, when the source names one and it is shown. */
  spanIdColumn: number;
  notes: string[];
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
  const spanExpr = typeof req.source.spanIdExpression === 'string' ? req.source.spanIdExpression.trim() : '';
  return {
    columns,
    raw: rows.rows as unknown[][],
    histogram: histogram ? await runHistogram(run, req) : emptyHistogram(),
    rowsSql: r.rows.sql,
    histogramSql: r.histogram.sql,
    traceIdColumn: traceExpr ? columns.indexOf(traceExpr) : -1,
    spanIdColumn: spanExpr ? columns.indexOf(spanExpr) : -1,
    notes: r.notes,
  };
}

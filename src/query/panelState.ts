/** What the query results panel shows and what its webview reported (types only). */
import type { QueryResult, ResultRows } from '../api/query';
import type { RenderedReport } from './panelMessages';

/** One statement of a run and its result. */
export interface StatementResult {
  sql: string;
  /** Its rows kept as text, parsed a range at a time when shown, copied or saved. */
  result: QueryResult<ResultRows>;
}

export interface ShownResult {
  result: QueryResult<ResultRows>;
  serviceName: string;
  sql: string;
  maxRows: number;
  maxBytes: number;
  /** Every statement of the run, in order, when it had several (the panel shows one and offers the others). */
  runs?: StatementResult[];
  /** Which of `runs` is shown (default: the last). */
  index?: number;
  /** The service the rows come from: a trace ID in them opens there. */
  target?: { connectionId: string; serviceId: string };
}

export interface PanelState {
  /** The last result shown (undefined before the first). */
  shown?: ShownResult;
  /** Milliseconds the webview reported for its last render (message received to painted table). */
  renderedMs?: number;
  /** Milliseconds from posting the result (or, when streamed, its summary) to the webview's report that it is painted. */
  panelMs?: number;
  /** When the webview reported the first rows of the last streamed result painted (`performance.now()` here). */
  firstPaintAt?: number;
  /** How many rows that first paint had. */
  firstPaintRows?: number;
  /** What the webview reported when it painted the table with its summary. */
  rendered?: RenderedReport;
  /** Rows the webview holds (all of the result once the batches after the first screen have arrived). */
  loadedRows?: number;
}

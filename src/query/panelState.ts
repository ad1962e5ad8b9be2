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

/**
 * When a result went through each stage on its way to the screen: epoch milliseconds on the machine's one clock
 * (`performance.timeOrigin + performance.now()`, the same in the extension host and the webview). A result shown whole
 * has no streamed stages (its first rows are its summary's).
 */
export interface ResultTimeline {
  /** Its sequence number in the panel. */
  seq: number;
  /** The query client handed over its first rows (extension host). */
  firstBatch?: number;
  /** The first rows were posted to the webview (extension host). */
  firstPosted?: number;
  /** The webview took that message, and painted the rows it brought (after the frame that shows them). */
  firstReceived?: number;
  firstPainted?: number;
  /** The summary was posted (extension host); the webview took it, and painted the table with it. */
  summaryPosted?: number;
  summaryReceived?: number;
  summaryPainted?: number;
  /** The webview's report of the painted table arrived in the extension host. */
  reportReceived?: number;
  /** Every row was in the webview's table (those in view rendered; the frame follows). */
  allRowsIn?: number;
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
  /** The stages of the last result shown (or streaming). */
  timeline?: ResultTimeline;
  /** Rows the webview holds (all of the result once the batches after the first screen have arrived). */
  loadedRows?: number;
}

/**
 * The messages between the query results panel and its webview (src/query/webview/main.ts), and the one place where
 * the webview's messages are read: `handleWebviewMessage` checks each and calls the panel's handler for it. A new
 * message from the webview is a case here and a handler in `WebviewMessageHandlers`.
 *
 * Plain TypeScript (no `vscode`).
 */
import type { QueryColumn } from '../api/query';
import type { StackLink } from '../codeModel';

/** The summary line of a result (streamed: the count so far and `streaming`; the rest comes with `done`). */
export interface ResultMeta {
  service: string;
  sql: string;
  rowCount: number;
  maxRows: number;
  maxBytes: number;
  truncated?: 'rows' | 'bytes' | null;
  elapsedMs?: number;
  bytes?: number;
  stats?: unknown;
  queryId?: string | null;
  statements?: string[];
  statementIndex?: number;
  statementsNote?: string;
  streaming?: true;
}

/** To the webview. Rows travel as one JSON string per message (it crosses the processes fastest). */
export type ToWebview =
  | {
      type: 'result';
      seq: number;
      columns: QueryColumn[];
      rowsJson: string;
      meta: ResultMeta;
      labels: Record<string, string>;
    }
  | { type: 'rows'; seq: number; from: number; rowsJson: string }
  | { type: 'done'; seq: number; meta: ResultMeta }
  | { type: 'abort'; seq: number }
  | { type: 'frames'; seq: number; cells: { row: number; col: number; links: StackLink[] }[] };

/** What the webview reported when it painted a result with its summary. */
export interface RenderedReport {
  rows: number;
  columns: number;
  chart: boolean;
  visibleRows: number;
  statements: number;
  statement: number;
}

/**
 * When the webview took a message and painted what it brought, on the machine's clock (epoch milliseconds:
 * `performance.timeOrigin + performance.now()`, the same in the extension host): `at` is after the frame that shows it
 * (for `loaded`, when the last rows were put in the table).
 */
export interface WebviewStamps {
  received?: number;
  at?: number;
}

/** Which report the stamps came with: the first rows painted, the table with its summary, every row in. */
export type StampedReport = 'painted' | 'rendered' | 'loaded';

/** The panel's side of each message from the webview. */
export interface WebviewMessageHandlers {
  /** The page loaded and listens. */
  ready(): void;
  /** A message of rows of result `seq` was taken. */
  ack(seq: number): void;
  /** The first rows of a streamed result are painted. */
  painted(rows: number): void;
  /** Result `seq` is painted with its summary, in `ms` from its message. */
  rendered(seq: number, ms: number, report: RenderedReport): void;
  /** Every row of the result shown is in the webview. */
  loaded(rows: number): void;
  /** The webview's clock for a report (before its handler runs); only when the message carries stamps. */
  timing?(report: StampedReport, seq: number, stamps: WebviewStamps): void;
  copy(format: string): Promise<unknown>;
  openJson(): Promise<unknown>;
  /** Show statement `index` (0-based) of the last run. */
  statement(index: number): Promise<unknown>;
  /** Open the trace of a cell: its text and the row's time (the page sends both); a span cell sends its span ID. */
  openTrace(cell: { traceId?: unknown; spanId?: unknown; time?: unknown }): Thenable<unknown>;
  /** Open the saved search of a cell in the search panel. */
  openSavedSearch?(savedSearchId: unknown): Thenable<unknown>;
  /** Open the workspace file of a stack-trace frame link in a cell (the id the extension handed out). */
  openFrame(id: number): Promise<unknown>;
}

/** Reads one message from the webview and hands it to its handler; anything else is ignored. */
export async function handleWebviewMessage(m: unknown, on: WebviewMessageHandlers): Promise<void> {
  if (typeof m !== 'object' || m === null) return;
  const msg = m as Record<string, unknown>;
  const stamps = stampsOf(msg);
  if (stamps && (msg.type === 'painted' || msg.type === 'rendered' || msg.type === 'loaded')) {
    on.timing?.(msg.type, Number(msg.seq), stamps);
  }
  switch (msg.type) {
    case 'ready':
      return on.ready();
    case 'ack':
      return on.ack(Number(msg.seq));
    case 'painted':
      return on.painted(Number(msg.rows));
    case 'rendered':
      return on.rendered(Number(msg.seq), Number(msg.ms), {
        rows: Number(msg.rows),
        columns: Number(msg.columns),
        chart: msg.chart === true,
        visibleRows: Number(msg.visibleRows),
        statements: Number(msg.statements ?? 1),
        statement: Number(msg.statement ?? 0),
      });
    case 'loaded':
      return on.loaded(Number(msg.rows));
    case 'copy':
      if (typeof msg.format === 'string') await on.copy(msg.format);
      return;
    case 'openJson':
      await on.openJson();
      return;
    case 'statement':
      if (Number.isInteger(msg.index)) await on.statement(msg.index as number);
      return;
    case 'openTrace':
      await on.openTrace({
        traceId: msg.traceId,
        time: msg.time,
        ...(msg.spanId !== undefined ? { spanId: msg.spanId } : {}),
      });
      return;
    case 'openSavedSearch':
      await on.openSavedSearch?.(msg.savedSearchId);
      return;
    case 'openFrame':
      if (Number.isInteger(msg.id)) await on.openFrame(msg.id as number);
      return;
  }
}

/** The finite `received` and `at` of a message, or undefined when it has neither. */
function stampsOf(msg: Record<string, unknown>): WebviewStamps | undefined {
  const out: WebviewStamps = {};
  for (const k of ['received', 'at'] as const) {
    const v = msg[k];
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  }
  return out.received === undefined && out.at === undefined ? undefined : out;
}

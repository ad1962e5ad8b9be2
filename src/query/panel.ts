/**
 * The query results panel: one reusable webview beside the editor. Its script is a separate bundle
 * (dist/queryResults.js, loaded by the page from the extension's dist/ folder) loaded only when the panel first opens;
 * strict CSP with a nonce, no remote content, theme colours only. Copy (CSV, JSON, Markdown) and Open as JSON run here, on the full result.
 *
 * A result is shown as its rows arrive (`stream`): the first rows the query client hands over open the panel and are
 * painted at once; the next ones follow in batches while the query runs, one batch in flight at a time (the webview
 * acknowledges each), so when the query ends its summary (row count, caps, time) is never queued behind a backlog of
 * rows: `show` sends it, the table is reported painted, and the rows not yet sent follow. A result that was not
 * streamed (another statement of a run) goes whole, its first screens first.
 */
import * as vscode from 'vscode';
import { toCsv, toJsonObjects, toMarkdown, type QueryColumn, type QueryResult } from '../api/query';
import { panelColumn, trackPanel } from '../panels/panelColumn';
import { html, makeNonce } from './panelHtml';

/** One statement of a run and its result. */
export interface StatementResult {
  sql: string;
  result: QueryResult;
}

export interface ShownResult {
  result: QueryResult;
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
  /** Milliseconds from posting the result (or, when streamed, its last rows and summary) to the webview's report that it is painted. */
  panelMs?: number;
  /** When the webview reported the first rows of the last streamed result painted (`performance.now()` here). */
  firstPaintAt?: number;
  /** How many rows that first paint had. */
  firstPaintRows?: number;
  /** What the webview reported when it first painted the table: rows of the result, whether the chart tab is offered. */
  rendered?: {
    rows: number;
    columns: number;
    chart: boolean;
    visibleRows: number;
    statements: number;
    statement: number;
  };
  /** Rows the webview holds (all of the result once the batches after the first screen have arrived). */
  loadedRows?: number;
}

/** Where a query shows its rows while it runs (see `ResultsPanel.stream`). */
export interface ResultStream {
  /** The rows of a block of the body, as the query client hands them over (`RunQueryOptions.onBatch`). */
  readonly onBatch: (rows: unknown[][], columns: readonly QueryColumn[]) => void;
  /** The query failed or was cancelled: the panel shows what it showed before. */
  abort(): void;
}

interface Streaming {
  seq: number;
  meta: { service: string; sql: string; maxRows: number; maxBytes: number };
  columns: QueryColumn[];
  pending: unknown[][][];
  pendingRows: number;
  /** Rows posted to the webview. */
  sent: number;
  /** Set once the first rows went (the panel open and its page ready). */
  opening?: Promise<void>;
  opened: boolean;
  /** A message of rows is on its way to the webview (until it acknowledges it). */
  inFlight: boolean;
  /** Once the query ended: the result's rows, the ones after `sent` still to go (one batch in flight at a time). */
  rest?: unknown[][];
  aborted: boolean;
}

/** Rows of the first message (a few screens); later messages carry up to BATCH rows each. */
const FIRST = 500;
const BATCH = 5000;

export class ResultsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready: Promise<void> | undefined;
  private readonly state: PanelState = {};
  private readonly renderWaiters = new Map<number, (s: PanelState) => void>();
  private sequence = 0;
  private streaming: Streaming | undefined;
  private readonly streams = new WeakMap<ResultStream, Streaming>();
  /** The service of the result shown (or streaming). */
  private target: ShownResult['target'];

  constructor(private readonly extensionUri: vscode.Uri) {}

  get current(): PanelState {
    return this.state;
  }

  /** A stream for the next result: its first rows open the panel (or reuse it) and are painted as they arrive. */
  stream(meta: {
    serviceName: string;
    sql: string;
    maxRows: number;
    maxBytes: number;
    target?: ShownResult['target'];
  }): ResultStream {
    this.target = meta.target;
    const s: Streaming = {
      seq: ++this.sequence,
      meta: { service: meta.serviceName, sql: meta.sql, maxRows: meta.maxRows, maxBytes: meta.maxBytes },
      columns: [],
      pending: [],
      pendingRows: 0,
      sent: 0,
      opened: false,
      inFlight: false,
      aborted: false,
    };
    this.streaming = s;
    const stream: ResultStream = {
      onBatch: (rows, columns) => {
        if (s.aborted || s.rest || this.streaming !== s || rows.length === 0) return;
        s.columns = [...columns];
        s.pending.push(rows);
        s.pendingRows += rows.length;
        if (!s.opening) s.opening = this.open(s);
        else this.flush(s);
      },
      abort: () => {
        if (s.aborted) return;
        s.aborted = true;
        if (this.streaming === s) this.streaming = undefined;
        if (s.opened) void this.panel?.webview.postMessage({ type: 'abort', seq: s.seq });
      },
    };
    this.streams.set(stream, s);
    return stream;
  }

  /** The first rows of a stream: the panel opens (its page loads while the query goes on), then they go at once. */
  private async open(s: Streaming): Promise<void> {
    this.state.firstPaintAt = undefined;
    this.state.firstPaintRows = undefined;
    const panel = this.ensure();
    await this.ready;
    if (s.aborted) return;
    const rows = this.take(s);
    void panel.webview.postMessage({
      type: 'result',
      seq: s.seq,
      columns: s.columns,
      rowsJson: JSON.stringify(rows.slice(0, FIRST)),
      meta: { ...s.meta, rowCount: rows.length, streaming: true },
      labels: labels(),
    });
    s.sent = Math.min(rows.length, FIRST);
    s.opened = true;
    s.inFlight = true;
    if (rows.length > FIRST) {
      s.pending.unshift(rows.slice(FIRST));
      s.pendingRows += rows.length - FIRST;
    }
  }

  private take(s: Streaming): unknown[][] {
    const rows = s.pending.length === 1 ? (s.pending[0] as unknown[][]) : s.pending.flat();
    s.pending = [];
    s.pendingRows = 0;
    return rows;
  }

  /** The rows waiting, in one message, unless one is on its way already (its acknowledgement flushes again). */
  private flush(s: Streaming): void {
    if (s.aborted || !s.opened || s.inFlight || this.streaming !== s) return;
    if (s.rest) {
      if (s.sent >= s.rest.length) {
        this.streaming = undefined;
        return;
      }
      this.post(s, s.rest.slice(s.sent, s.sent + BATCH));
      s.inFlight = true;
      return;
    }
    if (s.pendingRows === 0) return;
    const rows = this.take(s);
    if (rows.length > BATCH) {
      s.pending.push(rows.slice(BATCH));
      s.pendingRows = rows.length - BATCH;
    }
    this.post(s, rows.slice(0, BATCH));
    s.inFlight = true;
  }

  /** Rows after those sent, in messages of at most BATCH rows (one string each: it crosses the processes fastest). */
  private post(s: Streaming, rows: unknown[][]): void {
    for (let at = 0; at < rows.length; at += BATCH) {
      void this.panel?.webview.postMessage({
        type: 'rows',
        seq: s.seq,
        from: s.sent,
        rowsJson: JSON.stringify(rows.slice(at, at + BATCH)),
      });
      s.sent += Math.min(BATCH, rows.length - at);
    }
  }

  /**
   * Shows a result; resolves once the webview has painted it. With the stream its rows went to, only the rows not yet
   * sent and the summary go now.
   */
  async show(shown: ShownResult, stream?: ResultStream): Promise<PanelState> {
    const s = stream ? this.streams.get(stream) : undefined;
    const streamed = s !== undefined && this.streaming === s && !s.aborted && s.opening !== undefined;
    if (stream && !streamed) stream.abort();
    if (streamed) await s.opening;
    this.state.shown = shown;
    this.target = shown.target;
    this.state.loadedRows = undefined;
    this.state.rendered = undefined;
    this.state.renderedMs = undefined;
    const panel = this.ensure();
    await this.ready;
    const posted = performance.now();
    const r = shown.result;
    const seq = streamed ? s.seq : ++this.sequence;
    const rendered = new Promise<PanelState>((resolve) => {
      this.renderWaiters.set(seq, resolve);
      // A hidden or unresponsive webview must not hold the command: report what is known after a while.
      setTimeout(() => resolve({ ...this.state, rendered: undefined, renderedMs: undefined }), 20_000);
    });
    const meta = {
      service: shown.serviceName,
      sql: shown.sql,
      rowCount: r.rows.length,
      truncated: r.truncated ?? null,
      maxRows: shown.maxRows,
      maxBytes: shown.maxBytes,
      elapsedMs: Math.round(r.elapsedMs),
      bytes: r.bytes,
      stats: r.stats ?? null,
      queryId: r.queryId ?? null,
      ...statementsMeta(shown),
    };
    if (streamed) {
      s.pending = [];
      s.pendingRows = 0;
      // The summary first (the table is then reported painted), then the result's own rows after those sent, as
      // the webview takes them (a flood of messages would hold up its painting).
      void panel.webview.postMessage({ type: 'done', seq, meta });
      s.rest = r.rows;
      this.flush(s);
    } else {
      this.state.firstPaintAt = undefined;
      this.state.firstPaintRows = undefined;
      // The first screens go first so the table paints at once; the rest follows in large batches.
      void panel.webview.postMessage({
        type: 'result',
        seq,
        columns: r.columns,
        rowsJson: JSON.stringify(r.rows.slice(0, FIRST)),
        meta,
        labels: labels(),
      });
      for (let from = FIRST; from < r.rows.length; from += BATCH) {
        void panel.webview.postMessage({
          type: 'rows',
          seq,
          from,
          rowsJson: JSON.stringify(r.rows.slice(from, from + BATCH)),
        });
      }
    }
    const state = await rendered;
    this.renderWaiters.delete(seq);
    this.state.panelMs = performance.now() - posted;
    return { ...state, panelMs: this.state.panelMs };
  }

  /** Shows another statement of the last run (0-based); undefined when there is no such statement. */
  async showStatement(index: number): Promise<PanelState | undefined> {
    const s = this.state.shown;
    const run = s?.runs?.[index];
    if (!s || !run) return undefined;
    return this.show({ ...s, result: run.result, sql: run.sql, index });
  }

  private ensure(): vscode.WebviewPanel {
    if (this.panel) {
      if (!this.panel.visible) this.panel.reveal(undefined, true);
      return this.panel;
    }
    const media = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel(
      'observability.queryResults',
      vscode.l10n.t('Query Results'),
      { viewColumn: panelColumn(), preserveFocus: true },
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        // The page loads its script from dist/ and nothing else from disk.
        localResourceRoots: [media],
      },
    );
    const nonce = makeNonce();
    const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'queryResults.js')).toString();
    panel.webview.html = html(panel.webview.cspSource, nonce, script);
    let markReady: () => void = () => undefined;
    this.ready = new Promise<void>((resolve) => (markReady = resolve));
    panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m, markReady));
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = undefined;
      // A result on its way to the closed page is shown whole when its query ends.
      if (this.streaming) this.streaming.aborted = true;
      this.streaming = undefined;
    });
    trackPanel(panel);
    this.panel = panel;
    return panel;
  }

  private async onMessage(m: unknown, markReady: () => void): Promise<void> {
    if (typeof m !== 'object' || m === null) return;
    const msg = m as {
      type?: unknown;
      seq?: unknown;
      format?: unknown;
      ms?: unknown;
      rows?: unknown;
      columns?: unknown;
      chart?: unknown;
      visibleRows?: unknown;
      statements?: unknown;
      statement?: unknown;
      index?: unknown;
    };
    if (msg.type === 'ready') markReady();
    else if (msg.type === 'ack') {
      const s = this.streaming;
      if (s && s.seq === Number(msg.seq)) {
        s.inFlight = false;
        this.flush(s);
      }
    } else if (msg.type === 'painted') {
      this.state.firstPaintAt ??= performance.now();
      this.state.firstPaintRows ??= Number(msg.rows);
    } else if (msg.type === 'rendered') {
      this.state.renderedMs = Number(msg.ms);
      this.state.rendered = {
        rows: Number(msg.rows),
        columns: Number(msg.columns),
        chart: msg.chart === true,
        visibleRows: Number(msg.visibleRows),
        statements: Number(msg.statements ?? 1),
        statement: Number(msg.statement ?? 0),
      };
      this.state.firstPaintAt ??= performance.now();
      this.state.firstPaintRows ??= Math.min(Number(msg.rows), FIRST);
      this.renderWaiters.get(Number(msg.seq))?.(this.state);
    } else if (msg.type === 'loaded') {
      this.state.loadedRows = Number(msg.rows);
    } else if (msg.type === 'copy' && typeof msg.format === 'string') await this.copy(msg.format);
    else if (msg.type === 'openJson') await this.openJson();
    else if (msg.type === 'openTrace') await this.openTrace(msg as { traceId?: unknown; time?: unknown });
    else if (msg.type === 'statement' && Number.isInteger(msg.index)) await this.showStatement(msg.index as number);
  }

  /** Copies the whole result; returns the text. */
  async copy(format: string): Promise<string | undefined> {
    const s = this.state.shown;
    if (!s) return undefined;
    const { columns, rows } = s.result;
    const text =
      format === 'csv'
        ? toCsv(columns, rows)
        : format === 'markdown'
          ? toMarkdown(columns, rows)
          : JSON.stringify(toJsonObjects(columns, rows), null, 2);
    await vscode.env.clipboard.writeText(text);
    void vscode.window.setStatusBarMessage(
      vscode.l10n.t('Copied {0} rows as {1}.', rows.length, format.toUpperCase()),
      3000,
    );
    return text;
  }

  /**
   * Opens the trace of a cell (the page sends its text and the row's time) on the result's service: the command
   * checks the ID, and reads an hour either side of the time.
   */
  openTrace(cell: { traceId?: unknown; time?: unknown }): Thenable<unknown> {
    if (typeof cell.traceId !== 'string') return Promise.resolve(undefined);
    const time = typeof cell.time === 'string' || typeof cell.time === 'number' ? { time: cell.time } : {};
    return vscode.commands.executeCommand('observability.openTrace', {
      ...this.target,
      traceId: cell.traceId,
      ...time,
    });
  }

  async openJson(): Promise<vscode.TextDocument | undefined> {
    const s = this.state.shown;
    if (!s) return undefined;
    const doc = await vscode.workspace.openTextDocument({
      language: 'json',
      content: JSON.stringify(toJsonObjects(s.result.columns, s.result.rows), null, 2),
    });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Active, preview: false });
    return doc;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

/** The statement picker of a run with several statements: a label per statement and a note on which is shown. */
function statementsMeta(shown: ShownResult): {
  statements?: string[];
  statementIndex?: number;
  statementsNote?: string;
} {
  const runs = shown.runs ?? [];
  if (runs.length < 2) return {};
  const index = shown.index ?? runs.length - 1;
  const oneLine = (sql: string): string => {
    const s = sql.replace(/\s+/g, ' ').trim();
    return s.length > 60 ? `${s.slice(0, 60)}…` : s;
  };
  return {
    statements: runs.map((r, i) =>
      vscode.l10n.t('{0}. {1} — {2} rows', i + 1, oneLine(r.sql), r.result.rows.length.toLocaleString()),
    ),
    statementIndex: index,
    statementsNote:
      index === runs.length - 1
        ? vscode.l10n.t('{0} statements ran; showing the last', runs.length)
        : vscode.l10n.t('{0} statements ran; showing statement {1}', runs.length, index + 1),
  };
}

function labels(): Record<string, string> {
  return {
    table: vscode.l10n.t('Table'),
    chart: vscode.l10n.t('Chart'),
    copyCsv: vscode.l10n.t('Copy CSV'),
    copyJson: vscode.l10n.t('Copy JSON'),
    copyMarkdown: vscode.l10n.t('Copy Markdown'),
    openJson: vscode.l10n.t('Open as JSON'),
    rows: vscode.l10n.t('rows'),
    truncatedRows: vscode.l10n.t('stopped at the row limit'),
    truncatedBytes: vscode.l10n.t('stopped at the size limit'),
    read: vscode.l10n.t('read'),
    chartTable: vscode.l10n.t('Chart data as a table'),
    readoutHint: vscode.l10n.t('Hover the chart, or focus it and press ← →, to read the values.'),
    noRows: vscode.l10n.t('The query returned no rows.'),
    receiving: vscode.l10n.t('receiving rows…'),
  };
}

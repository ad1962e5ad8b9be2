/**
 * The query results panel: one reusable webview beside the editor (its page and script: panelHtml.ts,
 * webview/main.ts, loaded only when the panel first opens). Copy (CSV, JSON, Markdown) and Open as JSON run here, on
 * the full result.
 *
 * A result is shown as its rows arrive (`stream`, resultFeed.ts): its first rows open the panel and are painted at once,
 * and when the query ends `show` sends its summary and resolves once the webview reports the table painted. The
 * messages both ways are in panelMessages.ts, where the webview's are read; `handlers` says what each does here.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../errors';
import { trackPanel } from '../panels/panelColumn';
import { CellFrames } from './cellFrames';
import { MAX_SCANNED_ROWS } from './cellStacks';
import { createResultsWebview } from './panelHtml';
import { labels, summaryMeta } from './panelLabels';
import { handleWebviewMessage, type WebviewMessageHandlers } from './panelMessages';
import type { PanelState, ShownResult } from './panelState';
import { clock, FIRST, ResultFeed, type ResultStream } from './resultFeed';
import { stampFeed, stampWebview } from './resultTimeline';
import { copyResult, openCellSavedSearch, openCellTrace, openResultJson } from './resultActions';

export type { PanelState, ResultTimeline, ShownResult, StatementResult } from './panelState';
export { clock } from './resultFeed';
export type { ResultStream } from './resultFeed';

export class ResultsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready: Promise<void> | undefined;
  private readonly state: PanelState = {};
  private readonly renderWaiters = new Map<number, (s: PanelState) => void>();
  /** The service of the result shown (or streaming). */
  private target: ShownResult['target'];
  /** The stack-trace frames in the cells of the results shown that open a workspace file. */
  private readonly cellFrames = new CellFrames();
  private readonly feed = new ResultFeed({
    open: async () => {
      this.state.firstPaintAt = undefined;
      this.state.firstPaintRows = undefined;
      this.ensure();
      await this.ready;
    },
    post: (message) => void this.panel?.webview.postMessage(message),
    labels,
    stamp: (seq, stage) => stampFeed(this.state, seq, stage, clock()),
    failed: (error) => void vscode.window.showErrorMessage(errorMessage(error)),
  });

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
    const { serviceName: service, sql, maxRows, maxBytes } = meta;
    this.target = meta.target;
    return this.feed.stream({ service, sql, maxRows, maxBytes });
  }

  /**
   * Shows a result; resolves once the webview has painted it. With the stream its rows went to, only the summary goes
   * now (the rows not yet sent follow once it is painted).
   */
  async show(shown: ShownResult, stream?: ResultStream): Promise<PanelState> {
    return (await this.present(shown, stream)).painted;
  }

  /**
   * Posts a result (with its stream: its summary) and resolves once it is posted, with `painted`: resolves once the
   * webview has painted it (or after 20 s, with what is known, when the webview is hidden or does not answer).
   */
  async present(shown: ShownResult, stream?: ResultStream): Promise<{ painted: Promise<PanelState> }> {
    const streamed = await this.feed.claim(stream);
    this.ensure();
    await this.ready;
    const posted = performance.now();
    // Posted first: a result whose first rows cannot be read throws here, and the result shown stays the panel's.
    let seq: number;
    if (streamed) {
      this.feed.finish(streamed, shown.result.rows, summaryMeta(shown));
      seq = streamed.seq;
    } else seq = this.feed.sendWhole(shown.result.columns, shown.result.rows, summaryMeta(shown));
    Object.assign(this.state, { shown, loadedRows: undefined, rendered: undefined, renderedMs: undefined });
    if (!streamed) Object.assign(this.state, { firstPaintAt: undefined, firstPaintRows: undefined });
    this.target = shown.target;
    const report = new Promise<PanelState>((resolve) => {
      this.renderWaiters.set(seq, resolve);
      setTimeout(() => resolve({ ...this.state, rendered: undefined, renderedMs: undefined }), 20_000);
    });
    const painted = report.then((state) => {
      this.renderWaiters.delete(seq);
      this.state.panelMs = performance.now() - posted;
      setTimeout(() => {
        let rows: unknown[][];
        try {
          rows = shown.result.rows.slice(0, MAX_SCANNED_ROWS);
        } catch {
          return; // Rows that cannot be read: the feed says so.
        }
        void this.cellFrames.send(seq, rows, (m) => void this.panel?.webview.postMessage(m));
      });
      return { ...state, panelMs: this.state.panelMs };
    });
    return { painted };
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
    const panel = createResultsWebview(this.extensionUri);
    let markReady: () => void = () => undefined;
    this.ready = new Promise<void>((resolve) => (markReady = resolve));
    const on = this.handlers(markReady);
    panel.webview.onDidReceiveMessage((m: unknown) => handleWebviewMessage(m, on));
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = undefined;
      this.feed.closed();
    });
    trackPanel(panel);
    this.panel = panel;
    return panel;
  }

  /** What the panel does with each message of its webview (read and checked in panelMessages.ts). */
  private handlers(markReady: () => void): WebviewMessageHandlers {
    return {
      ready: markReady,
      ack: (seq) => this.feed.acknowledged(seq),
      timing: (report, seq, stamps) => stampWebview(this.state, report, seq, stamps, clock()),
      painted: (rows) => {
        this.state.firstPaintAt ??= performance.now();
        this.state.firstPaintRows ??= rows;
      },
      rendered: (seq, ms, report) => {
        this.state.renderedMs = ms;
        this.state.rendered = report;
        this.state.firstPaintAt ??= performance.now();
        this.state.firstPaintRows ??= Math.min(report.rows, FIRST);
        this.renderWaiters.get(seq)?.(this.state);
        this.feed.painted(seq);
      },
      loaded: (rows) => {
        this.state.loadedRows = rows;
      },
      copy: (format) => this.copy(format),
      openJson: () => this.openJson(),
      statement: (index) => this.showStatement(index),
      openTrace: (cell) => this.openTrace(cell),
      openFrame: (id) => this.cellFrames.open(id, this.panel?.viewColumn),
      openSavedSearch: (id) => this.openSavedSearch(id),
    };
  }

  /** Copies the whole result; returns the text. */
  copy(format: string): Promise<string | undefined> {
    return copyResult(this.state.shown, format);
  }

  /** Opens the trace of a cell on the result's service (see `openCellTrace`). */
  openTrace(cell: { traceId?: unknown; spanId?: unknown; time?: unknown }): Thenable<unknown> {
    return openCellTrace(this.target, cell);
  }

  /** Opens the saved search of a cell (its ID) on the result's service in the search panel. */
  openSavedSearch(savedSearchId: unknown): Thenable<unknown> {
    return openCellSavedSearch(this.target, savedSearchId);
  }

  openJson(): Promise<vscode.TextDocument | undefined> {
    return openResultJson(this.state.shown);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

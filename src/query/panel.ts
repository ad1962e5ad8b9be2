/**
 * The query results panel: one reusable webview beside the editor. Its script is a separate bundle
 * (dist/queryResults.js, loaded by the page from the extension's dist/ folder) loaded only when the panel first opens;
 * strict CSP with a nonce, no remote content, theme colours only. Copy (CSV, JSON, Markdown) and Open as JSON run here, on the full result.
 */
import * as vscode from 'vscode';
import { toCsv, toJsonObjects, toMarkdown, type QueryResult } from '../api/query';
import { panelColumn, trackPanel } from '../panels/panelColumn';

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
}

export interface PanelState {
  /** The last result shown (undefined before the first). */
  shown?: ShownResult;
  /** Milliseconds the webview reported for its last render (message received to painted table). */
  renderedMs?: number;
  /** Milliseconds from posting the result to the webview's report that it is painted. */
  panelMs?: number;
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

export class ResultsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready: Promise<void> | undefined;
  private readonly state: PanelState = {};
  private readonly renderWaiters: ((s: PanelState) => void)[] = [];
  private sequence = 0;

  constructor(private readonly extensionUri: vscode.Uri) {}

  get current(): PanelState {
    return this.state;
  }

  /** Shows a result; resolves once the webview has rendered it. */
  async show(shown: ShownResult): Promise<PanelState> {
    this.state.shown = shown;
    this.state.loadedRows = undefined;
    this.state.rendered = undefined;
    this.state.renderedMs = undefined;
    const panel = this.ensure();
    await this.ready;
    const posted = performance.now();
    const rendered = new Promise<PanelState>((resolve) => {
      this.renderWaiters.push(resolve);
      // A hidden or unresponsive webview must not hold the command: report what is known after a while.
      setTimeout(() => resolve({ ...this.state, rendered: undefined, renderedMs: undefined }), 20_000);
    });
    const r = shown.result;
    // The first screens go first so the table paints at once; the rest follows in large batches.
    const FIRST = 500;
    const BATCH = 5000;
    const seq = ++this.sequence;
    void panel.webview.postMessage({
      type: 'result',
      seq,
      columns: r.columns,
      // One string crosses the process boundaries faster than a tree of arrays.
      rowsJson: JSON.stringify(r.rows.slice(0, FIRST)),
      meta: {
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
      },
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
    const state = await rendered;
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
    });
    trackPanel(panel);
    this.panel = panel;
    return panel;
  }

  private async onMessage(m: unknown, markReady: () => void): Promise<void> {
    if (typeof m !== 'object' || m === null) return;
    const msg = m as {
      type?: unknown;
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
    else if (msg.type === 'rendered') {
      this.state.renderedMs = Number(msg.ms);
      this.state.rendered = {
        rows: Number(msg.rows),
        columns: Number(msg.columns),
        chart: msg.chart === true,
        visibleRows: Number(msg.visibleRows),
        statements: Number(msg.statements ?? 1),
        statement: Number(msg.statement ?? 0),
      };
      for (const w of this.renderWaiters.splice(0)) w(this.state);
    } else if (msg.type === 'loaded') {
      this.state.loadedRows = Number(msg.rows);
    } else if (msg.type === 'copy' && typeof msg.format === 'string') await this.copy(msg.format);
    else if (msg.type === 'openJson') await this.openJson();
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
  };
}

function makeNonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 32; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
  return s;
}

function html(cspSource: string, nonce: string, scriptUri: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Query Results</title>
<style nonce="${nonce}">
  body { display: flex; flex-direction: column; height: 100vh; overflow: hidden; padding: 0; margin: 0; color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  header { flex: none; display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 6px 8px; border-bottom: 1px solid var(--vscode-panel-border); }
  .meta { flex: 1 1 auto; color: var(--vscode-descriptionForeground); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .meta .warn { color: var(--vscode-editorWarning-foreground); }
  button { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); border: 1px solid var(--vscode-button-border, transparent); padding: 2px 8px; cursor: pointer; font: inherit; white-space: nowrap; }
  select { color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border: 1px solid var(--vscode-dropdown-border, transparent); font: inherit; max-width: 40ch; }
  button:hover { background: var(--vscode-button-secondaryHoverBackground); }
  button:focus-visible, [tabindex]:focus-visible, [role=tab]:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  [role=tablist] { display: flex; gap: 2px; }
  [role=tab] { background: transparent; border: none; border-bottom: 2px solid transparent; color: var(--vscode-foreground); }
  [role=tab][aria-selected=true] { border-bottom-color: var(--vscode-focusBorder); }
  #viewport { flex: 1 1 auto; position: relative; overflow: auto; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
  .hdr { position: sticky; top: 0; z-index: 1; display: flex; background: var(--vscode-editorWidget-background); border-bottom: 1px solid var(--vscode-panel-border); }
  .hdr div { box-sizing: border-box; padding: 2px 6px; font-weight: 600; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
  .hdr small { display: block; font-weight: normal; color: var(--vscode-descriptionForeground); }
  .row { position: absolute; left: 0; display: flex; height: 22px; line-height: 22px; }
  .row:nth-child(even) { background: var(--vscode-list-hoverBackground); }
  .row div { box-sizing: border-box; padding: 0 6px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
  .num { text-align: right; }
  .null { color: var(--vscode-descriptionForeground); font-style: italic; }
  #chart { flex: 1 1 auto; overflow: auto; padding: 8px; box-sizing: border-box; }
  #chart svg text { fill: var(--vscode-descriptionForeground); font-size: 11px; }
  #chart .axis { stroke: var(--vscode-panel-border); }
  .legend { display: flex; flex-wrap: wrap; gap: 12px; margin: 6px 0; }
  .legend span::before { content: ''; display: inline-block; width: 10px; height: 10px; margin-right: 4px; background: currentColor; }
  .readout { display: flex; flex-wrap: wrap; gap: 2px 12px; min-height: 1.4em; margin: 4px 0; color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
  .readout strong { color: var(--vscode-foreground); }
  .readout .item::before { content: ''; display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; background: var(--swatch); }
  #chart svg .cursor { stroke: var(--vscode-descriptionForeground); stroke-dasharray: 3 3; }
  #chart svg:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  table.data { border-collapse: collapse; margin-top: 8px; }
  table.data th, table.data td { border: 1px solid var(--vscode-panel-border); padding: 2px 6px; text-align: left; }
  .empty { padding: 16px; color: var(--vscode-descriptionForeground); }
  [hidden] { display: none !important; }
</style>
</head>
<body>
<header>
  <div role="tablist" aria-label="View">
    <button role="tab" id="tab-table" aria-selected="true" aria-controls="viewport">Table</button>
    <button role="tab" id="tab-chart" aria-selected="false" aria-controls="chart" hidden>Chart</button>
  </div>
  <select id="statement" hidden></select>
  <div class="meta" id="meta" role="status" aria-live="polite"></div>
  <button id="copy-csv">Copy CSV</button>
  <button id="copy-json">Copy JSON</button>
  <button id="copy-md">Copy Markdown</button>
  <button id="open-json">Open as JSON</button>
</header>
<div id="viewport" tabindex="0" role="grid" aria-label="Query results"></div>
<div id="chart" role="tabpanel" aria-labelledby="tab-chart" hidden></div>
<script nonce="${nonce}" src="${scriptUri}"></script>
</body>
</html>`;
}

/**
 * The tile preview and alert backtest panels: one reusable webview each, beside the editor. Their script and styles
 * are a bundle of their own (dist/preview.js, dist/preview.css, loaded by the page from the extension's dist/ folder)
 * loaded only when a panel first opens; strict CSP with a nonce, no remote content, theme colours only. The webview is not kept while hidden
 * (`retainContextWhenHidden: false`): when it is shown again it asks for the data, and the panel sends what it showed
 * last, with the range.
 *
 * Data comes in through `show()`; the webview's requests (range change, refresh) go out as events for whoever feeds
 * the panel; Open as Table and Copy run here on the data the panel holds.
 */
import * as vscode from 'vscode';
import { PREVIEW_VIEW_TYPES } from '../constants';
import { panelColumn, trackPanel } from '../panels/panelColumn';
import {
  dataAsTable,
  parseFromWebview,
  toTsv,
  type FromWebview,
  type PanelMode,
  type PreviewData,
  type RangePreset,
  type RenderedSummary,
  type RestoreTarget,
  type ShowMessage,
  type TileData,
  type TimeRange,
} from './protocol';
import { makeNonce } from '../panels/webviewPage';

export interface PreviewShowOptions {
  /** Panel title (default: the data's title). */
  title?: string;
  /** The range the data covers (default: the panel's current range). */
  range?: TimeRange;
  /** What the data is of, by reference: kept in the webview's state so a window reload brings the panel back. */
  restore?: RestoreTarget;
  /**
   * Bring an open panel that is hidden behind another tab to the front (default true). False for redraws the panel
   * asked for itself: a hidden panel gets the data when it is shown again.
   */
  reveal?: boolean;
  /** The `observability.searchEvents` arguments of each tile's events, by tile ID ('' for a single tile). */
  searches?: Record<string, Record<string, unknown>>;
}

export interface RenderedState {
  seq: number;
  /** Message received in the webview to the next frame painted, ms. */
  ms: number;
  /** Of which parsing the data, ms. */
  parseMs: number;
  /** Of which building the DOM and the charts (synchronous part), ms. */
  drawMs: number;
  /** Message received to the charts' canvases drawn (uPlot draws in a microtask after building), ms. */
  canvasMs: number;
  summary: RenderedSummary;
}

/** Requests of the webview that the panel's owner answers. */
export type PanelRequest = { type: 'range'; range: TimeRange } | { type: 'refresh' };

const VIEW_TYPES: Record<PanelMode, string> = PREVIEW_VIEW_TYPES;
const PRESETS: Record<PanelMode, RangePreset[]> = {
  preview: ['15m', '1h', '6h', '24h', '7d'],
  backtest: ['24h', '7d'],
};
const DEFAULT_RANGE: Record<PanelMode, TimeRange> = { preview: { preset: '1h' }, backtest: { preset: '24h' } };

export class PreviewPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready: Promise<void> | undefined;
  private markReady: () => void = () => undefined;
  private data: PreviewData | undefined;
  private title: string | undefined;
  private restoreTarget: RestoreTarget | undefined;
  private searches: Record<string, Record<string, unknown>> = {};
  private rangeValue: TimeRange;
  private seq = 0;
  private sentOnce = false;
  private lastRendered: RenderedState | undefined;
  private readonly waiters = new Map<number, (r: RenderedState | undefined) => void>();
  /** Waiters for any drawing; each returns true once satisfied. */
  private readonly anyRender: ((r: RenderedState | undefined) => boolean)[] = [];
  private readonly requests = new vscode.EventEmitter<PanelRequest>();
  /** The webview asked for another range or a refresh: fetch and `show()` again. */
  readonly onDidRequest = this.requests.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    readonly mode: PanelMode,
    private readonly log?: vscode.LogOutputChannel,
  ) {
    this.rangeValue = DEFAULT_RANGE[mode];
  }

  /** The range the panel shows (changed by the picker). */
  get range(): TimeRange {
    return this.rangeValue;
  }

  /** What the webview last reported drawing. */
  get rendered(): RenderedState | undefined {
    return this.lastRendered;
  }

  get visible(): boolean {
    return this.panel?.visible ?? false;
  }

  get viewColumn(): vscode.ViewColumn | undefined {
    return this.panel?.viewColumn;
  }

  /** Shows the panel again if it is open; a webview rebuilt after being hidden gets the last data again. */
  reveal(): void {
    this.panel?.reveal(undefined, true);
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Shows data (opening or revealing the panel); resolves once the webview has drawn it (undefined after 20 s). */
  async show(data: PreviewData, opts: PreviewShowOptions = {}): Promise<RenderedState | undefined> {
    this.data = data;
    this.title = opts.title ?? data.title;
    if (opts.range) this.rangeValue = opts.range;
    this.restoreTarget = opts.restore;
    this.searches = opts.searches ?? {};
    this.ensure(opts.reveal ?? true);
    return this.post();
  }

  /** Resolves with the next drawing the webview reports that `accept`s (e.g. after a theme change); undefined on time-out. */
  nextRender(
    accept: (r: RenderedState) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<RenderedState | undefined> {
    return new Promise((resolve) => {
      const waiter = (r: RenderedState | undefined): boolean => {
        if (r !== undefined && !accept(r)) return false;
        clearTimeout(timer);
        resolve(r);
        return true;
      };
      const timer = setTimeout(() => {
        const i = this.anyRender.indexOf(waiter);
        if (i >= 0) this.anyRender.splice(i, 1);
        resolve(undefined);
      }, timeoutMs);
      this.anyRender.push(waiter);
    });
  }

  private async post(): Promise<RenderedState | undefined> {
    const panel = this.panel;
    if (!panel || !this.data) return undefined;
    await this.ready;
    panel.title = this.panelTitle();
    const seq = ++this.seq;
    const message: ShowMessage = {
      type: 'show',
      seq,
      mode: this.mode,
      range: this.rangeValue,
      presets: PRESETS[this.mode],
      dataJson: JSON.stringify(this.data),
      labels: labels(),
      searchable: Object.keys(this.searches),
      ...(this.restoreTarget ? { restore: this.restoreTarget } : {}),
    };
    const drawn = new Promise<RenderedState | undefined>((resolve) => {
      this.waiters.set(seq, resolve);
      // A hidden or unresponsive webview must not hold the caller.
      setTimeout(() => {
        if (this.waiters.delete(seq)) resolve(undefined);
      }, 20_000);
    });
    this.sentOnce = true;
    void panel.webview.postMessage(message);
    return drawn;
  }

  private panelTitle(): string {
    const what = this.title ?? '';
    return this.mode === 'backtest' ? vscode.l10n.t('Backtest: {0}', what) : vscode.l10n.t('Preview: {0}', what);
  }

  private ensure(reveal = true): vscode.WebviewPanel {
    if (this.panel) {
      if (!this.panel.visible && reveal) this.panel.reveal(undefined, true);
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPES[this.mode],
      this.panelTitle(),
      { viewColumn: panelColumn(), preserveFocus: true },
      this.webviewOptions(),
    );
    return this.attach(panel);
  }

  /**
   * Takes over a panel VS Code restored after a window reload (its serializer's `deserializeWebviewPanel`), with the
   * range the webview had saved; the caller then fetches and `show()`s its data. When this panel is already open
   * (opened again before the restore), the restored one is closed: one panel of each kind.
   */
  adopt(panel: vscode.WebviewPanel, range?: TimeRange): boolean {
    if (this.panel && this.panel !== panel) {
      panel.dispose();
      return false;
    }
    if (range) this.rangeValue = range;
    panel.webview.options = this.webviewOptions();
    this.attach(panel);
    return true;
  }

  private webviewOptions(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      retainContextWhenHidden: false,
      // The page loads its script and style sheet from dist/ and nothing else from disk.
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')],
    };
  }

  private attach(panel: vscode.WebviewPanel): vscode.WebviewPanel {
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    this.ready = new Promise<void>((resolve) => (this.markReady = resolve));
    panel.webview.html = previewHtml(panel.webview, dist, this.mode);
    panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(parseFromWebview(m)));
    panel.onDidDispose(() => {
      if (this.panel !== panel) return;
      this.panel = undefined;
      this.ready = undefined;
      this.sentOnce = false;
      for (const [seq, w] of this.waiters) {
        this.waiters.delete(seq);
        w(undefined);
      }
    });
    trackPanel(panel);
    this.panel = panel;
    return panel;
  }

  private async onMessage(m: FromWebview | undefined): Promise<void> {
    if (!m) return;
    switch (m.type) {
      case 'ready': {
        this.markReady();
        // The webview was rebuilt after being hidden (or while a message was on its way): it starts empty, so send
        // the data again; whoever waited for the lost message gets this drawing.
        if (!this.sentOnce || !this.data) break;
        const pending = [...this.waiters.entries()];
        this.waiters.clear();
        const r = await this.post();
        for (const [, w] of pending) w(r);
        break;
      }
      case 'rendered': {
        const r: RenderedState = {
          seq: m.seq,
          ms: m.ms,
          parseMs: m.parseMs,
          drawMs: m.drawMs,
          canvasMs: m.canvasMs,
          summary: m.summary,
        };
        this.lastRendered = r;
        this.log?.debug(`preview: ${m.summary.kind} drawn in ${m.ms.toFixed(1)} ms`);
        this.waiters.get(m.seq)?.(r);
        this.waiters.delete(m.seq);
        for (const w of [...this.anyRender]) if (w(r)) this.anyRender.splice(this.anyRender.indexOf(w), 1);
        break;
      }
      case 'range':
        this.rangeValue = m.range;
        this.requests.fire(m);
        break;
      case 'refresh':
        this.requests.fire(m);
        break;
      case 'openTable':
        await this.openAsTable(m.tileId);
        break;
      case 'copy':
        await this.copy(m.tileId);
        break;
      case 'search':
        await this.search(m.tileId);
        break;
    }
  }

  /** The data of the shown tile, or of one tile of a shown dashboard. */
  private tileData(tileId?: string): { name: string; data: TileData } | undefined {
    const d = this.data;
    if (!d) return undefined;
    if (d.kind === 'dashboard') {
      const tile = d.tiles.find((t) => t.id === tileId);
      return tile ? { name: tile.name ?? tile.data.title ?? tile.id, data: tile.data } : undefined;
    }
    return tileId === undefined ? { name: d.title ?? '', data: d } : undefined;
  }

  /** Opens Search Events on a tile's events (its source, condition and range); its outcome, or undefined. */
  async search(tileId?: string): Promise<unknown> {
    const args = this.searches[tileId ?? ''];
    return args ? vscode.commands.executeCommand('observability.searchEvents', args) : undefined;
  }

  /** Copies a tile's data as tab-separated text; returns the text (undefined when the tile has no tabular data). */
  async copy(tileId?: string): Promise<string | undefined> {
    const tile = this.tileData(tileId);
    const table = tile && dataAsTable(tile.data);
    if (!table) return undefined;
    const text = toTsv(table);
    await vscode.env.clipboard.writeText(text);
    void vscode.window.setStatusBarMessage(
      vscode.l10n.t('Copied {0} rows of {1}.', table.rows.length, tile.name),
      3000,
    );
    return text;
  }

  /** Opens a tile's data as a CSV document beside the panel. */
  async openAsTable(tileId?: string): Promise<vscode.TextDocument | undefined> {
    const tile = this.tileData(tileId);
    const table = tile && dataAsTable(tile.data);
    if (!table) return undefined;
    const cell = (v: unknown): string => {
      const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
      return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    const content = [table.columns.map(cell).join(','), ...table.rows.map((r) => r.map(cell).join(','))].join('\n');
    const doc = await vscode.workspace.openTextDocument({ language: 'csv', content });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Active, preview: false });
    return doc;
  }

  dispose(): void {
    this.panel?.dispose();
    this.requests.dispose();
  }
}

function labels(): Record<string, string> {
  return {
    refresh: vscode.l10n.t('Refresh'),
    openTable: vscode.l10n.t('Open as Table'),
    copy: vscode.l10n.t('Copy'),
    search: vscode.l10n.t('Search Events'),
    apply: vscode.l10n.t('Apply'),
    timeRange: vscode.l10n.t('Time range'),
    range15m: vscode.l10n.t('15 m'),
    range1h: vscode.l10n.t('1 h'),
    range6h: vscode.l10n.t('6 h'),
    range24h: vscode.l10n.t('24 h'),
    range7d: vscode.l10n.t('7 d'),
    rangeCustom: vscode.l10n.t('Custom…'),
    badRange: vscode.l10n.t('Choose a start before the end.'),
    from: vscode.l10n.t('From'),
    to: vscode.l10n.t('To'),
    time: vscode.l10n.t('Time'),
    value: vscode.l10n.t('Value'),
    chartTable: vscode.l10n.t('Chart data as a table ({0} rows)'),
    chartAria: vscode.l10n.t('{0}: {1} series, {2} points from {3} to {4}; values from {5} to {6}.'),
    readoutHint: vscode.l10n.t('Hover the chart, or focus it and press ← →, to read the values.'),
    heatmapHint: vscode.l10n.t('Hover a cell, or focus the chart and press the arrow keys, to read its count.'),
    heatmapAria: vscode.l10n.t('{0}: heatmap of {1} rows in {2} cells, values from {3} to {4} ({5} scale).'),
    heatmapLegend: vscode.l10n.t('Rows per cell ({0} scale)'),
    heatmapBelow: vscode.l10n.t('below {0}'),
    heatmapAbove: vscode.l10n.t('{0} and above'),
    heatmapValue: vscode.l10n.t('Value'),
    trend: vscode.l10n.t('Trend'),
    trendOf: vscode.l10n.t('Trend: {0}'),
    trendTable: vscode.l10n.t('Trends as a table ({0} rows)'),
    count: vscode.l10n.t('Count'),
    level: vscode.l10n.t('Level'),
    pattern: vscode.l10n.t('Pattern'),
    noPatterns: vscode.l10n.t('No events in this range.'),
    morePatterns: vscode.l10n.t('Showing the first {0} of {1} patterns; Open as Table shows all.'),
    heatmapCount: vscode.l10n.t('Rows'),
    zoneTitle: vscode.l10n.t('Times are in this time zone'),
    timesIn: vscode.l10n.t('Times in {0}'),
    series: vscode.l10n.t('Series'),
    transitionFrom: vscode.l10n.t('From'),
    transitionTo: vscode.l10n.t('To'),
    decidedBy: vscode.l10n.t('Decided by'),
    rule: vscode.l10n.t('Rule'),
    ruleWindow: vscode.l10n.t('windows of {0}'),
    ruleConsecutive: vscode.l10n.t('after {0} consecutive windows over the threshold'),
    ruleOneWindow: vscode.l10n.t('on the first window over the threshold'),
    thresholdFires: vscode.l10n.t('fires when {0}'),
    firedCount: vscode.l10n.t('Would have fired {0}× in this range (last at {1}).'),
    neverFired: vscode.l10n.t('Would not have fired in this range.'),
    transitions: vscode.l10n.t('Transitions'),
    noTransitions: vscode.l10n.t('No transitions: the state stayed the same over the whole range.'),
    noData: vscode.l10n.t('No data in this range.'),
    noRows: vscode.l10n.t('No rows in this range.'),
    noLines: vscode.l10n.t('No log lines in this range.'),
    moreRows: vscode.l10n.t('Showing the first {0} of {1} rows; Open as table shows all.'),
    moreLines: vscode.l10n.t('Showing the first {0} of {1} lines.'),
    cannotPreview: vscode.l10n.t('Cannot preview'),
    failed: vscode.l10n.t('Could not load the data'),
    loading: vscode.l10n.t('Loading…'),
  };
}

/**
 * The page of the webview: CSP `default-src 'none'`; the bundle's script and style sheet (dist/preview.js and
 * preview.css) loaded from the extension's files, each allowed by the page's nonce.
 */
export function previewHtml(webview: vscode.Webview, dist: vscode.Uri, mode: PanelMode): string {
  const nonce = makeNonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'preview.js')).toString();
  const style = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'preview.css')).toString();
  const title = mode === 'backtest' ? vscode.l10n.t('Alert Backtest') : vscode.l10n.t('Tile Preview');
  return `<!DOCTYPE html>
<html lang="${vscode.env.language.replace(/[^A-Za-z-]/g, '') || 'en'}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${webview.cspSource} data:; style-src ${webview.cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${title}</title>
<link rel="stylesheet" nonce="${nonce}" href="${style}">
</head>
<body>
<header>
  <div class="titles"><h1 id="title"></h1><div id="subtitle"></div></div>
  <div id="ranges" role="group"></div>
  <span id="custom" hidden><input type="datetime-local" id="from"><input type="datetime-local" id="to"><button type="button" id="apply"></button><span id="range-error" role="alert"></span></span>
  <div class="actions"><button type="button" id="refresh"></button><button type="button" id="open-table"></button><button type="button" id="copy"></button><button type="button" id="search" hidden></button></div>
</header>
<main id="content" tabindex="-1"></main>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}

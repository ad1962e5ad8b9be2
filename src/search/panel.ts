/**
 * One search panel: a webview on a source of a service (strict CSP with a nonce, its script from dist/, theme colours
 * only). It runs the search's two statements through the SQL route it is given, draws the rows and the histogram,
 * shows a row's details, and keeps a live tail going while the page is not paused.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../errors';
import { trackPanel, panelColumn } from '../panels/panelColumn';
import { rowDetails } from './details';
import { FrameLinks } from '../panels/frameLinks';
import { withFrameLinks } from './stackLinks';
import { rowEffect } from './rowActions';
import { boundedText, CELL_CHARS, fullRow, runSearch, type SearchModel, type SearchRequest } from './model';
import { html, makeNonce } from './panelHtml';
import { PRESETS, type FromPage, type SearchView, type ToPage } from './protocol';
import { LiveTail, MAX_ROWS } from './tail';

export interface PanelTarget {
  connectionId: string;
  serviceId: string;
  title: string;
  request: SearchRequest;
  preset: string;
  run(sql: string): Promise<import('../api/query').QueryResult>;
  openTrace(traceId: string): void;
}

/** What the panel last drew (the command answers it; tests read it). */
export interface SearchPanelState {
  view: SearchView;
  model?: SearchModel | undefined;
  /** What the page reported painted. */
  rendered?: { rows: number; bars: number; total: number } | undefined;
}

export class SearchPanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  /** The stack-trace frame links of the details shown. */
  private readonly frames = new FrameLinks();
  private model: SearchModel | undefined;
  private rows: unknown[][] = [];
  /** Every column of the rows whose details were opened, by row index. */
  private full = new Map<number, { columns: string[]; row: unknown[] }>();
  private view: SearchView;
  private rendered: SearchPanelState['rendered'];
  private readonly waiters: (() => void)[] = [];
  private readonly tail: LiveTail;
  private seq = 0;

  constructor(
    extensionUri: vscode.Uri,
    private readonly target: PanelTarget,
  ) {
    const media = vscode.Uri.joinPath(extensionUri, 'dist');
    this.panel = vscode.window.createWebviewPanel(
      'observability.search',
      vscode.l10n.t('Search: {0}', target.title),
      { viewColumn: panelColumn(), preserveFocus: false },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [media] },
    );
    const nonce = makeNonce();
    const script = this.panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'search.js')).toString();
    this.panel.webview.html = html(this.panel.webview.cspSource, nonce, script);
    this.view = this.emptyView();
    this.tail = new LiveTail({
      request: () => this.target.request,
      run: (sql) => this.target.run(sql),
      onRows: (model, range) => this.prepend(model, range),
    });
    this.panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m as FromPage));
    this.panel.onDidDispose(() => this.dispose());
    trackPanel(this.panel);
  }

  /** The state, once the page has drawn the search in flight (or at once when nothing is in flight). */
  async state(): Promise<SearchPanelState> {
    if (this.view.loading || !this.rendered) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        // A hidden or unresponsive page must not hold the command: what is known is answered after a while.
        setTimeout(resolve, 20_000);
      });
    }
    return { view: this.view, model: this.model, rendered: this.rendered };
  }

  private emptyView(): SearchView {
    const r = this.target.request;
    const fields = Object.keys(r.columns ?? {});
    const empty = { buckets: [], groups: [], counts: [], total: 0, bucketMs: 60_000 };
    const base = { title: this.target.title, condition: r.condition, language: r.language, range: r.range };
    return {
      ...base,
      preset: this.target.preset,
      columns: [],
      fields,
      rows: [],
      traceIdColumn: -1,
      histogram: empty,
      tail: false,
      loading: true,
      notes: [],
    };
  }

  /** Runs the search as the request now says, and draws it. */
  async search(): Promise<void> {
    const seq = ++this.seq;
    this.rendered = undefined;
    this.view = {
      ...this.view,
      loading: true,
      condition: this.target.request.condition,
      language: this.target.request.language,
      range: this.target.request.range,
      preset: this.target.preset,
    };
    this.post({ type: 'loading' });
    try {
      const model = await runSearch((sql) => this.target.run(sql), this.target.request);
      if (seq !== this.seq) return;
      this.model = model;
      this.rows = model.raw;
      this.full.clear();
      this.view = {
        ...this.view,
        loading: false,
        error: undefined,
        columns: model.columns,
        rows: model.raw.map(cells),
        traceIdColumn: model.traceIdColumn,
        histogram: model.histogram,
        notes: model.notes,
      };
      this.tail.reset(model.raw, this.target.request.range.to);
    } catch (error) {
      if (seq !== this.seq) return;
      this.model = undefined;
      this.rows = [];
      this.view = {
        ...this.view,
        loading: false,
        error: `Search failed: ${boundedText(errorMessage(error), 2000)}`,
        columns: [],
        rows: [],
        traceIdColumn: -1,
        histogram: { ...this.view.histogram, buckets: [], groups: [], counts: [], total: 0 },
      };
    }
    this.post({ type: 'view', view: this.view });
  }

  private prepend(model: SearchModel, range: { from: number; to: number }): void {
    this.target.request.range = range;
    this.rows = [...model.raw, ...this.rows].slice(0, MAX_ROWS);
    this.full.clear();
    const rows = model.raw.map(cells);
    this.view = {
      ...this.view,
      range,
      rows: [...rows, ...this.view.rows].slice(0, MAX_ROWS),
      histogram: model.histogram,
    };
    this.post({ type: 'prepend', rows, histogram: model.histogram, range });
  }

  private post(m: ToPage): void {
    void this.panel.webview.postMessage(m);
  }

  private async onMessage(m: FromPage): Promise<void> {
    if (!m || typeof m !== 'object') return;
    const req = this.target.request;
    switch (m.type) {
      case 'ready':
        if (!this.view.loading) this.post({ type: 'view', view: this.view });
        return;
      case 'rendered':
        this.rendered = { rows: Number(m.rows), bars: Number(m.bars), total: Number(m.total) };
        if (!this.view.loading) this.waiters.splice(0).forEach((w) => w());
        return;
      case 'search': {
        req.condition = String(m.condition ?? '');
        req.language = m.language === 'sql' ? 'sql' : 'lucene';
        const preset = PRESETS.find((p) => p.id === m.preset);
        if (preset) req.range = { from: Date.now() - preset.ms, to: Date.now() };
        else if (Number.isFinite(m.from) && Number.isFinite(m.to) && Number(m.from) < Number(m.to)) {
          req.range = { from: Number(m.from), to: Number(m.to) };
        }
        this.target.preset = preset ? preset.id : '';
        if (!preset && this.view.tail) this.setTail(false);
        await this.search();
        return;
      }
      case 'tail':
        this.setTail(Boolean(m.on));
        return;
      case 'paused':
        this.tail.paused = Boolean(m.paused);
        return;
      case 'openFrame':
        await this.frames.open(m.id, this.panel.viewColumn);
        return;
      default:
        return this.onRowMessage(m);
    }
  }

  private setTail(on: boolean): void {
    this.view = { ...this.view, tail: on };
    if (on) this.tail.start();
    else this.tail.stop();
  }

  /** A row's details: every column of it when it can be found again, else the columns shown. */
  private async detailsOf(index: number): Promise<{ columns: string[]; row: unknown[] } | undefined> {
    const row = this.rows[index];
    if (!row || !this.model) return undefined;
    let full = this.full.get(index);
    if (!full) {
      const found = await fullRow(
        (sql) => this.target.run(sql),
        this.target.request.source,
        this.model.columns,
        row,
      ).catch(() => undefined);
      full = found ?? { columns: this.model.columns, row };
      this.full.set(index, full);
    }
    return full;
  }

  private async onRowMessage(m: FromPage): Promise<void> {
    if (!('index' in m) || !this.model) return;
    const model = this.model;
    if (m.type === 'openTrace' && m.field === undefined) {
      const id = this.rows[m.index]?.[model.traceIdColumn];
      if (typeof id === 'string' && id !== '') this.target.openTrace(id);
      return;
    }
    const detail = await this.detailsOf(m.index);
    if (!detail || this.model !== model) return;
    const effect = rowEffect(m, rowDetails(detail.columns, detail.row), this.target.request);
    if (effect?.kind === 'details') this.post(await withFrameLinks(effect.message, this.frames));
    else if (effect?.kind === 'openTrace') this.target.openTrace(effect.traceId);
    else if (effect?.kind === 'copy') await vscode.env.clipboard.writeText(effect.text);
    else if (effect?.kind === 'search') await this.search();
  }

  dispose(): void {
    this.tail.stop();
    this.seq++;
    this.waiters.splice(0).forEach((w) => w());
  }
}

/** A row's cells as the rows list shows them. */
function cells(row: readonly unknown[]): string[] {
  return row.map((v) => boundedText(v, CELL_CHARS));
}

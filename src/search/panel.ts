/**
 * One search panel: a webview on a source of a service (strict CSP with a nonce, its script from dist/, theme colours
 * only). It runs the search's two statements through the SQL route it is given, draws the rows and the histogram,
 * shows a row's details, and keeps a live tail going while the page is not paused.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../errors';
import { trackPanel, panelColumn } from '../panels/panelColumn';
import { runSearch, type SearchModel, type SearchRequest } from './model';
import { html, makeNonce } from './panelHtml';
import { PanelRows } from './panelRows';
import { cells, emptyView, failedView, loadedView } from './panelView';
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
  private model: SearchModel | undefined;
  private readonly rows: PanelRows;
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
    this.view = emptyView(target.title, target.preset, target.request);
    this.rows = new PanelRows({
      request: () => this.target.request,
      model: () => this.model,
      run: (sql) => this.target.run(sql),
      post: (m) => this.post(m),
      openTrace: (id) => this.target.openTrace(id),
      search: () => this.search(),
    });
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
      this.rows.set(model.raw);
      this.view = loadedView(this.view, model);
      this.tail.reset(model.raw, this.target.request.range.to);
    } catch (error) {
      if (seq !== this.seq) return;
      this.model = undefined;
      this.rows.set([]);
      this.view = failedView(this.view, errorMessage(error));
    }
    this.post({ type: 'view', view: this.view });
  }

  private prepend(model: SearchModel, range: { from: number; to: number }): void {
    this.target.request.range = range;
    this.rows.set([...model.raw, ...this.rows.rows].slice(0, MAX_ROWS));
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
      default:
        return this.rows.onMessage(m);
    }
  }

  private setTail(on: boolean): void {
    this.view = { ...this.view, tail: on };
    if (on) this.tail.start();
    else this.tail.stop();
  }

  dispose(): void {
    this.tail.stop();
    this.seq++;
    this.waiters.splice(0).forEach((w) => w());
  }
}

/**
 * One search panel: a webview on a source of a service (strict CSP with a nonce, its script from dist/, theme colours
 * only). It runs the search's two statements through the SQL route it is given, draws the rows and the histogram,
 * shows a row's details, keeps a live tail going while the page is not paused, mines the Patterns tab, completes the
 * condition, and saves the search as a saved search (a new resource document, applied the usual way).
 */
import * as vscode from 'vscode';
import { errorMessage } from '../errors';
import { trackPanel } from '../panels/panelColumn';
import { runSearch, type SearchModel } from './model';
import { PanelCompletion } from './panelCompletion';
import { searchWebview } from './panelHtml';
import { PanelPatterns } from './panelPatterns';
import { PanelRows } from './panelRows';
import {
  applySearchMessage,
  cells,
  Drawn,
  emptyView,
  failedView,
  loadedView,
  prependedView,
  searchingView,
  type PanelTarget,
  type SearchPanelState,
} from './panelView';
import type { FromPage, SearchView, ToPage } from './protocol';

/** Epoch ms, the clock the page's timings use too (the same machine). */
const clock = (): number => performance.timeOrigin + performance.now();
import { openSavedSearchDocument } from './saveAsDocument';
import { LiveTail, MAX_ROWS } from './tail';
import type { SearchRestore } from './restore';

export type { PanelTarget, SearchPanelState } from './panelView';

export class SearchPanel implements vscode.Disposable {
  readonly panel: vscode.WebviewPanel;
  private model: SearchModel | undefined;
  private readonly rows: PanelRows;
  private view: SearchView;
  private readonly drawn = new Drawn();
  private readonly tail: LiveTail;
  readonly patterns: PanelPatterns;
  readonly completion: PanelCompletion;
  private seq = 0;
  /** The number of the last view posted (the page reports it with its paint). */
  private viewSeq = 0;

  constructor(
    extensionUri: vscode.Uri,
    private readonly target: PanelTarget,
  ) {
    this.panel = searchWebview(extensionUri, target.title, target.restored);
    this.view = emptyView(target.title, target.preset, target.request);
    const request = () => this.target.request;
    const post = (m: ToPage) => this.post(m);
    const run = (sql: string) => this.target.run(sql);
    this.rows = new PanelRows({
      request,
      post,
      run,
      model: () => this.model,
      openTrace: (id, time, spanId) => this.target.openTrace(id, time, spanId),
      search: () => this.search(),
    });
    this.tail = new LiveTail({ request, run, onRows: (model, range) => this.prepend(model, range) });
    this.patterns = new PanelPatterns({
      request,
      post,
      run: (sql, maxRows) => this.target.run(sql, maxRows),
      // The histogram shown: the live tail moves it with the range.
      total: () => this.view.histogram?.total ?? this.model?.histogram.total,
    });
    this.patterns.tab = target.tab === 'patterns' ? 'patterns' : 'events';
    const sourceKey = [target.connectionId, target.serviceId, target.request.source.id ?? ''].join('\n');
    this.completion = new PanelCompletion({ cache: target.completion, sourceKey, request, run, post });
    this.panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m as FromPage));
    this.panel.onDidDispose(() => this.dispose());
    trackPanel(this.panel);
  }

  /** The state, once the page has drawn the search in flight (or at once when nothing is in flight). */
  async state(): Promise<SearchPanelState> {
    if (this.view.loading || !this.drawn.rendered) await this.drawn.wait();
    if (this.patterns.tab === 'patterns') await this.patterns.settled();
    const patterns = this.patterns.tab === 'patterns' ? this.patterns.view : undefined;
    return { view: this.view, model: this.model, rendered: this.drawn.rendered, patterns, timing: this.drawn.timing };
  }

  /** Opens a new saved-search document with this search's source, condition, columns and order; its address. */
  saveAs(): Promise<string | undefined> {
    return openSavedSearchDocument(this.target, this.target.request);
  }

  /** Runs the search as the request now says, and draws it. */
  async search(): Promise<void> {
    const seq = ++this.seq;
    let responseAt = NaN;
    this.drawn.rendered = undefined;
    this.drawn.timing = undefined;
    this.view = searchingView(this.view, this.target.request, this.target.preset, this.patterns.tab);
    this.post({ type: 'loading' });
    try {
      const model = await runSearch((sql) => this.target.run(sql), this.target.request);
      responseAt = clock();
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
      responseAt = clock();
    }
    this.postView(responseAt);
    this.post({ type: 'state', state: this.restoreState() });
    void this.patterns.searched(this.model !== undefined);
  }

  /** What the page keeps to open this search again after a window reload. */
  private restoreState(): SearchRestore {
    const r = this.target.request;
    return {
      connectionId: this.target.connectionId,
      serviceId: this.target.serviceId,
      sourceId: String(r.source.id ?? ''),
      condition: r.condition,
      language: r.language,
      ...(r.select ? { select: r.select } : {}),
      preset: this.target.preset,
      range: r.range,
    };
  }

  /**
   * Posts the view. A search's post (`responseAt`, when its last response was read) starts its timing, which the
   * page's first report of a paint of it or a later post completes (the page's `ready` re-posts the view).
   */
  private postView(responseAt?: number): void {
    const seq = ++this.viewSeq;
    this.post({ type: 'view', view: this.view, seq });
    if (responseAt !== undefined) this.drawn.timing = { seq, responseAt, postedAt: clock() };
  }

  private prepend(model: SearchModel, range: { from: number; to: number }): void {
    this.target.request.range = range;
    this.rows.set([...model.raw, ...this.rows.rows].slice(0, MAX_ROWS));
    const rows = model.raw.map(cells);
    this.view = prependedView(this.view, rows, model.histogram, range, MAX_ROWS);
    this.post({ type: 'prepend', rows, histogram: model.histogram, range });
    void this.patterns.appended(rows.length);
  }

  private post(m: ToPage): void {
    void this.panel.webview.postMessage(m);
  }

  private async onMessage(m: FromPage): Promise<void> {
    if (!m || typeof m !== 'object') return;
    const req = this.target.request;
    switch (m.type) {
      case 'ready':
        if (!this.view.loading) this.postView();
        if (this.patterns.view) this.post({ type: 'patterns', patterns: this.patterns.view });
        void this.completion.keys();
        return;
      case 'rendered':
        this.drawn.rendered = { rows: Number(m.rows), bars: Number(m.bars), total: Number(m.total) };
        if (this.drawn.timing && Number(m.seq) >= this.drawn.timing.seq && this.drawn.timing.reportedAt === undefined) {
          const { receivedAt, paintedAt } = m;
          this.drawn.timing = { ...this.drawn.timing, receivedAt, paintedAt, reportedAt: clock() };
        }
        if (!this.view.loading) this.drawn.release();
        return;
      case 'search': {
        this.target.preset = applySearchMessage(req, m, Date.now());
        if (!this.target.preset && this.view.tail) this.setTail(false);
        await this.search();
        return;
      }
      case 'tab':
        this.view = { ...this.view, tab: m.tab === 'patterns' ? 'patterns' : 'events' };
        return this.patterns.show(this.view.tab!);
      case 'saveAs':
        await this.saveAs();
        return;
      case 'values':
        await this.completion.values(String(m.field));
        return;
      case 'tail':
        this.setTail(Boolean(m.on));
        return;
      case 'paused':
        this.tail.paused = Boolean(m.paused);
        return;
      case 'openFrame':
        await this.rows.frames.open(m.id, this.panel.viewColumn);
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
    this.drawn.release();
  }
}

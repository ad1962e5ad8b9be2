/**
 * The trace panel: one webview a trace (opening the same trace again shows its panel), drawing the waterfall, the
 * span details and the trace's logs (./webview). Strict CSP with a nonce, no remote content, theme colours only; the
 * page loads dist/traces.js and nothing else.
 */
import * as vscode from 'vscode';
import { panelColumn, trackPanel } from '../panels/panelColumn';
import type { TraceModel } from '../render';
import { spanDetails, traceMessage } from './model';
import type { FromWebview, SpanDetails, ToWebview } from './protocol';
import { traceHtml } from './html';
import { makeNonce } from '../panels/webviewPage';
import type { TraceRestore } from './window';
import { TRACE_VIEW_TYPE } from '../constants';
import { FrameLinks } from '../panels/frameLinks';

interface Open {
  panel: vscode.WebviewPanel;
  model?: TraceModel;
  ready: Promise<void>;
}

export class TracePanels implements vscode.Disposable {
  private readonly open = new Map<string, Open>();

  constructor(private readonly extensionUri: vscode.Uri) {}

  /**
   * The panel of a trace (created when not open), showing that it is being read; `restore` is what its webview keeps
   * to open the trace again after a window reload.
   */
  loading(key: string, traceId: string, restore: TraceRestore): void {
    const entry = this.ensure(key, traceId);
    void this.post(entry, { type: 'loading', traceId, restore });
  }

  show(key: string, model: TraceModel, title: string, restore: TraceRestore): void {
    const entry = this.ensure(key, model.traceId);
    entry.model = model;
    entry.panel.title = vscode.l10n.t('Trace {0}', model.traceId.slice(0, 8));
    void this.post(entry, { ...traceMessage(model, title), restore });
  }

  /** Takes a panel VS Code restored after a window reload as the panel of `key`; false when that one is open. */
  adopt(key: string, panel: vscode.WebviewPanel, traceId: string): boolean {
    if (this.open.has(key)) return false;
    this.setUp(key, panel, traceId);
    return true;
  }

  /** Says in an open panel why its trace is not shown (a restored panel whose connection is gone). */
  failed(key: string, message: string): void {
    const entry = this.open.get(key);
    if (entry) void this.post(entry, { type: 'failed', message });
  }

  /** Selects a row of an open trace's waterfall (as a click would). */
  select(key: string, row: number): void {
    const entry = this.open.get(key);
    if (entry) void this.post(entry, { type: 'select', row });
  }

  close(key: string): void {
    this.open.get(key)?.panel.dispose();
  }

  dispose(): void {
    for (const { panel } of [...this.open.values()]) panel.dispose();
  }

  private async post(entry: Open, message: ToWebview): Promise<void> {
    await entry.ready;
    await entry.panel.webview.postMessage(message);
  }

  private ensure(key: string, traceId: string): Open {
    const hit = this.open.get(key);
    if (hit) {
      hit.panel.reveal(undefined, true);
      return hit;
    }
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel(
      TRACE_VIEW_TYPE,
      vscode.l10n.t('Trace {0}', traceId.slice(0, 8)),
      { viewColumn: panelColumn(), preserveFocus: false },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [dist] },
    );
    return this.setUp(key, panel, traceId);
  }

  private setUp(key: string, panel: vscode.WebviewPanel, traceId: string): Open {
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    panel.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    panel.title = vscode.l10n.t('Trace {0}', traceId.slice(0, 8));
    const nonce = makeNonce();
    const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'traces.js')).toString();
    panel.webview.html = traceHtml(panel.webview.cspSource, nonce, script);
    let markReady: () => void = () => undefined;
    const frames = new FrameLinks();
    const entry: Open = { panel, ready: new Promise<void>((resolve) => (markReady = resolve)) };
    panel.webview.onDidReceiveMessage((m: FromWebview) => {
      if (m?.type === 'ready') markReady();
      else if (m?.type === 'details' && typeof m.row === 'number' && entry.model) {
        const details = spanDetails(entry.model, m.row);
        if (details) void withFrameLinks(details, frames).then((d) => panel.webview.postMessage(d));
      } else if (m?.type === 'openFrame') void frames.open(m.id, panel.viewColumn);
    });
    panel.onDidDispose(() => this.open.delete(key));
    trackPanel(panel);
    this.open.set(key, entry);
    return entry;
  }
}

/** The details with the links of each exception's stack-trace frames that open a workspace file. */
async function withFrameLinks(details: SpanDetails, frames: FrameLinks): Promise<SpanDetails> {
  for (const event of details.events) {
    const stack = event.attributes.find(([k]) => k === 'exception.stacktrace');
    if (stack) {
      const links = await frames.links(stack[1]).catch(() => []);
      if (links.length > 0) event.links = links;
    }
  }
  return details;
}

/**
 * A product page timed in a webview of the bench: the page the extension builds (its HTML, style and script from
 * dist/, the same as its panel loads), with a small script of the bench placed before the page's own. That script
 * takes the page's VS Code API first (so it sees what the page posts) and, for a message the bench marks with
 * `benchSeq`, reports how long it took from the message's arrival (before the page's own handler ran) to the next
 * frame painted — the timing the chart bench and its SVG reference use. A page of the bench only; nothing ships.
 */
import * as vscode from 'vscode';

/** The bench's script, run before the page's own. */
const SHIM = `(() => {
  const api = acquireVsCodeApi();
  globalThis.acquireVsCodeApi = () => api;
  window.addEventListener('message', (e) => {
    const seq = e.data && e.data.benchSeq;
    if (typeof seq !== 'number') return;
    const arrived = performance.now();
    requestAnimationFrame(() =>
      setTimeout(() => api.postMessage({ benchSeq: seq, ms: performance.now() - arrived }), 0),
    );
  });
})();`;

export type PageHtml = (cspSource: string, nonce: string, scriptUri: string) => string;

export class BundlePage implements vscode.Disposable {
  private readonly panel: vscode.WebviewPanel;
  private readonly ready: Promise<void>;
  private readonly waiters = new Map<number, (ms: number) => void>();
  private seq = 0;

  /** `script` is the page's bundle in dist/ (e.g. `traces.js`); `pageHtml` the function that builds its panel's page. */
  constructor(extensionUri: vscode.Uri, script: string, pageHtml: PageHtml, title: string) {
    const dist = vscode.Uri.joinPath(extensionUri, 'dist');
    this.panel = vscode.window.createWebviewPanel(
      'observability.benchPage',
      title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [dist] },
    );
    const nonce = Array.from({ length: 32 }, () => Math.floor(Math.random() * 36).toString(36)).join('');
    const scriptUri = this.panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, script)).toString();
    const page = pageHtml(this.panel.webview.cspSource, nonce, scriptUri);
    const at = page.indexOf(`<script nonce="${nonce}" src=`);
    if (at < 0) throw new Error(`the page of ${script} has no script tag where the bench expects it`);
    this.panel.webview.html = `${page.slice(0, at)}<script nonce="${nonce}">${SHIM}</script>\n${page.slice(at)}`;
    this.ready = new Promise((resolve) => {
      this.panel.webview.onDidReceiveMessage((m: { type?: string; benchSeq?: number; ms?: number }) => {
        if (m?.type === 'ready') resolve();
        else if (typeof m?.benchSeq === 'number') {
          this.waiters.get(m.benchSeq)?.(m.ms ?? NaN);
          this.waiters.delete(m.benchSeq);
        }
      });
    });
  }

  /** Posts `message` (marked) to the page; resolves with the page's time from its arrival to the next frame painted. */
  async draw(message: Record<string, unknown>): Promise<number> {
    if (!this.panel.visible) this.panel.reveal(undefined, false);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the bench page did not answer within 60 s')), 60_000);
    });
    try {
      await Promise.race([this.ready, deadline]);
      const seq = ++this.seq;
      const done = new Promise<number>((resolve) => this.waiters.set(seq, resolve));
      await this.panel.webview.postMessage({ ...message, benchSeq: seq });
      return await Promise.race([done, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  dispose(): void {
    this.panel.dispose();
  }
}

/**
 * The chart bench's reference: the same time series drawn as SVG polylines (the query results chart's way) in a
 * webview of its own, timed as the preview webview times its drawing: from the message's arrival to the next frame
 * painted. A page of the bench only; the extension ships nothing of it.
 */
import * as vscode from 'vscode';

/** The page's script: parse, draw the polylines, report after the next frame. */
function pageScript(): string {
  return `
const vscode = acquireVsCodeApi();
const colours = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red'];
window.addEventListener('message', (e) => {
  const arrived = performance.now();
  const { seq, dataJson } = e.data;
  const d = JSON.parse(dataJson);
  const content = document.getElementById('content');
  content.textContent = '';
  const width = Math.max(360, content.clientWidth - 24 || 640);
  const height = 260;
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  const x0 = d.times[0];
  const x1 = d.times[d.times.length - 1];
  const ys = d.series.flatMap((s) => s.values.filter((v) => typeof v === 'number'));
  const y0 = Math.min(0, ...ys);
  const y1 = Math.max(...ys) || 1;
  const css = getComputedStyle(document.body);
  d.series.forEach((s, i) => {
    const line = document.createElementNS(ns, 'polyline');
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke', css.getPropertyValue(colours[i % colours.length]).trim() || 'currentColor');
    line.setAttribute('points', d.times.map((x, j) =>
      (((x - x0) / (x1 - x0 || 1)) * width).toFixed(1) + ',' +
      (height - (((s.values[j] ?? 0) - y0) / (y1 - y0 || 1)) * height).toFixed(1)).join(' '));
    svg.appendChild(line);
  });
  content.appendChild(svg);
  requestAnimationFrame(() => setTimeout(() => vscode.postMessage({ seq, ms: performance.now() - arrived, elements: svg.childElementCount }), 0));
});
vscode.postMessage({ ready: true });
`;
}

/**
 * A webview panel that draws time series as SVG polylines and reports how long each took. It opens in a column of its
 * own (given by the caller: beside the preview panel), keeps its page when hidden and is shown before each draw: a
 * panel hidden behind another tab of its column has no page to answer (the bench then waited for ever).
 */
export class SvgReferencePanel implements vscode.Disposable {
  private readonly panel: vscode.WebviewPanel;
  private readonly ready: Promise<void>;
  private readonly waiters = new Map<number, (r: { ms: number; elements: number }) => void>();
  private seq = 0;

  constructor(viewColumn: vscode.ViewColumn = vscode.ViewColumn.Beside) {
    this.panel = vscode.window.createWebviewPanel(
      'observability.benchSvg',
      'SVG reference',
      { viewColumn, preserveFocus: true },
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [] },
    );
    const nonce = Array.from({ length: 32 }, () => Math.floor(Math.random() * 36).toString(36)).join('');
    this.panel.webview.html = `<!DOCTYPE html><html><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}';">
</head><body><main id="content"></main><script nonce="${nonce}">${pageScript()}</script></body></html>`;
    this.ready = new Promise((resolve) => {
      this.panel.webview.onDidReceiveMessage((m: { ready?: boolean; seq?: number; ms?: number; elements?: number }) => {
        if (m.ready) resolve();
        else if (typeof m.seq === 'number') {
          this.waiters.get(m.seq)?.({ ms: m.ms ?? NaN, elements: m.elements ?? 0 });
          this.waiters.delete(m.seq);
        }
      });
    });
  }

  /** Draws the series of `dataJson` (the preview's time-series data as JSON); resolves with the webview's timing. */
  async draw(dataJson: string): Promise<{ ms: number; elements: number }> {
    if (!this.panel.visible) this.panel.reveal(undefined, true);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the SVG reference panel did not answer within 60 s')), 60_000);
    });
    try {
      await Promise.race([this.ready, deadline]);
      const seq = ++this.seq;
      const done = new Promise<{ ms: number; elements: number }>((resolve) => this.waiters.set(seq, resolve));
      await this.panel.webview.postMessage({ seq, dataJson });
      return await Promise.race([done, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  dispose(): void {
    this.panel.dispose();
  }
}

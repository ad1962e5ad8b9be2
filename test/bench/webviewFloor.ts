/**
 * What any extension's webview costs in this host, whatever it shows: a message posted from the extension host to a
 * bare webview (opened where the results panel opens) until the frame that shows its change, stamped as the results
 * webview stamps its paint (the next animation frame, then a task). Two changes: one word, and a bare table of 60 rows
 * of 4 cells (what a window of the results table holds). A result cannot be on screen sooner after its last row than
 * the second.
 */
import * as vscode from 'vscode';
import { epochNow, stats, type Stats } from './harness';

const CELLS = ['2026-11-28 10:00:00.123456789', 'checkout', 'INFO', 'GET /api/cart completed in 12 ms with status 200'];

function page(nonce: string, cspSource: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<style nonce="${nonce}">body { font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
.r { display: flex; height: 22px; line-height: 22px; } .r div { width: 200px; overflow: hidden; white-space: nowrap; padding: 0 6px; }</style>
</head><body><div id="word"></div><div id="table"></div><script nonce="${nonce}">
const api = acquireVsCodeApi();
const clock = () => performance.timeOrigin + performance.now();
window.addEventListener('message', (e) => {
  const received = clock();
  const m = e.data;
  if (m.cells) {
    const rows = document.createDocumentFragment();
    for (let r = 0; r < 60; r++) {
      const row = document.createElement('div');
      row.className = 'r';
      for (const text of m.cells) {
        const cell = document.createElement('div');
        cell.textContent = text + ' ' + m.n + ' ' + r;
        row.appendChild(cell);
      }
      rows.appendChild(row);
    }
    document.getElementById('table').replaceChildren(rows);
  } else document.getElementById('word').textContent = String(m.n);
  requestAnimationFrame(() => setTimeout(() => api.postMessage({ n: m.n, received, at: clock() }), 0));
});
api.postMessage({ ready: true });
</script></body></html>`;
}

export interface WebviewFloor {
  /** From the post to the paint of a one-word change (median). */
  oneWordMs: Stats;
  /** From the post to the paint of a bare table of 60 rows of 4 cells. */
  tableMs: Stats;
  /** Of which the message's way to the page (post to its arrival there). */
  tableArrivalMs: Stats;
}

export async function measureWebviewFloor(runs: number): Promise<WebviewFloor> {
  const panel = vscode.window.createWebviewPanel(
    'observability.benchFloor',
    'Bench: webview floor',
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
    { enableScripts: true },
  );
  try {
    let answer: ((m: { n?: number; received?: number; at?: number; ready?: boolean }) => void) | undefined;
    const ready = new Promise<void>((resolve) => (answer = (m) => m.ready && resolve()));
    panel.webview.onDidReceiveMessage((m) => answer?.(m as { ready?: boolean }));
    const nonce = Math.random().toString(36).slice(2);
    panel.webview.html = page(nonce, panel.webview.cspSource);
    await ready;
    const once = async (n: number, table: boolean): Promise<{ painted: number; arrived: number }> => {
      const reply = new Promise<{ received?: number; at?: number }>((resolve) => {
        answer = (m) => m.n === n && resolve(m);
      });
      // Each change on its own, after the last frame's work settled.
      await new Promise((r) => setTimeout(r, 50));
      const posted = epochNow();
      void panel.webview.postMessage(table ? { n, cells: CELLS } : { n });
      const m = await reply;
      return { painted: (m.at ?? NaN) - posted, arrived: (m.received ?? NaN) - posted };
    };
    const word: number[] = [];
    const table: number[] = [];
    const arrival: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      const w = await once(2 * i, false);
      const t = await once(2 * i + 1, true);
      if (i === 0) continue; // warm-up
      word.push(w.painted);
      table.push(t.painted);
      arrival.push(t.arrived);
    }
    return { oneWordMs: stats(word), tableMs: stats(table), tableArrivalMs: stats(arrival) };
  } finally {
    panel.dispose();
  }
}

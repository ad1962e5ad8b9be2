/**
 * Chart benchmark, run inside the extension host: 7 days at 1-minute buckets × 5 series (50,400 points) drawn by the
 * preview panel's webview (uPlot on a canvas), timed from the message's arrival in the webview to the next frame
 * painted. Same-run references: the raw HTTP fetch and parse of the same data from a loopback server (bare undici),
 * and the same series drawn as SVG polylines in the same webview (how the query results chart draws). Also a 12-tile
 * dashboard preview of fixed data, and the sizes of the webview bundle.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Agent, request } from 'undici';
import { PreviewPanel } from '../../src/preview/panel';
import { checkoutDashboard, weekOfMinutes } from '../support/previewData';

interface Stats {
  median: number;
  p95: number;
  min: number;
  max: number;
  runs: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  const m = s.length / 2;
  const median = s.length % 2 ? (s[Math.floor(m)] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    median: r(median),
    p95: r(at(0.95)),
    min: r(s[0] as number),
    max: r(s[s.length - 1] as number),
    runs: s.length,
  };
}

export async function measurePreview(cfg: { runs: number }): Promise<Record<string, unknown>> {
  const ext = vscode.extensions.getExtension('obs-tools.observability-explorer');
  if (!ext) throw new Error('the extension is not loaded');
  const dist = path.join(ext.extensionPath, 'dist');
  const size = (f: string) => fs.statSync(path.join(dist, f)).size;
  const bundle = { previewJsBytes: size('preview.js'), previewCssBytes: size('preview.css') };

  const data = weekOfMinutes(Date.now());
  const points = data.series.length * data.times.length;
  if (points !== 50_400) throw new Error(`expected 50,400 points, got ${points}`);
  const json = JSON.stringify(data);

  // The reference: the same data as a JSON body from a loopback server, fetched and parsed with bare undici.
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/series`;
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const fetchParse = async (): Promise<number> => {
    const t = performance.now();
    const res = await request(url, { dispatcher: agent });
    const body = (await res.body.json()) as { series: unknown[] };
    if (body.series.length !== 5) throw new Error('reference: wrong body');
    return performance.now() - t;
  };

  const panel = new PreviewPanel(ext.extensionUri, 'preview');
  try {
    // Warm-up: the panel opens, the bundle loads, the JIT warms.
    await panel.show(data);
    await panel.show(data);
    await fetchParse();
    await panel.benchSvg(json);
    const drawn: number[] = [];
    const parse: number[] = [];
    const draw: number[] = [];
    const canvas: number[] = [];
    const showCall: number[] = [];
    const reference: number[] = [];
    const ratios: number[] = [];
    const svg: number[] = [];
    let summary: Record<string, unknown> | undefined;
    for (let i = 0; i < cfg.runs; i++) {
      const t0 = performance.now();
      const r = await panel.show(data);
      const call = performance.now() - t0;
      if (!r || r.summary.points !== 50_400 || r.summary.charts !== 1) {
        throw new Error(`preview: ${JSON.stringify(r?.summary).slice(0, 300)}`);
      }
      summary = { charts: r.summary.charts, series: r.summary.series, points: r.summary.points };
      const ref = await fetchParse();
      drawn.push(r.ms);
      parse.push(r.parseMs);
      draw.push(r.drawMs);
      canvas.push(r.canvasMs);
      showCall.push(call);
      reference.push(ref);
      ratios.push(r.ms / ref);
      svg.push((await panel.benchSvg(json)).ms);
    }
    // A 12-tile dashboard of fixed data (5 charts, numbers, a table, log lines, Markdown, a notice).
    const dashboard: number[] = [];
    const dash = checkoutDashboard(Date.now());
    await panel.show(dash);
    for (let i = 0; i < cfg.runs; i++) {
      const r = await panel.show(dash);
      if (!r || r.summary.tiles.length !== 12) throw new Error('dashboard: not all tiles drawn');
      dashboard.push(r.ms);
    }
    const kb = (b: number) => Math.round((b / 1024) * 10) / 10;
    return {
      method:
        `median of ${cfg.runs} runs after two warm-ups, in the real webview of the preview panel (code-server). drawnMs = from the ` +
        "message's arrival in the webview to the next frame painted (JSON.parse of the data + uPlot build + canvas draw + style, layout and paint of the frame; a task queued from the frame's requestAnimationFrame callback); " +
        "canvasDrawnMs = the same to the end of uPlot's canvas drawing (before the frame); ofWhichBuildMs = the synchronous DOM and chart build; " +
        "showCallMs = PreviewPanel.show() in the extension host to the webview's report (adds postMessage across the processes); " +
        'rawFetchParseMs = bare undici GET of the same JSON from a loopback server + body.json(), right after each run; ' +
        "svgPolylineMs = the same series drawn as SVG polylines (the query results chart's way) in the same webview, same timing",
      data: { ...summary, jsonKB: kb(Buffer.byteLength(json)) },
      drawnMs: stats(drawn),
      ofWhichParseMs: stats(parse),
      ofWhichBuildMs: stats(draw),
      canvasDrawnMs: stats(canvas),
      showCallMs: stats(showCall),
      rawFetchParseMs: stats(reference),
      ratioToRaw: stats(ratios).median,
      svgPolylineMs: stats(svg),
      dashboard12TilesDrawnMs: stats(dashboard),
      bundle: {
        ...bundle,
        previewJsKB: kb(bundle.previewJsBytes),
        previewCssKB: kb(bundle.previewCssBytes),
        totalKB: kb(bundle.previewJsBytes + bundle.previewCssBytes),
      },
    };
  } finally {
    panel.dispose();
    await agent.close();
    server.close();
  }
}

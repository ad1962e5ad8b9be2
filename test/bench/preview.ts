/**
 * Chart benchmark, run inside the extension host: 7 days at 1-minute buckets × 5 series (50,400 points) drawn by the
 * preview panel's webview (uPlot on a canvas), timed from the message's arrival in the webview to the next frame
 * painted. Same-run references: the raw HTTP fetch and parse of the same data from a loopback server (bare undici),
 * and the same series drawn as SVG polylines in the same webview (how the query results chart draws). Also a 12-tile
 * dashboard preview of fixed data, and the sizes of the webview bundle. With the emulator's query host: a 12-tile
 * dashboard preview from the command to every tile drawn, within the default query budget, beside a same-run raw
 * fetch and parse of the same statements.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Agent, request } from 'undici';
import type { PreviewOutcome } from '../../src/preview';
import { PreviewPanel } from '../../src/preview/panel';
import { SvgReferencePanel } from './svgReference';
import { checkoutDashboard, weekOfMinutes } from '../support/previewData';
import { rawQuery, stats, useQueryEndpoint, type QueryEndpointConfig } from './harness';

export async function measurePreview(
  cfg: { runs: number } & Partial<QueryEndpointConfig>,
): Promise<Record<string, unknown>> {
  const ext = vscode.extensions.getExtension('obs-tools.observability-explorer');
  if (!ext) throw new Error('the extension is not loaded');
  const dist = path.join(ext.extensionPath, 'dist');
  const size = (f: 'preview.js' | 'preview.css') => fs.statSync(path.join(dist, f)).size;
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
  let svgPanel: SvgReferencePanel | undefined;
  try {
    // Warm-up: the panel opens, the bundle loads, the JIT warms.
    await panel.show(data);
    await panel.show(data);
    // The reference opens beside the preview panel (in its column it would hide it, or be hidden by it).
    svgPanel = new SvgReferencePanel(((panel.viewColumn ?? vscode.ViewColumn.One) + 1) as vscode.ViewColumn);
    await fetchParse();
    await svgPanel.draw(json);
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
      svg.push((await svgPanel.draw(json)).ms);
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
    panel.dispose();
    const fromEmulator =
      cfg.queryUrl && cfg.keyId && cfg.keySecret && cfg.serviceId && cfg.connectionId
        ? await measureDashboardPreview({ ...(cfg as QueryEndpointConfig), runs: Math.min(cfg.runs, 5) })
        : undefined;
    return {
      method:
        `median of ${cfg.runs} runs after two warm-ups, in the real webview of the preview panel (code-server). drawnMs = from the ` +
        "message's arrival in the webview to the next frame painted (JSON.parse of the data + uPlot build + canvas draw + style, layout and paint of the frame; a task queued from the frame's requestAnimationFrame callback); " +
        "canvasDrawnMs = the same to the end of uPlot's canvas drawing (before the frame); ofWhichBuildMs = the synchronous DOM and chart build; " +
        "showCallMs = PreviewPanel.show() in the extension host to the webview's report (adds postMessage across the processes); " +
        'rawFetchParseMs = bare undici GET of the same JSON from a loopback server + body.json(), right after each run; ' +
        "svgPolylineMs = the same series drawn as SVG polylines (the query results chart's way) in a webview of the bench beside it, same timing",
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
      ...(fromEmulator ? { dashboard12TilesFromEmulator: fromEmulator } : {}),
      bundle: {
        ...bundle,
        previewJsKB: kb(bundle.previewJsBytes),
        previewCssKB: kb(bundle.previewCssBytes),
        totalKB: kb(bundle.previewJsBytes + bundle.previewCssBytes),
      },
    };
  } finally {
    panel.dispose();
    svgPanel?.dispose();
    await agent.close();
    server.close();
  }
}

/**
 * The seeded dashboard's tiles twice over (a user's 12-tile dashboard) previewed from the emulator through the
 * command, under the default query budget (10 statements per 10 s; a fresh window before each run), from the command
 * to every tile drawn. The preview sends the column types of the sources' tables (cold only) and the tiles in one
 * batch. Reference: each tile's own statement fetched and parsed with bare undici, four at a time, right after each
 * run (the same data, without the batch).
 */
async function measureDashboardPreview(cfg: QueryEndpointConfig & { runs: number }): Promise<Record<string, unknown>> {
  await useQueryEndpoint(cfg, undefined);
  const ext = vscode.extensions.getExtension<{
    connections: { clientFor(id: string): { listDashboards(serviceId: string): Promise<{ data: unknown[] }> } };
  }>('obs-tools.observability-explorer');
  const list = (await ext!.exports.connections.clientFor(cfg.connectionId).listDashboards(cfg.serviceId)).data as {
    id: string;
    name: string;
    tiles: { id: string; y?: number; config: { displayType?: string } }[];
  }[];
  const seeded = list.find((d) => d.tiles.some((t) => t.config.displayType === 'search'));
  if (!seeded || seeded.tiles.length !== 6) {
    throw new Error('dashboard preview: the seeded 6-tile dashboard is missing');
  }
  const twelve = {
    ...seeded,
    id: 'bbbbbbbbbbbbbbbbbbbbbbbb',
    name: 'Twelve tiles',
    tiles: [...seeded.tiles, ...seeded.tiles.map((t, i) => ({ ...t, id: `copy${i}`, y: (t.y ?? 0) + 20 }))],
  };
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const raw = rawQuery(cfg, agent);
  const reference = async (statements: string[]): Promise<number> => {
    const t0 = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < statements.length) await raw(statements[next++] as string);
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    return performance.now() - t0;
  };
  // The limiter spaces statements by the window plus its margin (10.25 s); wait a little longer.
  const freshWindow = () => new Promise((r) => setTimeout(r, 11_000));
  const once = async (): Promise<PreviewOutcome> => {
    const out = await vscode.commands.executeCommand<PreviewOutcome>('observability.previewDashboard', {
      connectionId: cfg.connectionId,
      serviceId: cfg.serviceId,
      dashboard: twelve,
    });
    if (!out?.ok || out.rendered?.tiles.length !== 12) throw new Error(`dashboard preview: ${JSON.stringify(out)}`);
    const bad = out.rendered.tiles.filter((t) => t.kind === 'error' || t.kind === 'loading');
    if (bad.length) throw new Error(`dashboard preview: tiles not drawn ${JSON.stringify(bad)}`);
    return out;
  };
  try {
    // Cold: the panel closed, the sources and their columns not yet looked up. The emulator's embedded ClickHouse
    // starts on its first statement (about 1 s, the emulator's own start-up, which a live service does not have):
    // started before, by the reference's client, so the cold run times the extension, not the emulator.
    await raw('SELECT 1');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await freshWindow();
    const cold = await once();
    const coldRef = await reference(cold.statements ?? []);
    const elapsed: number[] = [];
    const refs: number[] = [];
    const ratios: number[] = [];
    let queries = 0;
    for (let i = 0; i < cfg.runs; i++) {
      await freshWindow();
      const out = await once();
      const ref = await reference(out.statements ?? []);
      elapsed.push(out.elapsedMs ?? NaN);
      refs.push(ref);
      ratios.push((out.elapsedMs ?? NaN) / ref);
      queries = out.queries ?? 0;
    }
    return {
      method:
        `executeCommand('observability.previewDashboard') with the seeded dashboard's 6 tiles twice over, to the panel's report of every tile drawn (elapsedMs), ` +
        `default query budget (10 per 10 s) with a fresh window before each run; median of ${cfg.runs} warm runs (sources and columns looked up, panel open) after one cold run ` +
        "(panel closed, sources and column types not looked up; the emulator's embedded ClickHouse already started by a reference query); " +
        "the preview sends one statement for the column types of all the tiles' tables (cold only) and one for all the tiles (the batch); " +
        "rawFetchParseMs = each querying tile's own statement with bare undici (4 at a time) + JSON.parse per line, right after each run",
      tiles: 12,
      queriesPerWarmRun: queries,
      coldMs: cold.elapsedMs,
      coldQueries: cold.queries,
      coldRawFetchParseMs: Math.round(coldRef * 10) / 10,
      warmMs: stats(elapsed),
      rawFetchParseMs: stats(refs),
      ratioToRaw: stats(ratios).median,
    };
  } finally {
    await agent.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
}

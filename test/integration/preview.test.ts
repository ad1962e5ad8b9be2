/**
 * The tile preview and alert backtest panels in a real VS Code: each kind of tile, a 12-tile dashboard on its grid
 * and a backtest drawn from fixed data, checked through what the webview reports it drew (visible text, charts,
 * series, threshold, fired windows, transitions, grid placement, theme colours); the panel coming back after being
 * hidden (its webview is not kept), a theme change redrawing in the new colours, Copy and Open as Table.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { PreviewPanel } from '../../src/preview/panel';
import { checkoutBacktest, checkoutDashboard, singleTiles } from '../support/previewData';
import { waitFor } from './support';

const EXTENSION_ID = 'obs-tools.observability-explorer';
const END = Date.UTC(2026, 10, 22, 14, 0);
const pad = (n: number) => String(n).padStart(2, '0');
/** The zone the webview names beside times (the host and the webview run on the same machine). */
const zoneOf = (ms: number) => {
  const offset = -new Date(ms).getTimezoneOffset();
  return offset === 0
    ? 'UTC'
    : `UTC${offset > 0 ? '+' : '−'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
};
/** The webview's time in a table row (viewer's time zone; the table's header names the zone). */
const time = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
/** A time standing on its own, with its zone. */
const label = (ms: number) => `${time(ms)} ${zoneOf(ms)}`;

describe('Chart previews', function () {
  this.timeout(120_000);
  let preview: PreviewPanel;
  let backtest: PreviewPanel;
  const tiles = singleTiles(END);

  before(() => {
    const uri = vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri;
    preview = new PreviewPanel(uri, 'preview');
    backtest = new PreviewPanel(uri, 'backtest');
  });

  after(async () => {
    preview?.dispose();
    backtest?.dispose();
    await vscode.workspace
      .getConfiguration('workbench')
      .update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('draws a line tile as a canvas chart with its legend and its data as a table', async () => {
    const r = await preview.show(tiles.line!);
    assert.ok(r, 'the webview reported the drawing');
    const s = r.summary;
    assert.equal(s.kind, 'timeseries');
    assert.equal(s.charts, 1);
    assert.equal(s.series, 3);
    assert.equal(s.points, 180);
    assert.equal(s.dataTables, 1, 'a table of the data for screen readers');
    assert.equal(s.threshold, 'none');
    assert.match(s.text, /^p95 latency \(ms\)/);
    assert.match(s.text, /POST \/api\/checkout GET \/api\/cart POST \/api\/payment/, 'legend');
    assert.match(s.text, /Chart data as a table \(60 rows\)/);
    assert.match(s.firstSeriesColor, /^(#|rgb)/, 'series colour read from the theme');
    assert.equal(preview.isOpen, true);
  });

  it('draws stacked bars, a big number with its format, a table, log lines, Markdown as text and a "cannot preview" notice', async () => {
    const stacked = (await preview.show(tiles.stacked!))!.summary;
    assert.equal(stacked.charts, 1);
    assert.equal(stacked.series, 3);
    assert.match(stacked.text, /200 404 500/);

    const number = (await preview.show(tiles.number!))!.summary;
    assert.equal(number.kind, 'number');
    assert.equal(number.text, 'Requests 1,284,530');
    assert.equal(number.charts, 0);

    const table = (await preview.show(tiles.table!))!.summary;
    assert.match(table.text, /SpanName p99 \(ms\) requests POST \/api\/payment 1840\.2 5312 POST \/api\/checkout/);

    const search = (await preview.show(tiles.search!))!.summary;
    assert.match(search.text, /ERROR checkout payment declined: card_expired \(order 81723\)/);
    assert.match(search.text, /WARN checkout retrying cart lookup/);

    const hostile = (await preview.show({
      kind: 'markdown',
      title: 'Notes',
      text: '## Runbook\n\n<img src=x onerror="alert(1)"> **bold** [click](javascript:alert%281%29)',
    }))!.summary;
    assert.match(
      hostile.text,
      /Runbook <img src=x onerror="alert\(1\)"> bold click \(javascript:alert%281%29\)/,
      'HTML shows as text, the link as its text and target',
    );

    const unsupported = (await preview.show(tiles.unsupported!))!.summary;
    assert.equal(unsupported.text, 'Error ratio Cannot preview: formulas are not previewed yet');

    const error = (await preview.show({
      kind: 'error',
      title: 'Error rate',
      message: 'Run tile query: HTTP 500 Code: 60. DB::Exception: Unknown table (request ID 4f2a)',
    }))!.summary;
    assert.match(error.text, /Could not load the data: Run tile query: HTTP 500 .* \(request ID 4f2a\)/);
  });

  it('lays a 12-tile dashboard out on its grid in one panel', async () => {
    const dash = checkoutDashboard(END);
    const r = await preview.show(dash);
    assert.ok(r);
    const s = r.summary;
    assert.equal(s.kind, 'dashboard');
    assert.equal(s.tiles.length, 12);
    const byId = new Map(s.tiles.map((t) => [t.id, t]));
    assert.deepEqual(byId.get('t01'), { id: 't01', kind: 'timeseries', area: '1 / 1 / span 4 / span 12' });
    assert.deepEqual(byId.get('t02'), { id: 't02', kind: 'timeseries', area: '1 / 13 / span 4 / span 12' });
    assert.deepEqual(byId.get('t03'), { id: 't03', kind: 'number', area: '5 / 1 / span 3 / span 6' });
    assert.deepEqual(byId.get('t09'), { id: 't09', kind: 'unsupported', area: '10 / 13 / span 3 / span 6' });
    assert.equal(s.charts, 5, 'every time-series tile is drawn');
    assert.equal(s.dataTables, 5);
    for (const t of dash.tiles) assert.ok(s.text.includes(t.name!), `tile "${t.name}" shown`);
    assert.match(s.text, /3\.42%/);
    assert.match(s.text, /7\.0 GiB/);
    assert.match(s.text, /Cannot preview: formulas are not previewed yet/);
    // How fast it is drawn is the benchmark's (scripts/bench.mjs, previewDrawnMs).
    assert.ok(Number.isFinite(r.ms) && r.ms >= 0, `drawn in ${r.ms} ms`);
  });

  it('shows a backtest: threshold, windows that would have fired, transitions with times', async () => {
    const data = checkoutBacktest(END);
    const fired = data.firedWindows!;
    const transitions = data.transitions!;
    assert.ok(fired.length > 0 && transitions.length >= 2, 'the fixture crosses the threshold');
    const r = await backtest.show(data);
    assert.ok(r);
    const s = r.summary;
    assert.equal(s.threshold, 'line');
    assert.equal(s.firedWindows, fired.length);
    assert.equal(s.transitions, transitions.length);
    assert.ok(
      s.text.includes(`Would have fired ${fired.length}× in this range (last at ${label(fired.at(-1)!.start)}).`),
      s.text,
    );
    assert.match(s.text, /fires when at least 40/);
    // The rule beside the count, and the series of each transition.
    assert.match(s.text, /Rule: fires when at least 40 · on the first window over the threshold/);
    const t0 = transitions[0]!.time;
    assert.ok(
      s.text.includes(
        `Transitions Time (${zoneOf(t0)}) Series From To Value Decided by ${time(t0)} ${data.series[0]!.name} OK ALERT`,
      ),
      s.text,
    );

    const band = checkoutBacktest(END, { type: 'not_between', value: 5, max: 60 });
    const rb = (await backtest.show(band))!.summary;
    assert.equal(rb.threshold, 'band');
    assert.match(rb.text, /fires when outside 5 to 60/);
    assert.equal(rb.firedWindows, band.firedWindows!.length);

    const quiet = checkoutBacktest(END, { type: 'above', value: 10_000 });
    const rq = (await backtest.show(quiet))!.summary;
    assert.match(rq.text, /Would not have fired in this range\./);
    assert.match(rq.text, /No transitions/);
  });

  it('comes back with its drawing after being hidden (the webview is not kept while hidden)', async () => {
    await preview.show(tiles.line!);
    const before = preview.rendered!.summary.text;
    // Another editor in the panel's group hides it; its webview is destroyed.
    const doc = await vscode.workspace.openTextDocument({ content: 'hide the preview' });
    await vscode.window.showTextDocument(doc, { viewColumn: preview.viewColumn, preview: false });
    // The workbench tells the panel it is hidden a moment later (later still on a busy host).
    await waitFor('the preview to be hidden', () => !preview.visible);
    // Shown again without new data: the rebuilt webview asks, the panel sends what it showed last.
    const redrawn = preview.nextRender();
    preview.reveal();
    const r = await redrawn;
    assert.ok(r, 'drawn again');
    assert.equal(r.summary.text, before);
    assert.equal(preview.visible, true);
  });

  it('draws again in the colours of a new theme', async () => {
    const darkNext = preview.nextRender((r) => r.summary.theme === 'vscode-dark');
    await vscode.workspace
      .getConfiguration('workbench')
      .update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
    const shown = (await preview.show(tiles.line!))!.summary;
    // The webview may draw before the new theme reaches it; it then draws again in the new theme's colours.
    const dark = shown.theme === 'vscode-dark' ? shown : (await darkNext)?.summary;
    assert.ok(dark, 'drawn in the dark theme');
    const next = preview.nextRender((r) => r.summary.theme === 'vscode-light');
    await vscode.workspace
      .getConfiguration('workbench')
      .update('colorTheme', 'Default Light Modern', vscode.ConfigurationTarget.Global);
    const light = (await next)?.summary;
    assert.ok(light, 'redrawn after the theme change');
    assert.equal(light.theme, 'vscode-light');
    assert.equal(dark.theme, 'vscode-dark');
    assert.notEqual(light.firstSeriesColor, dark.firstSeriesColor, 'the series colour follows the theme');
    assert.equal(light.charts, 1);
    const hc = preview.nextRender((r) => r.summary.theme === 'vscode-high-contrast');
    await vscode.workspace
      .getConfiguration('workbench')
      .update('colorTheme', 'Default High Contrast', vscode.ConfigurationTarget.Global);
    assert.equal((await hc)?.summary.theme, 'vscode-high-contrast');
    await vscode.workspace
      .getConfiguration('workbench')
      .update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
  });

  it('copies a tile of a dashboard and opens it as a table', async () => {
    await preview.show(checkoutDashboard(END));
    const text = await preview.copy('t04');
    assert.equal(text?.split('\n')[0], 'SpanName\tp99 (ms)\trequests');
    assert.equal(await vscode.env.clipboard.readText(), text);
    const doc = await preview.openAsTable('t01');
    assert.ok(doc);
    assert.equal(doc.lineCount, 61);
    assert.equal(doc.lineAt(0).text, 'time,POST /api/checkout,GET /api/cart,POST /api/payment');
    assert.equal(await preview.copy('t08'), undefined, 'Markdown has no table');
  });

  it('draws a heatmap as a canvas chart with its cells as a table, and copies its cells', async () => {
    const t = END - 3_600_000;
    const r = await preview.show({
      kind: 'heatmap',
      title: 'Span duration',
      scale: 'log',
      times: Array.from({ length: 4 }, (_, i) => t + i * 900_000),
      stepMs: 900_000,
      lo: 1,
      hi: 10_000,
      buckets: 80,
      cells: [
        { time: t, bucket: 20, from: 1.5848931924611136, to: 1.7782794100389228, count: 12 },
        { time: t + 900_000, bucket: 40, from: 89.12509381337455, to: 100, count: 3 },
        { time: t + 2_700_000, bucket: 81, from: 10_000, to: null, count: 1 },
      ],
    });
    assert.ok(r);
    const s = r.summary;
    assert.equal(s.kind, 'heatmap');
    assert.equal(s.charts, 1);
    assert.equal(s.points, 3, 'three cells with a count');
    assert.equal(s.dataTables, 1);
    assert.match(s.text, /^Span duration .*Rows per cell \(log scale\).*Chart data as a table \(3 rows\)/);
    const text = await preview.copy();
    assert.equal(text?.split('\n')[0], 'time\tbucket\tfrom\tto\tcount');
    assert.equal(text?.split('\n').length, 4);
    assert.match(text?.split('\n')[3] ?? '', /\t81\t10000\t\t1$/, 'the cell above the maximum has no upper edge');
  });
});

/**
 * Search and trace benchmarks, run inside the extension host against the emulator's sample data:
 *
 * - search: Search Events on the log source over 24 hours (1,000 rows, the histogram), from the command to the page's
 *   report that it painted, and the part of it after the last response of its statements ended; beside it, the same
 *   1,000-row view drawn by the search page in a webview of the bench (arrival of the message to the next frame);
 * - traces: Open Trace on the 10,000-span showcase trace, from the command to the model read (the real panel opens),
 *   and its waterfall drawn by the trace page in a webview of the bench (arrival of the message to the next frame).
 *
 * The live tail's request rate is measured in ./liveTail.ts.
 */
import * as diagnosticsChannel from 'node:diagnostics_channel';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import type { TraceModel } from '../../src/render';
import { html as searchHtml } from '../../src/search/panelHtml';
import type { SearchOutcome } from '../../src/search';
import type { SearchTiming } from '../../src/search/protocol';
import { traceHtml } from '../../src/traces/html';
import { traceMessage } from '../../src/traces/model';
import { SHOWCASE } from '../emulator/clickhouse/traces';
import { BundlePage } from './bundlePage';
import { stats, useQueryEndpoint, type QueryEndpointConfig } from './harness';

export interface SearchTracesBenchConfig extends QueryEndpointConfig {
  api: ExtensionApi;
  extensionUri: vscode.Uri;
  runs: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** The service's first source of a kind. */
export async function sourceOf(cfg: SearchTracesBenchConfig, kind: 'log' | 'trace'): Promise<string> {
  const sources = (await cfg.api.connections.clientFor(cfg.connectionId).listSources(cfg.serviceId))
    .data as unknown as { id: string; kind: string; name?: string }[];
  const source = sources.find((s) => s.kind === kind && s.name !== 'Bench code spans');
  if (!source) throw new Error(`the service has no ${kind} source`);
  return source.id;
}

/** When the last HTTP response of this process ended (undici's diagnostics channel; the extension's undici too). */
function responseEnds(): { last(): number; dispose(): void } {
  let last = NaN;
  const onEnd = () => {
    last = performance.now();
  };
  diagnosticsChannel.subscribe('undici:request:trailers', onEnd);
  return { last: () => last, dispose: () => diagnosticsChannel.unsubscribe('undici:request:trailers', onEnd) };
}

/**
 * The stages of a search's drawing, on one clock (epoch ms in the extension host and the page, the same machine):
 * from the last HTTP response's end to the model built, the view posted, received by the page, its frame painted,
 * and the page's report received.
 */
function stagesOf(t: SearchTiming | undefined, lastResponseAt: number): Record<string, number> {
  if (!t || t.receivedAt === undefined || t.paintedAt === undefined || t.reportedAt === undefined) {
    throw new Error(`search: the page reported no painted frame (${JSON.stringify(t)})`);
  }
  return {
    paintedAfterLastResponseMs: t.paintedAt - lastResponseAt,
    responseToModelMs: t.responseAt - lastResponseAt,
    modelToPostMs: t.postedAt - t.responseAt,
    postToPageMs: t.receivedAt - t.postedAt,
    pageToPaintMs: t.paintedAt - t.receivedAt,
    paintToReportMs: t.reportedAt - t.paintedAt,
    ...(t.restPostedAt !== undefined && t.allPaintedAt !== undefined
      ? {
          restPostedAfterPaintMs: t.restPostedAt - t.paintedAt,
          allPaintedAfterLastResponseMs: t.allPaintedAt - lastResponseAt,
        }
      : {}),
  };
}

export async function measureSearch(cfg: SearchTracesBenchConfig): Promise<Record<string, unknown>> {
  await useQueryEndpoint(cfg, 1000);
  const sourceId = await sourceOf(cfg, 'log');
  const args = { connectionId: cfg.connectionId, serviceId: cfg.serviceId, sourceId, range: '24h' };
  const search = async () => {
    const ends = responseEnds();
    try {
      const t = performance.now();
      const out = await vscode.commands.executeCommand<SearchOutcome>('observability.searchEvents', args);
      const end = performance.now();
      const view = out?.state?.view;
      if (!out?.ok || !view || !out.state?.rendered) throw new Error(`search: ${JSON.stringify(out).slice(0, 300)}`);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const stages = stagesOf(out.state.timing, performance.timeOrigin + ends.last());
      return { commandMs: end - t, afterResponseMs: end - ends.last(), view, rendered: out.state.rendered, stages };
    } finally {
      ends.dispose();
    }
  };
  await search(); // warm-up: the engine, the webview's script
  const runs: Awaited<ReturnType<typeof search>>[] = [];
  for (let i = 0; i < cfg.runs; i++) runs.push(await search());
  const last = runs[runs.length - 1]!;
  if (last.view.rows.length !== 1000) throw new Error(`search: ${last.view.rows.length} rows, not 1,000`);

  const page = new BundlePage(cfg.extensionUri, 'search.js', searchHtml, 'Search (bench)');
  const drawn: number[] = [];
  try {
    await page.draw({ type: 'view', view: last.view });
    for (let i = 0; i < cfg.runs; i++) drawn.push(await page.draw({ type: 'view', view: last.view }));
  } finally {
    page.dispose();
  }
  return {
    method:
      `median of ${cfg.runs} runs after a warm-up. commandMs = observability.searchEvents on the log source over 24 h ` +
      '(a new panel each run: sources, table facts, the rows and histogram statements, the page painted and its ' +
      "report back); afterLastResponseMs = the part of it after the last HTTP response ended (undici's diagnostics " +
      'channel in the extension host): the rows and histogram to the webview, painted, reported; stages = the same ' +
      "part on one clock (epoch ms in the extension host and the page): paintedAfterLastResponseMs to the page's " +
      'frame that shows the rows and histogram, and its parts (model built, posted, received, painted, reported); ' +
      'pagePaintMs = the ' +
      "same 1,000-row view posted to the search page (dist/search.js and its panel's HTML) in a webview of the bench, " +
      'from the message arriving to the next frame painted',
    rows: last.view.rows.length,
    histogramBars: last.rendered.bars,
    histogramTotal: last.view.histogram.total,
    viewJsonKB: round1(JSON.stringify(last.view).length / 1024),
    commandMs: stats(runs.map((r) => r.commandMs)),
    afterLastResponseMs: stats(runs.map((r) => r.afterResponseMs)),
    stages: Object.fromEntries(Object.keys(last.stages).map((k) => [k, stats(runs.map((r) => r.stages[k] ?? NaN))])),
    pagePaintMs: stats(drawn),
  };
}

export async function measureTraces(cfg: SearchTracesBenchConfig): Promise<Record<string, unknown>> {
  await useQueryEndpoint(cfg, 1000);
  const sourceId = await sourceOf(cfg, 'trace');
  const args = { connectionId: cfg.connectionId, serviceId: cfg.serviceId, sourceId, traceId: SHOWCASE.bulk };
  const open = async () => {
    const t = performance.now();
    const model = await vscode.commands.executeCommand<TraceModel | undefined>('observability.openTrace', args);
    const ms = performance.now() - t;
    if (!model) throw new Error('Open Trace answered no trace');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    return { ms, model };
  };
  await open(); // warm-up
  const opened: number[] = [];
  let model: TraceModel | undefined;
  for (let i = 0; i < cfg.runs; i++) {
    const r = await open();
    opened.push(r.ms);
    model = r.model;
  }
  const message = traceMessage(model!, 'Trace (bench)');
  if (message.rows.length !== SHOWCASE.bulkSpans) {
    throw new Error(`the trace has ${message.rows.length} rows, not ${SHOWCASE.bulkSpans}`);
  }
  const page = new BundlePage(cfg.extensionUri, 'traces.js', traceHtml, 'Trace (bench)');
  const drawn: number[] = [];
  try {
    await page.draw({ ...message });
    for (let i = 0; i < cfg.runs; i++) drawn.push(await page.draw({ ...message }));
  } finally {
    page.dispose();
  }
  return {
    method:
      `median of ${cfg.runs} runs after a warm-up. openTraceMs = observability.openTrace on the 10,000-span showcase ` +
      'trace, from the command to its answer (the spans and logs read, the model built, the panel opened and sent ' +
      'the trace); waterfallDrawnMs = the trace message of the same model posted to the trace page ' +
      "(dist/traces.js and its panel's HTML) in a webview of the bench, from the message arriving to the next frame " +
      'painted (the page draws the rows in view, the axis, the logs, and selects the first failing span)',
    spans: message.rows.length,
    messageJsonKB: round1(JSON.stringify(message).length / 1024),
    openTraceMs: stats(opened),
    waterfallDrawnMs: stats(drawn),
  };
}

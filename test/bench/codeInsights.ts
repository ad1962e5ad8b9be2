/**
 * Code-insights benchmark, run inside the extension host whose workspace folder the launcher made
 * (test/bench/codeData.ts: a TypeScript file of 300 functions, and spans naming each of them in a table of their
 * own). A trace source on that table is added to the service as a user would (the API), the folder's pick is set,
 * and then: the requests of each Refresh Code Insights (expected: one aggregate statement per pick), and the
 * CodeLenses of the 300-function file once the aggregate is kept — the first open (the TypeScript language server
 * starting) and later opens (the editor closed and opened again), with the requests they caused (expected: none).
 */
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { BENCH_CODE_DATABASE, BENCH_CODE_FILE } from './codeData';
import type { LensCall } from '../../src/codeInsights/lensCalls';
import { stats, useQueryEndpoint, type QueryEndpointConfig } from './harness';
import { timeline, watchLoop } from './lensTimeline';

export interface CodeInsightsBenchConfig extends QueryEndpointConfig {
  api: ExtensionApi;
  runs: number;
  /** Every request the emulator logged so far (API and query host, the key's one budget). */
  requests(): Promise<{ path: string; status: number }[]>;
}

const SOURCE_NAME = 'Bench code spans';
const SHOW_FIGURES = 'observability.codeInsights.showFigures';
/** The tooltip of a lens drawn from the plain scan until the symbol provider answers. */
const INTERIM = /until the language server answers/;

interface RefreshOutcome {
  state: string;
  rows: number;
  error?: string;
}

/** The trace source on the bench's spans table: the service's own trace source with another table. */
async function benchSource(cfg: CodeInsightsBenchConfig): Promise<string> {
  const client = cfg.api.connections.clientFor(cfg.connectionId);
  const sources = (await client.listSources(cfg.serviceId)).data as unknown as Record<string, unknown>[];
  const kept = sources.find((s) => s.name === SOURCE_NAME);
  if (kept) return String(kept.id);
  const traces = sources.find((s) => s.kind === 'trace');
  if (!traces) throw new Error('the service has no trace source to copy');
  const body = Object.fromEntries(
    Object.entries(traces).filter(([k]) => !['id', '_id', 'createdAt', 'updatedAt', 'team'].includes(k)),
  );
  body.name = SOURCE_NAME;
  body.from = { databaseName: BENCH_CODE_DATABASE, tableName: 'otel_traces' };
  const created = (await client.createSource(cfg.serviceId, body as never)) as unknown as {
    data?: { id?: string };
    id?: string;
  };
  const id = created.data?.id ?? created.id;
  if (!id) throw new Error(`the bench source was not created: ${JSON.stringify(created).slice(0, 200)}`);
  return id;
}

/** The query host's statements: `POST /service/{id}/run`. */
const isQueryHost = (p: string) => p.startsWith('/service/');

/** Requests logged while `fn` ran: to the query host (statements) and to the management API. */
async function counted<T>(cfg: CodeInsightsBenchConfig, fn: () => Promise<T>) {
  const before = (await cfg.requests()).length;
  const value = await fn();
  const log = (await cfg.requests()).slice(before).filter((r) => !r.path.startsWith('/__emulator'));
  return { value, statements: log.filter((r) => isQueryHost(r.path)).length, apiRequests: log.length };
}

/** Stats of the samples that exist (null where an open did not give the figure). */
const statsOf = (xs: (number | null | undefined)[]) => {
  const known = xs.filter((x): x is number => typeof x === 'number');
  return known.length > 0 ? stats(known) : null;
};

export async function measureCodeInsights(cfg: CodeInsightsBenchConfig): Promise<Record<string, unknown>> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the bench host has no workspace folder');
  const file = vscode.Uri.joinPath(folder.uri, BENCH_CODE_FILE);
  await vscode.workspace.fs.stat(file);
  await useQueryEndpoint(cfg, 1000);
  const sourceId = await benchSource(cfg);
  await vscode.commands.executeCommand('observability.codeInsights.chooseService', {
    folder: folder.uri.toString(),
    connectionId: cfg.connectionId,
    serviceId: cfg.serviceId,
    sourceId,
  });

  // Refresh Code Insights, several times: what each sends.
  const refreshes: {
    statements: number;
    apiRequests: number;
    ms: number;
    rows: number;
    aggregate: number;
    signals: number;
  }[] = [];
  const insights = cfg.api.codeInsights;
  for (let i = 0; i < Math.max(3, Math.min(cfg.runs, 5)); i++) {
    const sent = { aggregate: insights.statements, signals: insights.signalStatements };
    const t = performance.now();
    const r = await counted(cfg, async () =>
      vscode.commands.executeCommand<RefreshOutcome[]>('observability.codeInsights.refresh'),
    );
    const ms = performance.now() - t;
    const outcome = r.value?.[0];
    if (outcome?.state !== 'done') throw new Error(`the aggregate failed: ${JSON.stringify(outcome).slice(0, 300)}`);
    refreshes.push({
      statements: r.statements,
      apiRequests: r.apiRequests - r.statements,
      ms,
      rows: outcome.rows,
      aggregate: insights.statements - sent.aggregate,
      signals: insights.signalStatements - sent.signals,
    });
  }

  // The lenses of the 300-function file, the aggregate kept: the first open, then the file closed and opened again.
  const key = file.toString();
  const callsSince = (t: number) => cfg.api.codeInsights.lensCalls().filter((c) => c.uri === key && c.entry >= t);
  const lensRun = async () => {
    let openEvent: number | undefined;
    const sub = vscode.workspace.onDidOpenTextDocument((d) => {
      if (d.uri.toString() === key) openEvent ??= performance.now();
    });
    const loop = watchLoop();
    const t = performance.now();
    const doc = await vscode.workspace.openTextDocument(file);
    const opened = performance.now();
    await vscode.window.showTextDocument(doc);
    const p = performance.now();
    const lenses =
      (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file)) ?? [];
    const end = performance.now();
    const gaps = loop.stop();
    sub.dispose();
    const steps = timeline({ start: t, opened, openEvent, shown: p, answered: end }, callsSince(t), gaps);
    const ours = lenses.filter((l) => l.command?.command === SHOW_FIGURES);
    // Lenses drawn from the plain scan while the symbols are asked for: asked again until the symbol-based ones come.
    const interim = (ls: vscode.CodeLens[]) => ls.some((l) => INTERIM.test(l.command?.tooltip ?? ''));
    let final = ours;
    while (interim(final)) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const again = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', file);
      final = (again ?? []).filter((l) => l.command?.command === SHOW_FIGURES);
    }
    const symbolLensesMs = performance.now() - t;
    const lines = (ls: vscode.CodeLens[]) => ls.map((l) => `${l.range.start.line}:${l.command?.title}`).join('|');
    // The editor's own ask, after its debounce from the file shown (375 ms in a development host): at most 3 s.
    let editorAsk: LensCall | undefined;
    for (let i = 0; i < 300 && !editorAsk; i++) {
      editorAsk = callsSince(end).find((c) => !c.ahead);
      if (!editorAsk) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The language's symbol provider alone (what the lenses ask first), the document open.
    const s = performance.now();
    await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', file);
    const symbolsMs = performance.now() - s;
    // The lenses asked again, the file open and its symbols known to the language server.
    const a = performance.now();
    await vscode.commands.executeCommand('vscode.executeCodeLensProvider', file);
    const againMs = performance.now() - a;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    return {
      openToLensesMs: end - t,
      providerMs: end - p,
      fromScan: interim(ours),
      symbolLensesMs,
      sameLines: lines(ours) === lines(final),
      symbolsMs,
      againMs,
      lenses: ours.length,
      plain: ours.some((l) => /\(plain scan\)/.test(l.command?.title ?? '')),
      example: ours[0]?.command?.title,
      steps,
      editorAsk: editorAsk?.returned
        ? {
            afterShownMs: Math.round((editorAsk.entry - p) * 10) / 10,
            providerMs: Math.round((editorAsk.returned - editorAsk.entry) * 10) / 10,
            kept: editorAsk.kept,
            lenses: editorAsk.lenses,
          }
        : null,
    };
  };
  const first = await counted(cfg, lensRun);
  const later: Awaited<ReturnType<typeof lensRun>>[] = [];
  let laterRequests = 0;
  for (let i = 0; i < cfg.runs; i++) {
    const r = await counted(cfg, lensRun);
    later.push(r.value);
    laterRequests += r.apiRequests;
  }
  await vscode.commands.executeCommand('observability.codeInsights.chooseService', {
    folder: folder.uri.toString(),
    clear: true,
  });
  const lensCounts = [first.value.lenses, ...later.map((l) => l.lenses)];
  if (lensCounts.some((n) => n !== 300)) throw new Error(`lenses shown per open: ${lensCounts.join(', ')} (not 300)`);
  return {
    method:
      'a workspace folder with a generated TypeScript file of 300 methods (10 classes of 30) and 40 spans of each in ' +
      'a table of their own (stable code attributes, deployed path /app/src/bench/…), read through a trace source ' +
      'added to the service. refreshes = Refresh Code Insights with the pick set, the requests the emulator logged ' +
      'during each (statements = to the query host; apiRequests = to the management API). lenses = the file opened ' +
      'and shown, then vscode.executeCodeLensProvider on it, the aggregate kept: openToLensesMs from openTextDocument ' +
      'to the lenses, providerMs the provider call alone (fromScan: drawn from the plain scan, the symbols not answered ' +
      'yet; symbolLensesMs from openTextDocument to the symbol-based lenses, asked again every 10 ms; sameLines: the ' +
      'same lines and titles), symbolsMs = vscode.executeDocumentSymbolProvider on the ' +
      'same file right after; againMs = the lenses asked again after that (the file open, its symbols known); first = the first open (the TypeScript language server ' +
      'starting), later = the editor closed and the file opened again. steps (ms from openTextDocument, one clock: the ' +
      "bench runs in the extension's host): the document opened / shown / the ask answered, each lens provider call " +
      '(entry, rows looked up, definitions, matched, returned; ahead = made when the file was opened or shown, kept = ' +
      'handed back made), openedToProviderLensesMs = from openTextDocument resolved to the first ask answered with ' +
      'lenses, eventToLensesMadeMs = from the host event (document opened or editor shown) to the lenses made, ask = ' +
      "the bench's executeCodeLensProvider: sent to our provider's entry / our provider / its return to the answer, " +
      "loopHeldMs = time a 5 ms timer of the host fired 20 ms or more late; editorAsk = the editor's own ask (after " +
      'its debounce), aggregateStatementsPerRefresh / signalStatementsPerRefresh = statements the extension counted',
    functions: 300,
    aggregateRows: refreshes[0]?.rows,
    statementsPerRefresh: refreshes.map((r) => r.statements),
    aggregateStatementsPerRefresh: refreshes.map((r) => r.aggregate),
    signalStatementsPerRefresh: refreshes.map((r) => r.signals),
    apiRequestsPerRefresh: refreshes.map((r) => r.apiRequests),
    refreshMs: stats(refreshes.map((r) => r.ms)),
    lenses: {
      perOpen: 300,
      plainScan: first.value.plain,
      example: first.value.example,
      first: {
        openToLensesMs: Math.round(first.value.openToLensesMs * 10) / 10,
        providerMs: Math.round(first.value.providerMs * 10) / 10,
        fromScan: first.value.fromScan,
        symbolLensesMs: Math.round(first.value.symbolLensesMs * 10) / 10,
        sameLines: first.value.sameLines,
        symbolsMs: Math.round(first.value.symbolsMs * 10) / 10,
        againMs: Math.round(first.value.againMs * 10) / 10,
        requests: first.apiRequests,
        steps: first.value.steps,
        editorAsk: first.value.editorAsk,
      },
      later: {
        openToLensesMs: stats(later.map((l) => l.openToLensesMs)),
        providerMs: stats(later.map((l) => l.providerMs)),
        fromScan: later.filter((l) => l.fromScan).length,
        symbolLensesMs: stats(later.map((l) => l.symbolLensesMs)),
        sameLines: later.every((l) => l.sameLines),
        symbolsMs: stats(later.map((l) => l.symbolsMs)),
        againMs: stats(later.map((l) => l.againMs)),
        requests: laterRequests,
        openedToProviderLensesMs: statsOf(later.map((l) => l.steps.openedToProviderLensesMs)),
        openedToLensesMadeMs: statsOf(later.map((l) => l.steps.openedToLensesMadeMs)),
        eventToLensesMadeMs: statsOf(later.map((l) => l.steps.eventToLensesMadeMs)),
        shownMs: statsOf(later.map((l) => l.steps.shownMs)),
        askToProviderMs: statsOf(later.map((l) => l.steps.ask?.toProviderMs)),
        askProviderMs: statsOf(later.map((l) => l.steps.ask?.providerMs)),
        askBackMs: statsOf(later.map((l) => l.steps.ask?.backMs)),
        loopHeldOpeningMs: statsOf(later.map((l) => l.steps.loopHeldMs.opening)),
        loopHeldAskingMs: statsOf(later.map((l) => l.steps.loopHeldMs.asking)),
        editorAskAfterShownMs: statsOf(later.map((l) => l.editorAsk?.afterShownMs)),
        editorAskProviderMs: statsOf(later.map((l) => l.editorAsk?.providerMs)),
        opens: later.map((l) => ({ ...l.steps, editorAsk: l.editorAsk })),
      },
    },
  };
}

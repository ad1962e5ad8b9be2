/**
 * Live tail benchmark, run inside the extension host under the key's default budget (10 requests / 10 s, enforced by
 * the emulator on its API and by the extension's one limiter per key on both the API and the query endpoint): a live
 * tail of the log source runs for a minute — the search panel's tail (src/search/tail.ts, its timer, its two
 * statements per tick) through the extension's SQL route (`api.query.run`: the connection's query client and the
 * key's limiter) — while the explorer shows a service with its folders expanded and is refreshed every 15 s (the
 * Refresh command, as a user would). The emulator's log gives what was sent: requests per minute, the most in any
 * 10 s, 429 responses; the tree says whether it showed a rate-limit error.
 */
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { SEARCH_BYTES, SEARCH_ROWS, tableFacts, type SearchRequest } from '../../src/search/model';
import { LiveTail, TAIL_INTERVAL_MS } from '../../src/search/tail';
import { useQueryEndpoint, type QueryEndpointConfig } from './harness';

export interface LiveTailBenchConfig extends QueryEndpointConfig {
  api: ExtensionApi;
  /** Every request the emulator logged so far. */
  requests(): Promise<{ path: string; status: number; at: number }[]>;
  /** Sets the budget: the emulator's limit on its API and the extension's setting. */
  setBudget(requests: number, windowMs: number): Promise<void>;
  durationMs?: number;
}

const WINDOW_MS = 10_000;
const BUDGET = 10;
const TREE_REFRESH_MS = 15_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The most requests whose times fall within any `windowMs`. */
function mostInWindow(times: number[], windowMs: number): number {
  const s = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < s.length; i++) {
    while ((s[i] as number) - (s[j] as number) >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

export async function measureLiveTail(cfg: LiveTailBenchConfig): Promise<Record<string, unknown>> {
  const durationMs = cfg.durationMs ?? 60_000;
  await cfg.setBudget(BUDGET, WINDOW_MS);
  await useQueryEndpoint(cfg, BUDGET);
  const { api } = cfg;
  const sources = (await api.connections.clientFor(cfg.connectionId).listSources(cfg.serviceId))
    .data as unknown as (SearchRequest['source'] & { kind: string })[];
  const source = sources.find((s) => s.kind === 'log');
  if (!source) throw new Error('the service has no log source');
  const run = (sql: string) =>
    api.query.run(cfg.connectionId, { serviceId: cfg.serviceId, sql, maxRows: SEARCH_ROWS, maxBytes: SEARCH_BYTES });
  const now = Date.now();
  const request: SearchRequest = {
    source,
    condition: '',
    language: 'lucene',
    range: { from: now - 15 * 60_000, to: now },
    ...(await tableFacts(run, source)),
  };

  // The explorer: the service and its folders expanded (their lists loaded), before the minute starts.
  const { provider, view } = api.tree;
  const service = provider.findService(cfg.connectionId, cfg.serviceId);
  if (!service) throw new Error('the service is not in the tree');
  await view.reveal(service, { expand: true, select: false, focus: false });
  for (const kind of ['dashboards', 'alerts', 'sources', 'queryEndpoint'] as const) {
    const folder = provider.folder(cfg.connectionId, cfg.serviceId, kind);
    if (folder) await view.reveal(folder, { expand: true, select: false, focus: false });
  }
  await sleep(WINDOW_MS); // the budget's window clear of the set-up's requests

  let ticks = 0;
  let rowsReceived = 0;
  const tail = new LiveTail({
    request: () => request,
    run,
    onRows: (model, range) => {
      ticks++;
      rowsReceived += model.raw.length;
      request.range = range;
    },
  });
  tail.reset([], request.range.to);
  const before = (await cfg.requests()).length;
  const started = Date.now();
  tail.start();
  let treeRefreshes = 0;
  const refresher = setInterval(() => {
    treeRefreshes++;
    void vscode.commands.executeCommand('observability.refresh');
  }, TREE_REFRESH_MS);
  await sleep(durationMs);
  tail.stop();
  clearInterval(refresher);
  await sleep(2000); // what was in flight ends
  const log = (await cfg.requests()).slice(before).filter((r) => !r.path.startsWith('/__emulator'));
  const inMinute = log.filter((r) => r.at >= started && r.at < started + durationMs);
  const statements = inMinute.filter((r) => r.path.startsWith('/service/')).length;
  let rateLimitErrorsShown = 0;
  for (const kind of ['dashboards', 'alerts', 'webhooks', 'sources', 'queryEndpoint'] as const) {
    const e = provider.cache.entry(cfg.connectionId, cfg.serviceId, kind).error;
    if (e && (e.kind === 'rateLimited' || e.status === 429)) rateLimitErrorsShown++;
  }
  const perMinute = Math.round((inMinute.length * 60_000) / durationMs);
  const most = mostInWindow(
    log.map((r) => r.at),
    WINDOW_MS,
  );
  await cfg.setBudget(1000, 1000);
  return {
    method:
      `the search panel's live tail (a tick every ${TAIL_INTERVAL_MS / 1000} s: the rows since the last tick, then ` +
      "the histogram) on the log source for one minute through the extension's SQL route, the explorer showing the " +
      `service's folders and refreshed every ${TREE_REFRESH_MS / 1000} s; budget ${BUDGET} requests / ` +
      `${WINDOW_MS / 1000} s per key (emulator and extension). requestsPerMinute = every request the emulator logged ` +
      'in the minute (API and query host); mostIn10s = the most in any 10 s, the minute and what was in flight at ' +
      'its end',
    durationS: durationMs / 1000,
    tailTicks: ticks,
    rowsReceived,
    treeRefreshes,
    requestsPerMinute: perMinute,
    statementsPerMinute: Math.round((statements * 60_000) / durationMs),
    apiRequestsPerMinute: Math.round(((inMinute.length - statements) * 60_000) / durationMs),
    mostIn10s: most,
    budgetPer10s: BUDGET,
    insideBudget: most <= BUDGET,
    responses429: log.filter((r) => r.status === 429).length,
    rateLimitErrorsShown,
  };
}

/**
 * Benchmark entry loaded in a real VS Code extension host (`extensionTestsPath`, run by scripts/bench.mjs through
 * test/host/runInCodeServer.ts). It measures, against the emulator started by the launcher:
 *
 * - activation: wall time of `getExtension().activate()` in this fresh host, the same for an empty reference extension
 *   installed beside it, the JavaScript files of the extension that Node evaluates during the call, and the
 *   `activationMs` the extension measures inside `activate()`;
 * - first use: loading the features bundle, then the first expand of a folder in the real view, then the first
 *   resource document opened for editing;
 * - scripted browse of every data service under the default 10 requests / 10 s limit: requests sent, 429 responses,
 *   rate-limit errors shown in the tree;
 * - Alerts folder for N alerts: provider `getChildren` + `getTreeItem` of every child (with and without the network
 *   load), and the real view: `TreeView.reveal(folder, { expand: true })` from call to resolution;
 * - per-request overhead of the API client against a bare `undici.request` on the same path.
 *
 * Environment: OBS_BENCH_CONFIG (JSON, see BenchConfig). The results are written to `resultsFile` as JSON.
 */
import * as fs from 'node:fs';
import * as nodeModule from 'node:module';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { Agent, request } from 'undici';
import { ObservabilityClient, RateLimiter } from '../../src/api';
import type { ExtensionApi } from '../../src/extension';
import type { Node } from '../../src/tree/nodes';
import type { ResourceKind } from '../../src/resources/model';
import { measureQuery } from './query';
import { measurePreview } from './preview';
import { measureServiceFolder } from './serviceFolder';
import { measureCodeInsights } from './codeInsights';
import { measureLiveTail } from './liveTail';
import { measureSearch, measureTraces } from './searchTraces';

export interface BenchConfig {
  url: string;
  keyId: string;
  keySecret: string;
  organizationId: string;
  /** Services with data, in order; the first receives the generated alerts. */
  dataServiceIds: string[];
  resultsFile: string;
  /** Only measure activation (extra fresh-host samples). */
  activationOnly?: boolean;
  /** Which fresh host this is (0 = the first). */
  sampleIndex?: number;
  /** Two empty extensions installed in the same host, activated right before and right after this one. */
  emptyExtensionIds: [string, string];
  /** Another empty extension, activated first so that neither measured one pays for the host's first activation. */
  warmupExtensionId: string;
  /** Parts to run (default all): 'browse', 'alerts', 'overhead', 'query', 'preview', 'search', 'traces', 'liveTail', 'codeInsights'. */
  sections?: string[];
  runs: number;
  warmups: number;
  alertCounts: number[];
  /** Alerts the sample data already has in the first service. */
  sampleAlerts: number;
  overhead: { batches: number; perBatch: number };
  /** The emulator's query host (for the 'query' section). */
  queryUrl?: string;
}

const EXTENSION_ID = 'obs-tools.observability-explorer';
const VIEW_ID = 'observability.explorer';

interface Stats {
  median: number;
  p95: number;
  min: number;
  max: number;
  runs: number;
  samples: number[];
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
  const mid = sorted.length / 2;
  const median =
    sorted.length % 2 ? (sorted[Math.floor(mid)] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    median: r(median),
    p95: r(at(0.95)),
    min: r(sorted[0] ?? NaN),
    max: r(sorted[sorted.length - 1] ?? NaN),
    runs: samples.length,
    samples: samples.map(r),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function control(cfg: BenchConfig, method: string, route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${cfg.url}/__emulator/${route}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`emulator ${method} ${route}: HTTP ${res.status}`);
  return res.json();
}

interface LoggedRequest {
  status: number;
  path: string;
}

async function emulatorRequests(cfg: BenchConfig): Promise<LoggedRequest[]> {
  const body = (await control(cfg, 'GET', 'requests')) as { requests?: LoggedRequest[] } | LoggedRequest[];
  return Array.isArray(body) ? body : (body.requests ?? []);
}

async function setRateLimitSetting(requests: number, windowSeconds: number): Promise<void> {
  const config = vscode.workspace.getConfiguration('observability');
  await config.update('rateLimit.requestsPerWindow', requests, vscode.ConfigurationTarget.Global);
  await config.update('rateLimit.windowSeconds', windowSeconds, vscode.ConfigurationTarget.Global);
}

/** Wall time of `getExtension(id).activate()` in this host, with what the extension's own folder had Node evaluate. */
async function timeActivation<T>(id: string): Promise<{
  ext: vscode.Extension<T>;
  exports: T;
  callMs: number;
  cpuMs: number;
  evaluated: { file: string; bytes: number; ms: number }[];
}> {
  const ext = vscode.extensions.getExtension<T>(id);
  if (!ext) throw new Error(`${id} is not loaded`);
  if (ext.isActive) throw new Error(`${id} is already active; the sample would not measure its activation`);
  // Every JavaScript file of the extension's folder that Node loads during the call (Node's loader hook for .js).
  type Loader = (this: unknown, module: unknown, filename: string) => void;
  const loaders = (nodeModule as unknown as { Module: { _extensions: Record<string, Loader> } }).Module._extensions;
  const originalLoader = loaders['.js'] as Loader;
  const root = ext.extensionPath + nodePath.sep;
  const evaluated: { file: string; bytes: number; ms: number }[] = [];
  loaders['.js'] = function (this: unknown, module: unknown, filename: string) {
    if (!filename.startsWith(root)) return originalLoader.call(this, module, filename);
    const t = performance.now();
    try {
      return originalLoader.call(this, module, filename);
    } finally {
      evaluated.push({
        file: nodePath.relative(ext.extensionPath, filename),
        bytes: fs.statSync(filename).size,
        ms: performance.now() - t,
      });
    }
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  let exports: T;
  try {
    exports = await ext.activate();
  } finally {
    loaders['.js'] = originalLoader;
  }
  const callMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ext, exports, callMs, cpuMs: (used.user + used.system) / 1000, evaluated };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

async function measureActivation(cfg: BenchConfig): Promise<{ api: ExtensionApi; result: Record<string, unknown> }> {
  // Let the workbench finish starting (built-in extensions, file watcher) so the sample measures this extension.
  await sleep(5000);
  const before = (await emulatorRequests(cfg)).length;
  const warmup = await timeActivation<unknown>(cfg.warmupExtensionId);
  // Empty reference extensions are activated in the same host right before and right after this one, so the ratio
  // of the two does not depend on how fast (or how busy) the machine is.
  const emptyBefore = await timeActivation<unknown>(cfg.emptyExtensionIds[0]);
  const own = await timeActivation<ExtensionApi>(EXTENSION_ID);
  const emptyAfter = await timeActivation<unknown>(cfg.emptyExtensionIds[1]);
  const reference = {
    callMs: (emptyBefore.callMs + emptyAfter.callMs) / 2,
    cpuMs: (emptyBefore.cpuMs + emptyAfter.cpuMs) / 2,
  };
  const api = own.exports;
  await sleep(500);
  const after = (await emulatorRequests(cfg)).length;
  const bundle = own.evaluated.find((e) => e.file === nodePath.join('dist', 'extension.js'));
  return {
    api,
    result: {
      wasActiveBefore: false,
      activateCallMs: round2(own.callMs),
      emptyExtensionCallMs: round2(reference.callMs),
      emptyExtensionCallsMs: [round2(emptyBefore.callMs), round2(emptyAfter.callMs)],
      activateCallCpuMs: round2(own.cpuMs),
      emptyExtensionCallCpuMs: round2(reference.cpuMs),
      warmupExtensionCallMs: round2(warmup.callMs),
      activationMsInternal: round2(api.activationMs),
      bundleLoadMs: bundle ? round2(bundle.ms) : null,
      evaluatedFiles: own.evaluated.map((e) => ({ file: e.file, KB: round2(e.bytes / 1024) })),
      evaluatedKB: round2(own.evaluated.reduce((n, e) => n + e.bytes, 0) / 1024),
      requestsDuringActivation: after - before,
    },
  };
}

/** What the extension logged about the compile cache when it loaded the features (it writes its log file as it goes). */
async function compileCacheLogged(api: ExtensionApi): Promise<string | null> {
  const file = nodePath.join(api.logUri.fsPath, 'Observability.log');
  for (let i = 0; i < 50; i++) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const m = /Loaded the features for .* \(compile cache: (.*)\)$/m.exec(text);
    if (m) return m[1] ?? null;
    await sleep(100);
  }
  return null;
}

/**
 * The first use after activation: the features bundle loads when the view first asks for its items (here: the first
 * read of the API, which does the same), then the connection's service and Dashboards folder are expanded in the real
 * view: the first request (undici loads then), its response checks and the rendered children. Then the first dashboard
 * of the folder is opened for editing (Edit, as from its context menu), until its document is shown.
 */
async function measureFirstUse(cfg: BenchConfig, api: ExtensionApi): Promise<Record<string, unknown>> {
  let t = performance.now();
  const { connections, tree } = api;
  const featuresLoadMs = performance.now() - t;
  // A later window of the same profile (the bench's second window) has the connection already.
  if (connections.list().length === 0) {
    await vscode.commands.executeCommand('observability.addConnection', {
      baseUrl: cfg.url,
      keyId: cfg.keyId,
      keySecret: cfg.keySecret,
      organizationId: cfg.organizationId,
      serviceIds: cfg.dataServiceIds,
      label: 'Benchmark',
      skipCheck: true,
    });
  }
  const connection = connections.list()[0];
  if (!connection) throw new Error('the connection was not added');
  await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
  await sleep(500);
  const folder = tree.provider.folder(connection.id, cfg.dataServiceIds[0] as string, 'dashboards');
  if (!folder) throw new Error('no Dashboards folder');
  t = performance.now();
  await tree.view.reveal(folder, { expand: true, select: false, focus: false });
  const firstExpandMs = performance.now() - t;
  const children = await tree.provider.getChildren(folder);
  const dashboard = children[0];
  if (!dashboard) throw new Error('no dashboard in the folder');
  t = performance.now();
  const opened = await vscode.commands.executeCommand<string | undefined>('observability.editResource', dashboard);
  const firstEditorOpenMs = performance.now() - t;
  if (!opened || vscode.window.activeTextEditor?.document.uri.toString() !== opened) {
    throw new Error(`the dashboard did not open for editing (${String(opened)})`);
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  return {
    compileCache: await compileCacheLogged(api),
    featuresLoadMs: round2(featuresLoadMs),
    firstFolderExpandMs: round2(firstExpandMs),
    coldFirstExpandMs: round2(featuresLoadMs + firstExpandMs),
    firstEditorOpenMs: round2(firstEditorOpenMs),
    childrenShown: children.length,
    connectionId: connection.id,
  };
}

/** Every folder of the data services is expanded in the real view, one service after another, as fast as it answers. */
async function browse(cfg: BenchConfig, api: ExtensionApi, connectionId: string): Promise<Record<string, unknown>> {
  const { provider, view } = api.tree;
  await control(cfg, 'POST', 'config', { rateLimit: { requests: 10, windowMs: 10_000 } });
  await control(cfg, 'POST', 'reset', { alertCount: 0 });
  await setRateLimitSetting(10, 10);
  await sleep(300);
  const started = performance.now();
  const kinds: ResourceKind[] = ['dashboards', 'alerts', 'webhooks', 'sources', 'queryEndpoint'];
  let errorNodes = 0;
  for (const serviceId of cfg.dataServiceIds) {
    const service = provider.findService(connectionId, serviceId);
    if (!service) throw new Error(`service ${serviceId} is not in the tree`);
    // Expanding the service first gives the view its folders; the folders are then opened all at once.
    await view.reveal(service, { expand: true, select: false, focus: false });
    const folders = (['dashboards', 'alerts', 'sources', 'queryEndpoint'] as const).map((k) =>
      provider.folder(connectionId, serviceId, k),
    );
    await Promise.all(
      folders.map((f) => (f ? view.reveal(f, { expand: true, select: false, focus: false }) : undefined)),
    );
    const dashboards = folders[0] ? await provider.getChildren(folders[0]) : [];
    const first = dashboards.find((n) => n.type === 'dashboard');
    if (first) await view.reveal(first, { expand: true, select: false, focus: false });
    for (const f of folders) {
      if (f) errorNodes += (await provider.getChildren(f)).filter((n) => n.type === 'error').length;
    }
  }
  const elapsedMs = performance.now() - started;
  let rateLimitedEntries = 0;
  for (const serviceId of cfg.dataServiceIds) {
    for (const kind of kinds) {
      const e = provider.cache.entry(connectionId, serviceId, kind).error;
      if (e && (e.kind === 'rateLimited' || e.status === 429)) rateLimitedEntries++;
    }
  }
  const log = await emulatorRequests(cfg);
  return {
    services: cfg.dataServiceIds.length,
    requestsSent: log.length,
    responses429: log.filter((r) => r.status === 429).length,
    rateLimitErrorsShown: rateLimitedEntries,
    errorNodesShown: errorNodes,
    elapsedMs: Math.round(elapsedMs),
    limit: '10 requests / 10 s (emulator and extension defaults)',
  };
}

async function measureAlerts(
  cfg: BenchConfig,
  api: ExtensionApi,
  firstConnectionId: string,
): Promise<Record<string, unknown>> {
  const { provider, view } = api.tree;
  const serviceId = cfg.dataServiceIds[0] as string;
  await control(cfg, 'POST', 'config', { rateLimit: false });
  await setRateLimitSetting(1000, 1);
  let connectionId = firstConnectionId;

  // Record when the view's own getChildren call for the measured folder returns, to check what reveal waited for.
  const original = provider.getChildren.bind(provider);
  let watched: Node | undefined;
  let fetchedAt: number | undefined;
  provider.getChildren = async (node?: Node) => {
    const children = await original(node);
    if (node !== undefined && node === watched) fetchedAt = performance.now();
    return children;
  };

  const out: Record<string, unknown> = {};
  try {
    for (const n of cfg.alertCounts) {
      await control(cfg, 'POST', 'reset', { alertCount: Math.max(0, n - cfg.sampleAlerts) });
      const load: number[] = [];
      const cached: number[] = [];
      const clientOnly: number[] = [];
      const ui: number[] = [];
      const uiUntilFetched: number[] = [];
      let children = 0;
      let uiFetched = 0;
      for (let i = 0; i < cfg.warmups + cfg.runs; i++) {
        const folder = provider.folder(connectionId, serviceId, 'alerts');
        if (!folder) throw new Error('no Alerts folder');
        // API client alone: all pages + webhooks, as the folder loads them.
        const client = api.connections.clientFor(connectionId);
        let t = performance.now();
        await Promise.all([client.listAlerts(serviceId), client.listWebhooks(serviceId)]);
        const clientMs = performance.now() - t;
        // Provider: network load (all pages + webhooks), response checks, nodes, tree items.
        provider.cache.invalidate(connectionId, serviceId, ['alerts', 'webhooks']);
        t = performance.now();
        const nodes = await original(folder);
        for (const c of nodes) provider.getTreeItem(c);
        const loadMs = performance.now() - t;
        // Provider from the cache (what a redraw costs).
        t = performance.now();
        for (const c of await original(folder)) provider.getTreeItem(c);
        const cachedMs = performance.now() - t;
        children = nodes.filter((c) => c.type === 'alert').length;

        // Real view: the same connection saved anew (new IDs, nothing loaded, everything collapsed), then the Alerts
        // folder is expanded through reveal, which resolves once the workbench has the children.
        const old = api.connections.get(connectionId);
        const secret = await api.connections.getSecret(connectionId);
        if (!old || secret === undefined) throw new Error('the connection is gone');
        const { id: oldId, ...rest } = old;
        const next = await api.connections.add(rest, secret);
        await api.connections.remove(oldId);
        connectionId = next.id;
        await sleep(400);
        const fresh = provider.folder(connectionId, serviceId, 'alerts');
        if (!fresh) throw new Error('no Alerts folder after re-adding the connection');
        watched = fresh;
        fetchedAt = undefined;
        t = performance.now();
        await view.reveal(fresh, { expand: true, select: false, focus: false });
        const uiMs = performance.now() - t;
        if (fetchedAt !== undefined) {
          uiFetched++;
          uiUntilFetched.push(fetchedAt - t);
        }
        watched = undefined;
        if (i >= cfg.warmups) {
          load.push(loadMs);
          cached.push(cachedMs);
          clientOnly.push(clientMs);
          ui.push(uiMs);
        }
        await sleep(200);
      }
      out[String(n)] = {
        alertsShown: children,
        clientOnly: stats(clientOnly),
        providerLoadAndRender: stats(load),
        providerRenderFromCache: stats(cached),
        viewRevealExpand: stats(ui),
        viewChildrenReturnedAfter: stats(uiUntilFetched),
        viewRunsThatFetched: `${uiFetched}/${cfg.warmups + cfg.runs}`,
      };
    }
  } finally {
    provider.getChildren = original;
  }
  return out;
}

async function measureOverhead(cfg: BenchConfig): Promise<Record<string, unknown>> {
  await control(cfg, 'POST', 'config', { rateLimit: false });
  await control(cfg, 'POST', 'reset', { alertCount: 0 });
  const serviceId = cfg.dataServiceIds[0] as string;
  const client = new ObservabilityClient({
    connection: {
      baseUrl: cfg.url,
      organizationId: cfg.organizationId,
      serviceIds: [serviceId],
      keyId: cfg.keyId,
      pathSegment: 'observability',
    },
    getSecret: () => cfg.keySecret,
    limiter: new RateLimiter({ requests: 1_000_000, windowMs: 1000, marginMs: 0 }),
  });
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const path = `/v1/organizations/${cfg.organizationId}/services/${serviceId}/observability/sources`;
  const url = `${cfg.url}${path}`;
  const authorization = `Basic ${Buffer.from(`${cfg.keyId}:${cfg.keySecret}`).toString('base64')}`;
  const bare = async () => {
    const res = await request(url, { dispatcher: agent, headers: { authorization, accept: 'application/json' } });
    if (res.statusCode !== 200) throw new Error(`bare request: HTTP ${res.statusCode}`);
    await res.body.json();
  };
  const viaClient = async () => {
    await client.listSources(serviceId);
  };
  // Each batch times both paths request by request, alternating which goes first, so drift and GC hit both alike.
  const batch = async (n: number) => {
    let bareTotal = 0;
    let clientTotal = 0;
    for (let i = 0; i < n; i++) {
      const order = i % 2 === 0 ? [bare, viaClient] : [viaClient, bare];
      for (const fn of order) {
        const t = performance.now();
        await fn();
        const d = performance.now() - t;
        if (fn === bare) bareTotal += d;
        else clientTotal += d;
      }
    }
    return { bare: bareTotal / n, client: clientTotal / n };
  };
  await batch(200); // warm-up: connections, JIT
  const bareMs: number[] = [];
  const clientMs: number[] = [];
  const ratios: number[] = [];
  for (let b = 0; b < cfg.overhead.batches; b++) {
    const r = await batch(cfg.overhead.perBatch);
    bareMs.push(r.bare);
    clientMs.push(r.client);
    ratios.push(r.client / r.bare);
  }
  await agent.close();
  const s = stats(ratios);
  return {
    path: `GET ${path.replace(cfg.organizationId, '{org}').replace(serviceId, '{service}')}`,
    perBatch: cfg.overhead.perBatch,
    batches: cfg.overhead.batches,
    bareUndiciMsPerRequest: stats(bareMs),
    clientMsPerRequest: stats(clientMs),
    ratio: s.median,
    ratioStats: s,
  };
}

/**
 * How long each part of a host may take (minutes; several times what it takes on a quiet 2-core machine, so a machine
 * busy with other work still finishes). A part that does not end in time fails the bench with its name instead of
 * holding the host until the launcher's budget.
 */
const SECTION_MINUTES: Record<string, number> = {
  activation: 3,
  firstUse: 5,
  browse: 8,
  alerts: 25,
  overhead: 8,
  query: 12,
  preview: 15,
  serviceFolder: 30,
  search: 8,
  traces: 8,
  liveTail: 6,
  codeInsights: 8,
};

/** The search, traces, live tail and code-insights parts (each when wanted), on the first data service. */
async function measureSearchAndCode(
  cfg: BenchConfig,
  api: ExtensionApi,
  want: (name: string) => boolean,
  section: <T>(name: string, fn: () => Promise<T>) => Promise<T>,
  results: Record<string, unknown>,
  write: () => void,
): Promise<void> {
  if (!cfg.queryUrl) return;
  const current = api.connections.list()[0];
  if (!current) throw new Error('the connection is gone');
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  const base = {
    api,
    queryUrl: cfg.queryUrl,
    keyId: cfg.keyId,
    keySecret: cfg.keySecret,
    serviceId: cfg.dataServiceIds[0] as string,
    connectionId: current.id,
    runs: cfg.runs,
    extensionUri: ext.extensionUri,
    requests: () => emulatorRequests(cfg) as Promise<(LoggedRequest & { at: number })[]>,
  };
  const unlimited = async () => {
    await control(cfg, 'POST', 'config', { rateLimit: false });
    await setRateLimitSetting(1000, 1);
  };
  for (const [name, fn] of [
    ['search', () => measureSearch(base)],
    ['traces', () => measureTraces(base)],
    ['codeInsights', () => measureCodeInsights(base)],
  ] as const) {
    if (!want(name)) continue;
    await unlimited();
    results[name] = await section(name, fn);
    write();
  }
  if (want('liveTail')) {
    results.liveTail = await section('liveTail', () =>
      measureLiveTail({
        ...base,
        setBudget: async (requests, windowMs) => {
          await control(cfg, 'POST', 'config', { rateLimit: { requests, windowMs } });
          await setRateLimitSetting(requests, windowMs / 1000);
        },
      }),
    );
    write();
  }
}

export async function run(): Promise<void> {
  const raw = process.env.OBS_BENCH_CONFIG;
  if (!raw) throw new Error('OBS_BENCH_CONFIG is not set');
  const cfg = JSON.parse(raw) as BenchConfig;
  const results: Record<string, unknown> = {};
  const write = () => fs.writeFileSync(cfg.resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  /** Runs one part within its deadline; the results file names the part running, and the one that failed. */
  const section = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const minutes = SECTION_MINUTES[name] ?? 10;
    results.runningSection = name;
    write();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        fn(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`did not finish within ${minutes} min`)), minutes * 60_000);
        }),
      ]);
    } catch (e) {
      results.failedSection = { name, error: e instanceof Error ? e.message : String(e) };
      write();
      throw new Error(`bench section "${name}" failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      clearTimeout(timer);
      delete results.runningSection;
    }
  };

  const { api, result } = await section('activation', () => measureActivation(cfg));
  results.activation = result;
  write();
  // Every fresh host gives one cold sample of the first use; the bench reports their median.
  results.firstUse = await section('firstUse', () => measureFirstUse(cfg, api));
  write();
  if (cfg.activationOnly) return;
  const connection = api.connections.list()[0];
  if (!connection) throw new Error('the connection was not added');

  const want = (name: string) => !cfg.sections || cfg.sections.includes(name);
  if (want('browse')) {
    results.browse = await section('browse', () => browse(cfg, api, connection.id));
    write();
  }
  if (want('alerts')) {
    results.alertsFolder = await section('alerts', () => measureAlerts(cfg, api, connection.id));
    write();
  }
  if (want('overhead')) {
    results.requestOverhead = await section('overhead', () => measureOverhead(cfg));
    write();
  }
  if (want('query') && cfg.queryUrl) {
    // The alerts section saves the connection anew (new ID): take the one that exists now.
    const current = api.connections.list()[0];
    if (!current) throw new Error('the connection is gone');
    results.query = await section('query', () =>
      measureQuery({
        queryUrl: cfg.queryUrl as string,
        keyId: cfg.keyId,
        keySecret: cfg.keySecret,
        serviceId: cfg.dataServiceIds[0] as string,
        connectionId: current.id,
        // A run takes a fraction of a second: more of them steady the median of a ratio whose parts are ~20 ms.
        runs: Math.max(cfg.runs, 15),
      }),
    );
    write();
  }
  if (want('preview')) {
    const current = api.connections.list()[0];
    results.preview = await section('preview', () =>
      measurePreview({
        runs: Math.max(cfg.runs, 9),
        ...(cfg.queryUrl && current
          ? {
              queryUrl: cfg.queryUrl,
              keyId: cfg.keyId,
              keySecret: cfg.keySecret,
              serviceId: cfg.dataServiceIds[0] as string,
              connectionId: current.id,
            }
          : {}),
      }),
    );
    write();
  }
  await measureSearchAndCode(cfg, api, want, section, results, write);
  if (cfg.sections?.includes('serviceFolder')) {
    // Only when asked for (`--only serviceFolder`): at the default rate budget it takes minutes.
    const current = api.connections.list()[0];
    if (!current) throw new Error('the connection is gone');
    results.serviceFolder = await section('serviceFolder', () =>
      measureServiceFolder({
        connectionId: current.id,
        serviceId: cfg.dataServiceIds[0] as string,
        requests: () => emulatorRequests(cfg),
        setRateLimit: setRateLimitSetting,
      }),
    );
    write();
  }
  await setRateLimitSetting(10, 10);
}

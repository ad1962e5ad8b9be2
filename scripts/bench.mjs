#!/usr/bin/env node
// `npm run bench`: performance figures of the extension, measured in a real VS Code extension host (code-server)
// against the local emulator. Writes bench/results.json, prints it and a table with the targets.
//
// Steps: compile (tsc -> out/), `npm run package` (production build and VSIX; sizes), start the emulator with five
// data services, run test/bench/index.ts in a fresh extension host (activation beside an empty reference extension,
// first use cold: features load, first folder expand, first editor open; scripted browse, Alerts folder timings,
// client overhead, query and preview figures), then more fresh hosts for extra activation and first-use samples, then
// later windows of the last one's profile (the second window: compile cache warm where the host's Node has one).
// The first host also measures search, the trace waterfall, the live tail and code insights (test/bench/searchTraces.ts,
// liveTail.ts, codeInsights.ts); its workspace folder holds a generated 300-function file (test/bench/codeData.ts).
// Environment: OBS_TEST_VERBOSE=1 shows the workbench output; OBS_CHROMIUM, OBS_CODE_SERVER_DIR as for the tests.
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NODE, NPM, ROOT, bin, parseOptions, positiveInteger, run as runCommand, zipEntries } from './shared.mjs';

const { values: opts } = parseOptions('Usage: node scripts/bench.mjs [options]   (npm run bench -- [options])', {
  runs: { type: 'string', default: '7', placeholder: 'n', description: 'timed runs of each repeated measure' },
  'activation-samples': {
    type: 'string',
    default: '7',
    placeholder: 'n',
    description: 'fresh extension hosts (activation and first use, cold)',
  },
  'second-window-samples': {
    type: 'string',
    default: '3',
    placeholder: 'n',
    description: 'later windows of one profile (activation and first use, caches warm)',
  },
  'no-package': { type: 'boolean', description: 'production build only, no VSIX (no VSIX size)' },
  only: {
    type: 'string',
    placeholder: 'list',
    description:
      'sections of the first host: browse,alerts,overhead,query,preview,search,traces,liveTail,codeInsights,serviceFolder (none: activation and first use; serviceFolder only when named)',
  },
  out: {
    type: 'string',
    default: 'bench/results.json',
    placeholder: 'file',
    description: 'where the results are written (relative to the repository)',
  },
});
const require = createRequire(import.meta.url);
const VSIX = path.join(ROOT, 'observability-explorer.vsix');
const RESULTS = path.resolve(ROOT, opts.out);
const verbose = !!process.env.OBS_TEST_VERBOSE;
const RUNS = positiveInteger(opts.runs, 'runs');
const ACTIVATION_SAMPLES = positiveInteger(opts['activation-samples'], 'activation-samples');
const SECOND_WINDOW_SAMPLES = positiveInteger(opts['second-window-samples'], 'second-window-samples');
const PACKAGE = !opts['no-package'];
const ONLY = opts.only?.split(',');

const TARGETS = {
  activationMs: 15,
  activationRatioToEmpty: 1.5,
  evaluatedKB: 100,
  coldFirstExpandMs: 175,
  // "VSIX under 400 KB" (it was ≤ 250 KB before the README's pictures, the icon and the walkthrough were shipped), in
  // this script's unit (KB = 1,024 bytes, as everywhere in the bench).
  vsixKB: 400,
  alerts1000Ms: 100,
  alerts10000Ms: 1000,
  shown429: 0,
  overheadRatio: 1.15,
  queryRenderedMs: 300,
  // Run Query to the painted table, against a raw fetch and parse of the same result in the same run.
  queryRatioToRaw: 2,
  queryClientRatio: 1.15,
  previewDrawnMs: 200,
  previewBundleKB: 150,
  // A dashboard preview on the emulator (12 tiles): cold (panel closed, sources and columns not looked up) and warm.
  dashboardPreviewColdMs: 2000,
  dashboardPreviewWarmMs: 500,
  // Search panel: first rows and histogram painted after the last response of its statements, 1,000 rows.
  searchPaintedMs: 100,
  // A 10,000-span trace's waterfall drawn.
  waterfallDrawnMs: 500,
  // Code insights: aggregate statements per refresh of one pick; lenses of a 300-function file, aggregate kept.
  codeStatementsPerRefresh: 1,
  codeLensesMs: 100,
};

/** Runs a command in the repository (printed to stderr; its output only with OBS_TEST_VERBOSE). */
function run(cmd, args) {
  console.error(`$ ${[cmd === NODE ? 'node' : cmd, ...args].join(' ')}`);
  return runCommand(cmd, args, { stream: verbose, echo: false });
}

const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;

const EMPTY_EXTENSIONS = [
  { publisher: 'obs-bench', name: 'empty-before', version: '0.0.1' },
  { publisher: 'obs-bench', name: 'empty-after', version: '0.0.1' },
];
/** Activated first in every host, so neither measured extension pays for the host's first activation. */
const WARMUP_EXTENSION = { publisher: 'obs-bench', name: 'empty-warmup', version: '0.0.1' };

/** An extension with a `main` whose `activate` does nothing. */
function writeEmptyExtension(dir, manifest) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        ...manifest,
        engines: { vscode: '^1.100.0' },
        activationEvents: [],
        main: './extension.js',
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(
    path.join(dir, 'extension.js'),
    "'use strict';\nexports.activate = function activate() {};\nexports.deactivate = function deactivate() {};\n",
  );
  return dir;
}

async function main() {
  const started = Date.now();
  // tsc exits non-zero on type errors but still emits; the bench only needs the emitted files.
  const tsc = await run(NODE, [bin('typescript/bin/tsc'), '-p', 'tsconfig.json']);
  if (!fs.existsSync(path.join(ROOT, 'out', 'test', 'bench', 'index.js'))) {
    throw new Error(`compilation failed:\n${tsc.output}`);
  }
  if (tsc.code !== 0) console.error('warning: tsc reported type errors; measuring the emitted output anyway');

  const sizes = {};
  if (PACKAGE) {
    fs.rmSync(VSIX, { force: true });
    const pack = await run(NPM, ['run', '--silent', 'package']);
    if (pack.code !== 0 || !fs.existsSync(VSIX)) throw new Error(`npm run package failed:\n${pack.output}`);
    sizes.vsixBytes = fs.statSync(VSIX).size;
    sizes.vsixKB = kb(sizes.vsixBytes);
    // What each file of the VSIX costs in it (compressed), largest first.
    sizes.vsixFiles = Object.fromEntries(
      zipEntries(VSIX)
        .sort((a, b) => b.compressed - a.compressed)
        .map((e) => [e.name, { KB: kb(e.compressed), uncompressedKB: kb(e.size) }]),
    );
  } else {
    const build = await run(NODE, ['esbuild.mjs', '--production']);
    if (build.code !== 0) throw new Error(`production build failed:\n${build.output}`);
  }
  sizes.bundles = {};
  for (const name of fs
    .readdirSync(path.join(ROOT, 'dist'))
    .filter((f) => fs.statSync(path.join(ROOT, 'dist', f)).isFile() && !f.endsWith('.map'))
    .sort()) {
    sizes.bundles[`dist/${name}`] = kb(fs.statSync(path.join(ROOT, 'dist', name)).size);
  }
  const schemaDir = path.join(ROOT, 'dist', 'schemas');
  if (fs.existsSync(schemaDir)) {
    sizes.bundles['dist/schemas/ (all)'] = kb(
      fs.readdirSync(schemaDir).reduce((n, f) => n + fs.statSync(path.join(schemaDir, f)).size, 0),
    );
  }
  sizes.bundleBytes = fs
    .readdirSync(path.join(ROOT, 'dist'))
    .filter((f) => f.endsWith('.js'))
    .reduce((n, f) => n + fs.statSync(path.join(ROOT, 'dist', f)).size, 0);
  sizes.bundleKB = kb(sizes.bundleBytes);
  sizes.bundle =
    'all JavaScript files in dist/, production (minified) build: the entry evaluated at activation, the features ' +
    'bundle loaded on first use and the webview scripts';

  const { ensureCodeServer, CODE_SERVER_VERSION, CODE_SERVER_NODE_VERSION } = require(
    path.join(ROOT, 'out', 'test', 'host', 'codeServer.js'),
  );
  const { runTestsInCodeServer, closeAllWorkbenches } = require(
    path.join(ROOT, 'out', 'test', 'host', 'runInCodeServer.js'),
  );
  const { startEmulator } = require(path.join(ROOT, 'out', 'test', 'emulator', 'server.js'));
  const { entry } = await ensureCodeServer({ log: (line) => console.error(line) });

  const stop = () => {
    void closeAllWorkbenches().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  // Three sample services (two with data) plus three extra data services: five services to browse.
  const emulator = await startEmulator({ extraServices: 3 });
  const [first, second, , ...extra] = emulator.serviceIds;
  const dataServiceIds = [first, second, ...extra];
  const sampleAlerts = emulator.state.data.get(first).alerts.size;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-bench-'));
  const emptyExtensions = [...EMPTY_EXTENSIONS, WARMUP_EXTENSION].map((m) =>
    writeEmptyExtension(path.join(tmp, m.name), m),
  );
  // The first host's workspace folder: a 300-function file whose spans the engine gets now (code insights part).
  const codeWorkspace = wanted('codeInsights') ? await prepareCodeInsights(tmp) : undefined;
  const hostRuns = [];
  const secondWindows = [];
  try {
    const runHost = async (activationOnly, index, userDataDir) => {
      const resultsFile = path.join(tmp, `host-${index}.json`);
      const config = {
        url: emulator.url,
        queryUrl: emulator.queryUrl,
        keyId: emulator.keyId,
        keySecret: emulator.keySecret,
        organizationId: emulator.organizationId,
        dataServiceIds,
        resultsFile,
        activationOnly,
        sampleIndex: index,
        emptyExtensionIds: EMPTY_EXTENSIONS.map((m) => `${m.publisher}.${m.name}`),
        warmupExtensionId: `${WARMUP_EXTENSION.publisher}.${WARMUP_EXTENSION.name}`,
        runs: RUNS,
        warmups: 1,
        alertCounts: [100, 1000, 10000],
        sampleAlerts,
        overhead: { batches: 15, perBatch: 300 },
        ...(ONLY ? { sections: ONLY } : {}),
      };
      const total = ACTIVATION_SAMPLES + SECOND_WINDOW_SAMPLES;
      const what =
        index >= ACTIVATION_SAMPLES
          ? ' (second window of the same profile)'
          : activationOnly
            ? ' (first use only)'
            : '';
      console.error(`extension host ${index + 1}/${total}${what} …`);
      const code = await runTestsInCodeServer({
        extensionTestsPath: path.join(ROOT, 'out', 'test', 'bench', 'index.js'),
        codeServerEntry: entry,
        installedExtensions: emptyExtensions,
        ...(userDataDir ? { userDataDir } : {}),
        ...(index === 0 && codeWorkspace ? { workspace: codeWorkspace } : {}),
        env: { OBS_BENCH_CONFIG: JSON.stringify(config) },
        // Every section of the first host takes about 12 minutes on a quiet 2-core machine; each has its own deadline
        // (test/bench/index.ts), so this budget only ends a host stuck outside them.
        timeoutMs: 90 * 60_000,
        onLog: (line) => {
          if (verbose || /^\[(error|warn)\]/.test(line)) console.error(line);
        },
      });
      if (!fs.existsSync(resultsFile)) throw new Error(`the benchmark host reported nothing (exit ${code})`);
      const result = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
      // A part that failed or did not end in time fails the bench, named (no figures from a partial run).
      if (result.failedSection) {
        throw new Error(
          `extension host ${index + 1}: bench section "${result.failedSection.name}" failed: ${result.failedSection.error}`,
        );
      }
      if (code !== 0) {
        const where = result.runningSection ? ` in section "${result.runningSection}"` : '';
        throw new Error(
          `extension host ${index + 1} ended with exit code ${code}${code === 124 ? ' (out of time)' : ''}${where}`,
        );
      }
      return result;
    };
    // The last fresh host's profile is kept for the second windows (global storage, compile cache).
    const profile = path.join(tmp, 'profile');
    hostRuns.push(await runHost(false, 0, ACTIVATION_SAMPLES === 1 ? profile : undefined));
    for (let i = 1; i < ACTIVATION_SAMPLES; i++)
      hostRuns.push(await runHost(true, i, i === ACTIVATION_SAMPLES - 1 ? profile : undefined));
    for (let i = 0; i < SECOND_WINDOW_SAMPLES; i++)
      secondWindows.push(await runHost(true, ACTIVATION_SAMPLES + i, profile));
  } finally {
    await emulator.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const main = hostRuns[0];
  const activations = hostRuns.map((r) => r.activation).filter(Boolean);
  const round2 = (x) => Math.round(x * 100) / 100;
  const activateCallMsMedian = median(activations.map((a) => a.activateCallMs));
  const emptyExtensionCallMsMedian = median(activations.map((a) => a.emptyExtensionCallMs));
  const activation = {
    method:
      `fresh extension host per sample (code-server ${CODE_SERVER_VERSION}, its extension host on Node ${CODE_SERVER_NODE_VERSION}); ` +
      'activateCallMs = wall time from ' +
      'vscode.extensions.getExtension(id).activate() to its resolution (loads and evaluates dist/extension.js, runs activate); ' +
      'emptyExtensionCallMs = the mean of the same for two empty extensions (main with an empty activate) activated in the ' +
      "same host right before and right after this one, all three after a third empty extension took the host's first " +
      'activation; ratioToEmpty = median over hosts of activateCallMs / emptyExtensionCallMs of the same host; ' +
      'ratioOfMedians = median activateCallMs / median emptyExtensionCallMs; *CpuMs = CPU time of the extension host ' +
      'process during the call (process.cpuUsage), less sensitive to other processes than wall time; evaluatedKB = ' +
      'JavaScript files of the extension Node loaded during the call (Node loader hook); ' +
      'activationMsInternal = performance.now() around the body of activate(); bundleLoadMs = reading, compiling and ' +
      'evaluating dist/extension.js, part of activateCallMs; the rest is VS Code creating the context',
    samples: activations,
    activateCallMsMedian,
    emptyExtensionCallMsMedian,
    ratioToEmpty: round2(median(activations.map((a) => a.activateCallMs / a.emptyExtensionCallMs))),
    ratioOfMedians: round2(activateCallMsMedian / emptyExtensionCallMsMedian),
    activateCallCpuMsMedian: median(activations.map((a) => a.activateCallCpuMs)),
    emptyExtensionCallCpuMsMedian: median(activations.map((a) => a.emptyExtensionCallCpuMs)),
    cpuRatioToEmpty: round2(median(activations.map((a) => a.activateCallCpuMs / a.emptyExtensionCallCpuMs))),
    evaluatedKB: Math.max(...activations.map((a) => a.evaluatedKB)),
    activationMsInternalMedian: median(activations.map((a) => a.activationMsInternal)),
    bundleLoadMsMedian: median(activations.map((a) => a.bundleLoadMs ?? NaN)),
    requestsDuringActivation: Math.max(...activations.map((a) => a.requestsDuringActivation)),
  };
  const alerts = main.alertsFolder ?? {};
  // Requests and time to read whole lists (API client against loopback servers, no extension host).
  const listPaging = await require(path.join(ROOT, 'out', 'test', 'bench', 'paging.js')).measureListPaging();
  const results = {
    measuredAt: new Date().toISOString(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.versions.node}, ${os.platform()}`,
    activation,
    firstUse: firstUseSummary(
      hostRuns.map((r) => r.firstUse).filter(Boolean),
      'every fresh host (a new profile), right after activation; one sample per host, figures are medians over the ' +
        'hosts: featuresLoadMs = first read of the extension API, which loads and wires dist/features.js as the ' +
        "view's first question does; firstFolderExpandMs = TreeView.reveal(Dashboards folder of a just-added " +
        'connection, {expand: true}) from call to resolution (service and folder expanded, the first request with ' +
        'undici loading, response checks, rendered children); coldFirstExpandMs = the sum; firstEditorOpenMs = then ' +
        'observability.editResource on the first dashboard of the folder until its document is the active editor; ' +
        "compileCache = what the extension logged about Node's compile cache when it loaded the features",
    ),
    secondWindow: secondWindows.length
      ? {
          activateCallMsMedian: median(secondWindows.map((r) => r.activation.activateCallMs)),
          emptyExtensionCallMsMedian: median(secondWindows.map((r) => r.activation.emptyExtensionCallMs)),
          ratioToEmpty: round2(
            median(secondWindows.map((r) => r.activation.activateCallMs / r.activation.emptyExtensionCallMs)),
          ),
          ...firstUseSummary(
            secondWindows.map((r) => r.firstUse).filter(Boolean),
            'later windows of the profile of the last fresh host (its global storage, so the compile cache the ' +
              'first window wrote where the extension host has one), measured as firstUse; the connection exists already',
          ),
        }
      : undefined,
    sizes,
    alertsFolder: {
      method:
        `median and p95 of ${RUNS} runs after 1 warm-up; emulator rate limit off and extension limit 1000/1 s for this part. ` +
        'providerLoadAndRender = cache invalidated, provider.getChildren(Alerts folder) (all pages + webhooks over HTTP, ' +
        'response checks, nodes) + getTreeItem for every child; providerRenderFromCache = the same with the lists cached; ' +
        'viewRevealExpand = Alerts folder collapsed and marked stale, then TreeView.reveal(folder, {expand: true}) from call ' +
        'to resolution: the workbench asks the extension host for the children (load + getTreeItem + transfer) and ' +
        'inserts them into the rendered tree',
      ...alerts,
    },
    browse: main.browse,
    requestOverhead: main.requestOverhead,
    listPaging,
    query: main.query,
    preview: main.preview,
    ...(main.serviceFolder ? { serviceFolder: main.serviceFolder } : {}),
    ...Object.fromEntries(
      ['search', 'traces', 'liveTail', 'codeInsights'].filter((k) => main[k]).map((k) => [k, main[k]]),
    ),
    hostExitCode: main.hostExitCode ?? 0,
    durationS: Math.round((Date.now() - started) / 1000),
  };
  results.targets = evaluate(results);
  fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
  fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
  console.log(table(results));
  console.log(`\nwritten to ${path.relative(ROOT, RESULTS)}`);
}

/** A section of the first host runs when named in --only, or when no --only is given (serviceFolder: only named). */
function wanted(name) {
  return !ONLY || ONLY.includes(name);
}

/** The code-insights part's workspace folder and spans (test/bench/codeData.ts); returns the folder. */
async function prepareCodeInsights(tmp) {
  const { writeCodeWorkspace, seedCodeSpans } = require(path.join(ROOT, 'out', 'test', 'bench', 'codeData.js'));
  const seeded = await seedCodeSpans();
  console.error(`code insights: ${seeded.functions} functions, ${seeded.spans} spans in the engine`);
  return writeCodeWorkspace(path.join(tmp, 'code-workspace'));
}

/** Targets of the search, traces, live tail and code-insights parts (those that ran). */
function searchAndCodeTargets(r, check) {
  return [
    ...(r.search
      ? [
          check(
            "search, 1,000 rows: first rows and histogram painted after the last response (median; the page's clock)",
            r.search.stages.paintedAfterLastResponseMs.median,
            TARGETS.searchPaintedMs,
            'ms',
          ),
        ]
      : []),
    ...(r.traces
      ? [
          check(
            'trace, 10,000 spans: waterfall drawn (median)',
            r.traces.waterfallDrawnMs.median,
            TARGETS.waterfallDrawnMs,
            'ms',
          ),
        ]
      : []),
    ...(r.liveTail
      ? [
          check(
            'live tail + tree refresh: most requests in any 10 s',
            r.liveTail.mostIn10s,
            r.liveTail.budgetPer10s,
            '',
          ),
          check('live tail + tree refresh: 429 responses', r.liveTail.responses429, 0, ''),
        ]
      : []),
    ...(r.codeInsights
      ? [
          // Each refresh sends one aggregate of the figures and one of the exceptions and log counts.
          check(
            'code insights: aggregate statements of the figures per refresh (most)',
            Math.max(...(r.codeInsights.aggregateStatementsPerRefresh ?? r.codeInsights.statementsPerRefresh)),
            TARGETS.codeStatementsPerRefresh,
            '',
          ),
          ...(r.codeInsights.signalStatementsPerRefresh
            ? [
                check(
                  'code insights: statements of the exceptions and log counts per refresh (most)',
                  Math.max(...r.codeInsights.signalStatementsPerRefresh),
                  TARGETS.codeStatementsPerRefresh,
                  '',
                ),
              ]
            : []),
          check(
            'code insights: lenses of a 300-function file, aggregate kept, open to lenses (median of later opens)',
            r.codeInsights.lenses.later.openToLensesMs.median,
            TARGETS.codeLensesMs,
            'ms',
          ),
          ...(r.codeInsights.lenses.later.openedToLensesMadeMs
            ? [
                check(
                  'code insights: the same, open to the 300 lenses made (median of later opens)',
                  r.codeInsights.lenses.later.openedToLensesMadeMs.median,
                  TARGETS.codeLensesMs,
                  'ms',
                ),
              ]
            : []),
        ]
      : []),
  ];
}

/** The table's rows of the search, traces, live tail and code-insights parts (those that ran). */
function searchAndCodeRows(r) {
  const rows = [];
  const add = (name, value) => rows.push([name, value, '', '']);
  if (r.search) {
    const s = r.search;
    add(
      'search: command / after the last response / page paint (median ms)',
      `${s.commandMs.median} / ${s.afterLastResponseMs.median} / ${s.pagePaintMs.median}`,
    );
    const st = s.stages;
    add(
      'search after the last response: painted / model, post, to page, paint, report back (median ms)',
      `${st.paintedAfterLastResponseMs.median} / ${['responseToModelMs', 'modelToPostMs', 'postToPageMs', 'pageToPaintMs', 'paintToReportMs'].map((k) => st[k].median).join(', ')}`,
    );
  }
  if (r.traces) {
    add(
      'trace, 10,000 spans: Open Trace / waterfall drawn (median ms)',
      `${r.traces.openTraceMs.median} / ${r.traces.waterfallDrawnMs.median}`,
    );
  }
  if (r.liveTail) {
    const t = r.liveTail;
    add(
      'live tail + tree: requests per minute (statements + API) / most in 10 s / 429',
      `${t.requestsPerMinute} (${t.statementsPerMinute} + ${t.apiRequestsPerMinute}) / ${t.mostIn10s} / ${t.responses429}`,
    );
  }
  if (r.codeInsights) {
    const c = r.codeInsights;
    add(
      'code insights: statements / API requests per refresh',
      `${c.statementsPerRefresh} / ${c.apiRequestsPerRefresh}`,
    );
    add(
      'code insights: 300-function file, first open / later opens: open to lenses (ms)',
      `${c.lenses.first.openToLensesMs} / ${c.lenses.later.openToLensesMs.median}`,
    );
  }
  return rows;
}

/** Medians of first-use samples (test/bench/index.ts measureFirstUse), with the samples. */
function firstUseSummary(samples, method) {
  if (samples.length === 0) return undefined;
  const of = (key) => Math.round(median(samples.map((u) => u[key])) * 100) / 100;
  const keys = ['featuresLoadMs', 'firstFolderExpandMs', 'coldFirstExpandMs', 'firstEditorOpenMs'];
  return {
    method,
    ...Object.fromEntries(keys.map((key) => [key, of(key)])),
    compileCache: [...new Set(samples.map((u) => u.compileCache))].join('; '),
    childrenShown: Math.min(...samples.map((u) => u.childrenShown)),
    samples: samples.map((u) => Object.fromEntries(keys.map((key) => [key, u[key]]))),
  };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length / 2;
  return s.length % 2 ? s[Math.floor(m)] : (s[m - 1] + s[m]) / 2;
}

function evaluate(r) {
  const a = r.alertsFolder;
  const check = (name, value, target, unit) => ({
    name,
    value,
    target,
    unit,
    ok: value !== undefined && value <= target,
  });
  const worst = (n) =>
    Math.max(a[n]?.providerLoadAndRender?.median ?? Infinity, a[n]?.viewRevealExpand?.median ?? Infinity);
  return [
    check(
      "activation call / empty extension's in the same host (median ratio)",
      r.activation.ratioToEmpty,
      TARGETS.activationRatioToEmpty,
      '×',
    ),
    check('JavaScript evaluated at activation', r.activation.evaluatedKB, TARGETS.evaluatedKB, 'KB'),
    check(
      'activation (inside activate(), median)',
      r.activation.activationMsInternalMedian,
      TARGETS.activationMs,
      'ms',
    ),
    check('network requests during activation', r.activation.requestsDuringActivation, 0, ''),
    check(
      'first expand of a folder after activation, cold',
      r.firstUse?.coldFirstExpandMs,
      TARGETS.coldFirstExpandMs,
      'ms',
    ),
    ...(r.sizes.vsixKB !== undefined ? [check('VSIX', r.sizes.vsixKB, TARGETS.vsixKB, 'KB')] : []),
    // A section run with --only leaves the others out: their targets are not listed (rather than listed as missed).
    ...(a?.['1000']
      ? [
          check('1,000 alerts, slower of provider/view (median)', worst('1000'), TARGETS.alerts1000Ms, 'ms'),
          check('10,000 alerts, slower of provider/view (median)', worst('10000'), TARGETS.alerts10000Ms, 'ms'),
        ]
      : []),
    ...(r.browse
      ? [check('429 errors shown while browsing', r.browse.rateLimitErrorsShown, TARGETS.shown429, '')]
      : []),
    ...(r.requestOverhead
      ? [check('client overhead vs bare undici (median ratio)', r.requestOverhead.ratio, TARGETS.overheadRatio, '×')]
      : []),
    ...(r.query
      ? [
          check(
            "Run Query, 10,000 rows to the painted table (the webview's paint, median)",
            r.query.runQueryToPaintedMs?.median,
            TARGETS.queryRenderedMs,
            'ms',
          ),
          check(
            'Run Query, 10,000 rows to the painted table / raw fetch+parse of the same (median ratio)',
            r.query.ratioToRaw,
            TARGETS.queryRatioToRaw,
            '×',
          ),
          ...(r.query.million
            ? [
                check(
                  'Run Query, 1,000,000 rows: first rows painted before the last row is read (median, ms)',
                  r.query.million.firstRowsPaintedMs?.median,
                  r.query.million.lastRowReadMs?.median,
                  'ms',
                ),
              ]
            : []),
          check(
            'query client vs raw fetch+parse, same query (median ratio)',
            r.query.clientVsRaw?.ratio,
            TARGETS.queryClientRatio,
            '×',
          ),
        ]
      : []),
    ...(r.preview
      ? [
          check(
            'chart preview, 50,400 points drawn after the data arrives (median)',
            r.preview.drawnMs.median,
            TARGETS.previewDrawnMs,
            'ms',
          ),
          check(
            'chart webview bundle (dist/preview.js + preview.css)',
            r.preview.bundle.totalKB,
            TARGETS.previewBundleKB,
            'KB',
          ),
          ...(r.preview.dashboard12TilesFromEmulator
            ? [
                check(
                  'dashboard preview on the emulator, 12 tiles, cold',
                  r.preview.dashboard12TilesFromEmulator.coldMs,
                  TARGETS.dashboardPreviewColdMs,
                  'ms',
                ),
                check(
                  'dashboard preview on the emulator, 12 tiles, warm (median)',
                  r.preview.dashboard12TilesFromEmulator.warmMs?.median,
                  TARGETS.dashboardPreviewWarmMs,
                  'ms',
                ),
              ]
            : []),
        ]
      : []),
    ...searchAndCodeTargets(r, check),
  ];
}

function table(r) {
  const rows = [['measure', 'value', 'target', '']];
  for (const t of r.targets)
    rows.push([
      t.name,
      `${t.value}${t.unit ? ` ${t.unit}` : ''}`,
      `≤ ${t.target}${t.unit ? ` ${t.unit}` : ''}`,
      t.ok ? 'ok' : 'MISSED',
    ]);
  rows.push([
    'activation call: this extension / empty extension (median)',
    `${r.activation.activateCallMsMedian} / ${r.activation.emptyExtensionCallMsMedian} ms`,
    '',
    '',
  ]);
  rows.push([
    '  CPU time of the call: this / empty (median; median ratio)',
    `${r.activation.activateCallCpuMsMedian} / ${r.activation.emptyExtensionCallCpuMsMedian} ms; ${r.activation.cpuRatioToEmpty} ×`,
    '',
    '',
  ]);
  rows.push(['  of which loading dist/extension.js (median)', `${r.activation.bundleLoadMsMedian} ms`, '', '']);
  if (r.firstUse) {
    rows.push([
      `first use, median of ${r.firstUse.samples?.length ?? 1} hosts: features load / first folder expand`,
      `${r.firstUse.featuresLoadMs} / ${r.firstUse.firstFolderExpandMs} ms`,
      '',
      '',
    ]);
    rows.push(['  then the first editor open (a dashboard for editing)', `${r.firstUse.firstEditorOpenMs} ms`, '', '']);
    rows.push(['  compile cache', r.firstUse.compileCache, '', '']);
  }
  if (r.secondWindow) {
    const w = r.secondWindow;
    rows.push([
      `second window, median of ${w.samples.length}: activation / empty extension's`,
      `${w.activateCallMsMedian} / ${w.emptyExtensionCallMsMedian} ms (${w.ratioToEmpty} ×)`,
      '',
      '',
    ]);
    rows.push([
      '  features load / first folder expand / first editor open',
      `${w.featuresLoadMs} / ${w.firstFolderExpandMs} / ${w.firstEditorOpenMs} ms`,
      '',
      '',
    ]);
    rows.push(['  compile cache', w.compileCache, '', '']);
  }
  for (const [file, size] of Object.entries(r.sizes.bundles ?? {})) rows.push([`  ${file}`, `${size} KB`, '', '']);
  if (r.sizes.vsixFiles) {
    rows.push(['VSIX, compressed size of each file', '', '', '']);
    for (const [file, e] of Object.entries(r.sizes.vsixFiles)) {
      rows.push([`  ${file}`, `${e.KB} KB (${e.uncompressedKB} KB)`, '', '']);
    }
  }
  rows.push(['', '', '', '']);
  rows.push(['alerts folder (ms)', 'median / p95', '', '']);
  for (const n of ['100', '1000', '10000']) {
    const a = r.alertsFolder[n];
    if (!a) continue;
    rows.push([
      `  ${n}: provider load+render`,
      `${a.providerLoadAndRender.median} / ${a.providerLoadAndRender.p95}`,
      '',
      '',
    ]);
    rows.push([
      `  ${n}: provider from cache`,
      `${a.providerRenderFromCache.median} / ${a.providerRenderFromCache.p95}`,
      '',
      '',
    ]);
    rows.push([`  ${n}: view reveal+expand`, `${a.viewRevealExpand.median} / ${a.viewRevealExpand.p95}`, '', '']);
  }
  if (r.browse) {
    rows.push([
      'browse: services / requests / 429 responses',
      `${r.browse.services} / ${r.browse.requestsSent} / ${r.browse.responses429}`,
      '',
      '',
    ]);
    rows.push(['browse: duration', `${r.browse.elapsedMs} ms`, '', '']);
  }
  if (r.requestOverhead) {
    rows.push([
      'request: bare undici / client (median ms)',
      `${r.requestOverhead.bareUndiciMsPerRequest.median} / ${r.requestOverhead.clientMsPerRequest.median}`,
      '',
      '',
    ]);
  }
  if (r.listPaging) {
    for (const [n, m] of Object.entries(r.listPaging.alerts)) {
      rows.push([
        `list ${n} alerts: requests without / with totalCount`,
        `${m.withoutTotal.requests} / ${m.withTotalCount.requests}`,
        '',
        '',
      ]);
    }
    rows.push(['endless list: requests until the bound', `${r.listPaging.endless.requests}`, '', '']);
  }
  if (r.query) {
    rows.push([
      'query: raw fetch+parse of the same 10,000 rows (median ms)',
      `${r.query.rawFetchParseMs.median} (Run Query ${r.query.ratioToRaw}× of it to the webview's paint, ${r.query.ratioResolvedToRaw}× to the command's resolution)`,
      '',
      '',
    ]);
    if (r.query.webviewFloor) {
      const f = r.query.webviewFloor;
      rows.push([
        'webview floor: post to paint of one word / of a bare 60-row table (median ms)',
        `${f.oneWordMs.median} / ${f.tableMs.median} (raw read + the bare table: ${f.floorRatioToRaw}× the raw read)`,
        '',
        '',
      ]);
    }
    if (r.query.stagesMs) {
      rows.push([
        `query: 10,000 rows, stages from the command (median ms; last row read to the table painted ${r.query.lastRowReadToPaintedMs?.median} ms)`,
        Object.entries(r.query.stagesMs)
          .map(([k, s]) => `${k} ${s.median}`)
          .join(', '),
        '',
        '',
      ]);
    }
    rows.push([
      'query: 10,000 rows, client part / panel part / first rows painted (median ms)',
      `${r.query.ofWhichQueryClientMs?.median} / ${r.query.ofWhichPanelMs?.median} / ${r.query.firstRowsPaintedMs?.median}`,
      '',
      '',
    ]);
    if (r.query.million) {
      const m = r.query.million;
      rows.push([
        'query: 1,000,000 rows, first rows painted / last row read / summary painted (median ms)',
        `${m.firstRowsPaintedMs.median} / ${m.lastRowReadMs.median} / ${m.summaryPaintedMs?.median}`,
        '',
        '',
      ]);
    }
    rows.push([
      'query: 1,000,600-row result at the row cap: rows / peak heap growth',
      `${r.query.memory.atRowCap.rows} / ${r.query.memory.atRowCap.peakHeapGrowthMB} MB`,
      '',
      '',
    ]);
    const retained = r.query.memory.atByteCap.retainedHeapGrowthMB;
    rows.push([
      'query: same at the 64 MiB byte cap: rows / peak heap growth (of which the result held)',
      `${r.query.memory.atByteCap.rows} / ${r.query.memory.atByteCap.peakHeapGrowthMB} MB${retained === undefined ? '' : ` (${retained} MB)`}`,
      '',
      '',
    ]);
  }
  if (r.preview) {
    rows.push([
      'preview: raw fetch+parse of the same 50,400 points / SVG polylines (median ms)',
      `${r.preview.rawFetchParseMs.median} / ${r.preview.svgPolylineMs.median} (uPlot ${r.preview.ratioToRaw}× of the fetch)`,
      '',
      '',
    ]);
    rows.push(['preview: 12-tile dashboard drawn (median ms)', `${r.preview.dashboard12TilesDrawnMs.median}`, '', '']);
    const emu = r.preview.dashboard12TilesFromEmulator;
    if (emu) {
      rows.push([
        'preview: 12-tile dashboard from the emulator, cold / warm median (ms; statements)',
        `${emu.coldMs} (${emu.coldQueries}) / ${emu.warmMs.median} (${emu.queriesPerWarmRun}); raw ${emu.coldRawFetchParseMs} / ${emu.rawFetchParseMs.median}, ratio ${emu.ratioToRaw}`,
        '2000',
        emu.coldMs <= 2000 ? 'ok' : 'MISSED',
      ]);
    }
  }
  rows.push(...searchAndCodeRows(r));
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  return `\n${rows
    .map((row) =>
      row
        .map((c, i) => String(c).padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}`;
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);

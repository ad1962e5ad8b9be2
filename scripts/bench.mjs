#!/usr/bin/env node
// `npm run bench`: performance figures of the extension, measured in a real VS Code extension host (code-server)
// against the local emulator. Writes bench/results.json, prints it and a table with the targets.
//
//   node scripts/bench.mjs [--runs 7] [--activation-samples 7] [--no-package] [--only browse,alerts,overhead,query,preview]
//
// Steps: compile (tsc -> out/), `npm run package` (production bundles dist/extension.js + dist/features.js + VSIX;
// sizes), start the emulator with five data services, run test/bench/index.ts in a fresh extension host (activation
// beside an empty reference extension, first use cold, scripted browse, Alerts folder timings, client overhead), then
// more fresh hosts for extra activation and first-use samples. `--only none` measures activation and first use only.
// Environment: OBS_TEST_VERBOSE=1 shows the workbench output; OBS_CHROMIUM, OBS_CODE_SERVER_DIR as for the tests.
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const NODE = process.execPath;
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const VSIX = path.join(ROOT, 'observability-explorer.vsix');
const RESULTS = path.join(ROOT, 'bench', 'results.json');
const verbose = !!process.env.OBS_TEST_VERBOSE;

const TARGETS = {
  activationMs: 15,
  activationRatioToEmpty: 1.5,
  evaluatedKB: 100,
  coldFirstExpandMs: 150,
  bundleKB: 350,
  // "VSIX under 400 KB" (it was ≤ 250 KB before the README's pictures, the icon and the walkthrough were shipped), in
  // this script's unit (KB = 1,024 bytes, as everywhere in the bench).
  vsixKB: 400,
  alerts1000Ms: 100,
  alerts10000Ms: 1000,
  shown429: 0,
  overheadRatio: 1.15,
  queryRenderedMs: 300,
  queryClientRatio: 1.15,
  previewDrawnMs: 200,
  previewBundleKB: 150,
};

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} needs a positive whole number`);
  return v;
}
const RUNS = option('--runs', 7);
const ACTIVATION_SAMPLES = option('--activation-samples', 7);
const PACKAGE = !process.argv.includes('--no-package');
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1]?.split(',') : undefined;

function run(cmd, args, { quiet = false } = {}) {
  if (!quiet) console.error(`$ ${[cmd === NODE ? 'node' : cmd, ...args].join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32' && cmd === NPM,
    });
    let output = '';
    const sink = (chunk) => {
      output += chunk.toString('utf8');
      if (verbose) process.stderr.write(chunk);
    };
    child.stdout.on('data', sink);
    child.stderr.on('data', sink);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Name, size and compressed size of each file in a zip (its central directory). */
function zipSizes(file) {
  const buf = fs.readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const out = [];
  let p = buf.readUInt32LE(eocd + 16);
  for (let n = buf.readUInt16LE(eocd + 10); n > 0; n--) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: corrupt central directory`);
    const nameLen = buf.readUInt16LE(p + 28);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    if (!name.endsWith('/')) out.push({ name, compressed: buf.readUInt32LE(p + 20), size: buf.readUInt32LE(p + 24) });
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return out;
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
  const tsc = await run(NODE, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']);
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
      zipSizes(VSIX)
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
  // The bundles packed into dist/bundles.br, by the size of the JavaScript each one is.
  const packIndex = path.join(ROOT, 'dist', 'bundles.json');
  if (fs.existsSync(packIndex)) {
    for (const [name, part] of Object.entries(JSON.parse(fs.readFileSync(packIndex, 'utf8')))) {
      sizes.bundles[`dist/${name} (in bundles.br)`] = kb(part.end - part.start);
    }
  }
  const schemaDir = path.join(ROOT, 'dist', 'schemas');
  if (fs.existsSync(schemaDir)) {
    sizes.bundles['dist/schemas/ (all)'] = kb(
      fs.readdirSync(schemaDir).reduce((n, f) => n + fs.statSync(path.join(schemaDir, f)).size, 0),
    );
  }
  // The Brotli-packed bundles (dist/bundles.br) count with the size of the JavaScript they hold, and so do the webview
  // scripts packed into dist/webviews.br.
  sizes.bundleBytes = fs
    .readdirSync(path.join(ROOT, 'dist'))
    .filter((f) => f.endsWith('.js') || f === 'bundles.br' || f === 'webviews.br')
    .reduce((n, f) => {
      const file = path.join(ROOT, 'dist', f);
      if (f === 'webviews.br') {
        const pack = JSON.parse(zlib.brotliDecompressSync(fs.readFileSync(file)).toString('utf8'));
        return Object.entries(pack).reduce(
          (m, [name, text]) => m + (name.endsWith('.js') ? Buffer.byteLength(text) : 0),
          n,
        );
      }
      return n + (f.endsWith('.br') ? zlib.brotliDecompressSync(fs.readFileSync(file)).length : fs.statSync(file).size);
    }, 0);
  sizes.bundleKB = kb(sizes.bundleBytes);
  sizes.bundle =
    'all JavaScript bundles in dist/, production (minified) build: the entry evaluated at activation and ' +
    'the features and editor features loaded on first use';

  const { ensureCodeServer } = require(path.join(ROOT, 'out', 'test', 'host', 'codeServer.js'));
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
  const hostRuns = [];
  try {
    const runHost = async (activationOnly, index) => {
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
      console.error(
        `extension host ${index + 1}/${ACTIVATION_SAMPLES}${activationOnly ? ' (activation and first use only)' : ''} …`,
      );
      const code = await runTestsInCodeServer({
        extensionTestsPath: path.join(ROOT, 'out', 'test', 'bench', 'index.js'),
        codeServerEntry: entry,
        installedExtensions: emptyExtensions,
        env: { OBS_BENCH_CONFIG: JSON.stringify(config) },
        timeoutMs: 10 * 60_000,
        onLog: (line) => {
          if (verbose || /^\[(error|warn)\]/.test(line)) console.error(line);
        },
      });
      if (!fs.existsSync(resultsFile)) throw new Error(`the benchmark host reported nothing (exit ${code})`);
      const result = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
      if (code !== 0) result.hostExitCode = code;
      return result;
    };
    hostRuns.push(await runHost(false, 0));
    for (let i = 1; i < ACTIVATION_SAMPLES; i++) hostRuns.push(await runHost(true, i));
  } finally {
    await emulator.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const main = hostRuns[0];
  const activations = hostRuns.map((r) => r.activation).filter(Boolean);
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length / 2;
    return s.length % 2 ? s[Math.floor(m)] : (s[m - 1] + s[m]) / 2;
  };
  const round2 = (x) => Math.round(x * 100) / 100;
  const activateCallMsMedian = median(activations.map((a) => a.activateCallMs));
  const emptyExtensionCallMsMedian = median(activations.map((a) => a.emptyExtensionCallMs));
  const activation = {
    method:
      'fresh extension host per sample (code-server 4.100.3 / VS Code 1.100.3); activateCallMs = wall time from ' +
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
  const firstUses = hostRuns.map((r) => r.firstUse).filter(Boolean);
  const alerts = main.alertsFolder ?? {};
  // Requests and time to read whole lists (API client against loopback servers, no extension host).
  const listPaging = await require(path.join(ROOT, 'out', 'test', 'bench', 'paging.js')).measureListPaging();
  const results = {
    measuredAt: new Date().toISOString(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.versions.node}, ${os.platform()}`,
    activation,
    firstUse:
      firstUses.length > 0
        ? {
            method:
              'every fresh host, right after activation (one cold sample per host; figures are medians over the hosts): ' +
              'featuresLoadMs = first read of the extension API, which loads ' +
              "and wires dist/features.js as the view's first question does; firstFolderExpandMs = TreeView.reveal(Dashboards " +
              'folder of a just-added connection, {expand: true}) from call to resolution (service and folder expanded, the ' +
              'first request with undici loading, response checks, rendered children); coldFirstExpandMs = the sum; ' +
              'editorFeaturesLoadMs = then the first read of the query API, which loads and wires dist/documents.js ' +
              '(the editor features) on top, as their first command or document does (not part of the first expand)',
            featuresLoadMs: round2(median(firstUses.map((u) => u.featuresLoadMs))),
            firstFolderExpandMs: round2(median(firstUses.map((u) => u.firstFolderExpandMs))),
            coldFirstExpandMs: round2(median(firstUses.map((u) => u.coldFirstExpandMs))),
            editorFeaturesLoadMs: round2(median(firstUses.map((u) => u.editorFeaturesLoadMs))),
            childrenShown: Math.min(...firstUses.map((u) => u.childrenShown)),
            samples: firstUses.map((u) => ({
              featuresLoadMs: u.featuresLoadMs,
              firstFolderExpandMs: u.firstFolderExpandMs,
              coldFirstExpandMs: u.coldFirstExpandMs,
              editorFeaturesLoadMs: u.editorFeaturesLoadMs,
            })),
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
    check('bundles in dist/, all', r.sizes.bundleKB, TARGETS.bundleKB, 'KB'),
    ...(r.sizes.vsixKB !== undefined ? [check('VSIX', r.sizes.vsixKB, TARGETS.vsixKB, 'KB')] : []),
    check('1,000 alerts, slower of provider/view (median)', worst('1000'), TARGETS.alerts1000Ms, 'ms'),
    check('10,000 alerts, slower of provider/view (median)', worst('10000'), TARGETS.alerts10000Ms, 'ms'),
    check('429 errors shown while browsing', r.browse?.rateLimitErrorsShown, TARGETS.shown429, ''),
    check('client overhead vs bare undici (median ratio)', r.requestOverhead?.ratio, TARGETS.overheadRatio, '×'),
    check(
      'Run Query, 10,000 rows to rendered table (median)',
      r.query?.runQueryToRenderedMs?.median,
      TARGETS.queryRenderedMs,
      'ms',
    ),
    check(
      'query client vs raw fetch+parse, same query (median ratio)',
      r.query?.clientVsRaw?.ratio,
      TARGETS.queryClientRatio,
      '×',
    ),
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
        ]
      : []),
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
    rows.push([
      '  then the editor features load (dist/documents.js, on their first use)',
      `${r.firstUse.editorFeaturesLoadMs} ms`,
      '',
      '',
    ]);
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
      `${r.query.rawFetchParseMs.median} (Run Query ${r.query.ratioToRaw}× of it)`,
      '',
      '',
    ]);
    rows.push([
      'query: 1,000,600-row result at the row cap: rows / peak heap growth',
      `${r.query.memory.atRowCap.rows} / ${r.query.memory.atRowCap.peakHeapGrowthMB} MB`,
      '',
      '',
    ]);
    rows.push([
      'query: same at the 64 MiB byte cap: rows / peak heap growth',
      `${r.query.memory.atByteCap.rows} / ${r.query.memory.atByteCap.peakHeapGrowthMB} MB`,
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

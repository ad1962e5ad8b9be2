#!/usr/bin/env node
// `npm test`: type check, lint, format check, build, unit tests, integration tests in a real VS Code (code-server),
// package check.
//
//   node scripts/test.mjs [format|unit|integration|e2e|package ...]
//
// Without arguments every step runs. `unit` and `integration` also build first (the tests run from out/);
// `package` builds its own production bundle. Output of every step is streamed; a summary with per-step status,
// duration and counts ends the run, and its last line reads `N passed, N failed` (`, N skipped` when there are any).
// Counts: each unit and integration test, plus one check for each of typecheck, lint, format, structure
// (scripts/check-structure.mjs), build and the package checks. `format` is `prettier --check` over src, test and
// scripts (.prettierrc.json, .prettierignore).
// The exit code is non-zero when anything failed.
//
// `integration` runs twice: all suites, then the main journeys against emulators that answer like a newer server
// (OBS_EMULATOR_FUTURE=1), counted as its own step. Its tests: OBS_TEST_FUTURE_GREP, else OBS_TEST_GREP, else the
// main journeys (FUTURE_GREP below); OBS_TEST_FUTURE=0 skips it.
// Environment: OBS_TEST_GREP (integration tests to run, mocha grep), OBS_TEST_TIMEOUT_MS (integration time limit),
// OBS_CODE_SERVER_DIR (code-server cache), OBS_CHROMIUM (browser), OBS_TEST_VERBOSE=1 (workbench output too).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NODE, NPM, ROOT, bin, parseOptions, run as runCommand, zipEntries } from './shared.mjs';

const EXTENSION_ID = 'obs-tools.observability-explorer';
const VSIX = 'observability-explorer.vsix';

const SUBSETS = new Set(['format', 'unit', 'integration', 'e2e', 'package']);
const USAGE = 'Usage: node scripts/test.mjs [format|unit|integration|e2e|package ...]   (no step: all of them)';
const { positionals: requested } = parseOptions(USAGE, {}, { positionals: true });
for (const arg of requested) {
  if (!SUBSETS.has(arg)) {
    console.error(`Unknown step "${arg}". ${USAGE}`);
    process.exit(2);
  }
}
const all = requested.length === 0;
const want = (name) => all || requested.includes(name);

/** Runs a command, streaming its output and returning it with the exit code. */
const run = (cmd, args, opts = {}) => runCommand(cmd, args, { ...opts, stream: true });

/** Every file below `dir` whose name ends with `suffix` (Node 20 has no fs glob). */
function findFiles(dir, suffix) {
  if (!fs.existsSync(dir)) return [];
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findFiles(full, suffix));
    else if (entry.isFile() && entry.name.endsWith(suffix)) found.push(full);
  }
  return found.sort();
}

/** Files the VSIX may carry: the manifest, docs, the bundles, webview files, the HTTP parser, media, translations. */
const VSIX_ALLOWED = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/package\.nls(\.[a-z-]+)?\.json$/,
  /^extension\/(readme|changelog)\.md$/i,
  /^extension\/LICENSE(\.txt|\.md)?$/i,
  /^extension\/dist\/(extension|features|queryResults|preview|traces|search)\.js$/,
  /^extension\/dist\/preview\.css$/,
  /^extension\/dist\/llhttp_simd\.wasm$/,
  /^extension\/dist\/schemas\/[^/]+\.json$/,
  /^extension\/media\/[^/]+\.(svg|png)$/,
  /^extension\/media\/walkthrough\/[^/]+\.md$/,
  /^extension\/l10n\/[^/]+\.json$/,
];

/** Files the extension cannot work without: the entry, the features bundle, the HTTP parser, the webviews. */
const VSIX_REQUIRED = [
  'dist/extension.js',
  'dist/features.js',
  'dist/llhttp_simd.wasm',
  'dist/queryResults.js',
  'dist/preview.js',
  'dist/preview.css',
  'dist/traces.js',
  'dist/search.js',
];
/** The VSIX stays under this size (KB = 1,024 bytes). */
const VSIX_MAX_KB = 400;

const steps = [];
const counts = { passed: 0, failed: 0, skipped: 0 };
let typecheckFailed = false;

async function step(name, fn) {
  console.log(`\n━━━ ${name} ━━━`);
  const started = Date.now();
  let result;
  try {
    result = await fn();
  } catch (err) {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    result = { ok: false, passed: 0, failed: 1, note: err instanceof Error ? err.message.split('\n')[0] : String(err) };
  }
  const entry = { name, durationMs: Date.now() - started, ...result };
  counts.passed += entry.passed ?? 0;
  counts.failed += entry.failed ?? 0;
  counts.skipped += entry.skipped ?? 0;
  steps.push(entry);
  return entry.ok;
}

function skip(name, why) {
  steps.push({ name, ok: undefined, durationMs: 0, note: why });
}

/** One pass/fail check for steps that are not test runners. */
const check = (ok, note) => ({ ok, passed: ok ? 1 : 0, failed: ok ? 0 : 1, note });

/** tsconfig projects checked besides the root one: the webview scripts (DOM, no Node), which the root excludes. */
const EXTRA_TSCONFIGS = [
  'src/query/webview/tsconfig.json',
  'src/preview/webview/tsconfig.json',
  'src/traces/webview/tsconfig.json',
  'src/search/webview/tsconfig.json',
];

async function typecheck() {
  let failed = false;
  let errors = 0;
  for (const project of ['tsconfig.json', ...EXTRA_TSCONFIGS]) {
    const r = await run(NODE, [bin('typescript/bin/tsc'), '-p', project, '--noEmit']);
    if (r.code !== 0) failed = true;
    errors += (r.output.match(/error TS\d+/g) ?? []).length;
  }
  typecheckFailed = failed;
  return check(!failed, failed ? `${errors} type error(s)` : '');
}

async function lint() {
  const r = await run(NODE, [bin('eslint/bin/eslint.js'), '.']);
  const m = /(\d+) problems? \((\d+) errors?/.exec(r.output);
  return check(r.code === 0, r.code === 0 ? '' : m ? `${m[2]} error(s)` : `exit ${r.code}`);
}

/** Layering of src/ (scripts/check-structure.mjs): feature folders stay apart, vscode-free layers stay so. */
async function structure() {
  const r = await run(NODE, [path.join(ROOT, 'scripts', 'check-structure.mjs')]);
  const m = /\((\d+) problem/.exec(r.output);
  return check(r.code === 0, r.code === 0 ? '' : m ? `${m[1]} problem(s)` : `exit ${r.code}`);
}

/** Folders whose files must be formatted as Prettier formats them. */
const FORMATTED = ['src', 'test', 'scripts'];

async function format() {
  const r = await run(NODE, [bin('prettier/bin/prettier.cjs'), '--check', ...FORMATTED]);
  if (r.code === 0) return check(true, '');
  const m = /Code style issues found in (\d+) files?|Code style issues found in the above file/.exec(r.output);
  const files = m ? Number(m[1] ?? 1) : undefined;
  return check(
    false,
    files !== undefined
      ? `${files} file(s) not formatted (npx prettier --write ${FORMATTED.join(' ')})`
      : `exit ${r.code}`,
  );
}

/** Deletes compiled files in out/ whose TypeScript source is gone, so removed tests do not keep running. */
function removeStaleOutput() {
  const out = path.join(ROOT, 'out');
  for (const file of findFiles(out, '.js')) {
    const source = path.join(ROOT, path.relative(out, file)).replace(/\.js$/, '.ts');
    if (!fs.existsSync(source)) {
      fs.rmSync(file, { force: true });
      fs.rmSync(`${file}.map`, { force: true });
    }
  }
}

async function build() {
  const bundle = await run(NODE, ['esbuild.mjs']);
  if (bundle.code !== 0) return { ...check(false, 'esbuild failed'), usable: false };
  removeStaleOutput();
  const emit = await run(NODE, [bin('typescript/bin/tsc'), '-p', 'tsconfig.json']);
  if (emit.code === 0) return { ...check(true, ''), usable: true };
  if (!fs.existsSync(path.join(ROOT, 'out', 'test'))) return { ...check(false, 'tsc emitted nothing'), usable: false };
  // tsc still emits on type errors, so the tests can run; the errors fail this step unless typecheck already did.
  const errors = (emit.output.match(/error TS\d+/g) ?? []).length;
  if (typecheckFailed) return { ...check(true, 'emitted despite type errors (see typecheck)'), usable: true };
  return { ...check(false, `${errors} type error(s); tests run on the emitted output`), usable: true };
}

/** Runs node:test files (one at a time when `serial`) and reads the spec reporter's closing counts. */
async function nodeTests(files, { serial = false, timeoutMs = 120000 } = {}) {
  const r = await run(NODE, [
    '--test',
    '--test-reporter=spec',
    `--test-timeout=${timeoutMs}`,
    ...(serial ? ['--test-concurrency=1'] : []),
    ...files,
  ]);
  const num = (label) => {
    const all = [...r.output.matchAll(new RegExp(`^ℹ ${label} (\\d+)$`, 'gm'))];
    return all.length ? Number(all[all.length - 1][1]) : undefined;
  };
  const pass = num('pass');
  const fail = num('fail');
  if (pass === undefined || fail === undefined) {
    return { ok: false, passed: 0, failed: 1, note: `no test summary from node --test (exit ${r.code})` };
  }
  const failed = fail + (num('cancelled') ?? 0);
  const skipped = (num('skipped') ?? 0) + (num('todo') ?? 0);
  const ok = r.code === 0 && failed === 0;
  return {
    ok,
    passed: pass,
    failed: ok || failed > 0 ? failed : 1,
    skipped,
    note: `${files.length} file(s), ${pass} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
  };
}

async function unit() {
  const files = findFiles(path.join(ROOT, 'out', 'test', 'unit'), '.test.js');
  if (files.length === 0) return { ok: true, passed: 0, failed: 0, note: 'no unit tests found' };
  return nodeTests(files);
}

/** UI tests: Playwright drives the real workbench in Chromium; each file opens its own code-server per connection kind it runs on. */
async function e2e() {
  const files = findFiles(path.join(ROOT, 'out', 'test', 'e2e'), '.e2e.js');
  if (files.length === 0) return { ok: true, passed: 0, failed: 0, note: 'no UI tests found' };
  await ensureCodeServer();
  return nodeTests(files, { serial: true, timeoutMs: 300000 });
}

/** Installs code-server once; its entry point and the Node that runs it (Node 22 from the npm registry on Node 20). */
async function ensureCodeServer() {
  const r = await run(NODE, [path.join(ROOT, 'out', 'test', 'host', 'codeServer.js')]);
  if (r.code !== 0) throw new Error('code-server could not be installed');
  const lines = r.output.trim().split(/\r?\n/);
  return { entry: lines[lines.length - 1], node: lines[lines.length - 2] };
}

/**
 * Second integration pass: the main journeys (browse the tree, edit an alert, edit a dashboard, plan and apply alert
 * files, create and edit webhooks, saved searches, sources and roles) against emulators that answer like a newer server (OBS_EMULATOR_FUTURE=1: unknown fields at every level,
 * paged lists capped below `limit`). Proves the client keeps what it does not know and pages by what it gets.
 */
const FUTURE_GREP = [
  '^Explorer tree (draws|lists|shows tiles|shows sources|filters|opens an alert|deletes|reveals|counts)',
  '^Resource editors (opens Create Alert|starts Create Alert|creates an alert|updates an alert|tells in a CodeLens|refuses to overwrite|warns with the watching alerts|upserts the query endpoint|creates a dashboard)',
  '^Alert files (exports an alert|creates from a file|plans create|applies a plan)',
  '^Resource documents: .* ((webhook|savedSearch|source|role): Create applies the template|webhook: the URL secret)',
  // The journeys that run on both kinds of connection (Cloud, self-hosted): describeEachFlavor in the suites.
  '^(Explorer tree|Resource editors|Alert files) journey',
].join('|');

function integrationFuture() {
  const grep = process.env.OBS_TEST_FUTURE_GREP || process.env.OBS_TEST_GREP || FUTURE_GREP;
  return integration({ OBS_EMULATOR_FUTURE: '1', OBS_TEST_GREP: grep });
}

async function integration(env = {}) {
  await ensureCodeServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-integration-'));
  const results = path.join(tmp, 'results.json');
  try {
    const r = await run(
      NODE,
      [
        path.join(ROOT, 'out', 'test', 'host', 'runInCodeServer.js'),
        '--tests',
        path.join(ROOT, 'out', 'test', 'integration', 'index.js'),
        '--results',
        results,
      ],
      { env },
    );
    let summary;
    if (fs.existsSync(results)) {
      summary = JSON.parse(fs.readFileSync(results, 'utf8'));
    } else {
      const line = r.output
        .split(/\r?\n/)
        .reverse()
        .find((l) => l.includes('INTEGRATION RESULT '));
      if (line) summary = JSON.parse(line.slice(line.indexOf('INTEGRATION RESULT ') + 'INTEGRATION RESULT '.length));
    }
    if (!summary) return { ok: false, passed: 0, failed: 1, note: `no result reported (exit ${r.code})` };
    const ok = r.code === 0 && summary.failed === 0;
    return {
      ok,
      passed: summary.passed,
      failed: ok || summary.failed > 0 ? summary.failed : 1,
      skipped: summary.pending,
      note: `${summary.passed} passed, ${summary.failed} failed${summary.pending ? `, ${summary.pending} skipped` : ''}${
        summary.failures.length ? `: ${summary.failures.map((f) => f.title).join('; ')}` : ''
      }`,
    };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function packageCheck() {
  const problems = [];
  let passed = 0;
  const vsix = path.join(ROOT, VSIX);
  fs.rmSync(vsix, { force: true });
  const pack = await run(NPM, ['run', '--silent', 'package']);
  if (pack.code !== 0 || !fs.existsSync(vsix)) {
    return { ok: false, passed: 0, failed: 1, note: '`npm run package` failed' };
  }
  const entries = zipEntries(vsix).map((e) => e.name);
  const unexpected = entries.filter((e) => !VSIX_ALLOWED.some((re) => re.test(e)));
  console.log(`${VSIX}: ${(fs.statSync(vsix).size / 1024).toFixed(1)} KB, ${entries.length} files`);
  for (const e of entries) console.log(`  ${e}`);
  if (unexpected.length) problems.push(`unexpected files in the VSIX: ${unexpected.join(', ')}`);
  else {
    const missing = VSIX_REQUIRED.filter((file) => !entries.includes(`extension/${file}`));
    if (missing.length > 0) problems.push(`the VSIX has no ${missing.join(', ')}`);
    else passed++;
  }
  const vsixKB = fs.statSync(vsix).size / 1024;
  if (vsixKB > VSIX_MAX_KB) problems.push(`the VSIX is ${vsixKB.toFixed(1)} KB, more than ${VSIX_MAX_KB} KB`);
  else passed++;

  const { entry, node } = await ensureCodeServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-vsix-'));
  try {
    const dirs = ['--extensions-dir', path.join(tmp, 'extensions'), '--user-data-dir', path.join(tmp, 'user-data')];
    const env = { CODE_SERVER_CONFIG: path.join(tmp, 'config.yaml'), EXTENSIONS_GALLERY: '{}' };
    const install = await run(node, [entry, ...dirs, '--install-extension', vsix], { env });
    if (install.code !== 0) problems.push(`--install-extension failed (exit ${install.code})`);
    else passed++;
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
    const list = await run(node, [entry, ...dirs, '--list-extensions', '--show-versions'], { env });
    if (list.code === 0 && list.output.split(/\r?\n/).some((l) => l.trim() === `${EXTENSION_ID}@${version}`)) passed++;
    else problems.push(`--list-extensions does not show ${EXTENSION_ID}@${version}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  for (const p of problems) console.error(`package check: ${p}`);
  return {
    ok: problems.length === 0,
    passed,
    failed: problems.length,
    note: problems.join('; ') || `${VSIX} installs and is listed`,
  };
}

/** The hostile-network suite's figures (out/hostile-summary.json, written by test/unit/api/hostile.test.ts in this run). */
function hostileSummary() {
  const file = path.join(ROOT, 'out', 'hostile-summary.json');
  try {
    if (!want('unit') || fs.statSync(file).mtimeMs < started) return undefined;
    const h = JSON.parse(fs.readFileSync(file, 'utf8'));
    return (
      `hostile network: ${h.cases} cases, ${h.requests} requests, worst settle ${h.worstSettleMs} ms, ` +
      `worst overrun past a deadline ${h.worstOverrunMs} ms (${h.worstOverrunRequest}), ` +
      `64 MiB HTML error reported in ${h.html64MiBReportMs} ms`
    );
  } catch {
    return undefined;
  }
}

const started = Date.now();
if (all) {
  await step('typecheck', typecheck);
  await step('lint', lint);
  await step('structure', structure);
}
if (want('format')) await step('format', format);
let built = true;
if (want('unit') || want('integration') || want('e2e')) {
  await step('build', build);
  built = steps[steps.length - 1].usable === true;
}
if (want('unit')) {
  if (built) await step('unit', unit);
  else skip('unit', 'build failed');
}
if (want('integration')) {
  if (built) await step('integration', () => integration());
  else skip('integration', 'build failed');
  const futureStep = 'integration (newer server: future fields, page cap 7)';
  if (process.env.OBS_TEST_FUTURE === '0') skip(futureStep, 'OBS_TEST_FUTURE=0');
  else if (built) await step(futureStep, integrationFuture);
  else skip(futureStep, 'build failed');
}
if (want('e2e')) {
  if (built) await step('e2e', e2e);
  else skip('e2e', 'build failed');
}
if (want('package')) await step('package', packageCheck);

const width = Math.max(...steps.map((s) => s.name.length));
console.log('\n━━━ summary ━━━');
for (const s of steps) {
  const status = s.ok === undefined ? 'SKIPPED' : s.ok ? 'ok' : 'FAILED';
  const secs = `${(s.durationMs / 1000).toFixed(1)} s`.padStart(8);
  console.log(`${s.name.padEnd(width)}  ${status.padEnd(7)} ${secs}${s.note ? `  ${s.note}` : ''}`);
}
const hostile = hostileSummary();
if (hostile) console.log(hostile);
console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
const anyFailed = counts.failed > 0 || steps.some((s) => s.ok === false || s.ok === undefined);
console.log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
process.exitCode = anyFailed ? 1 : 0;

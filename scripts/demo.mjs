#!/usr/bin/env node
// `npm run demo`: builds the extension, starts the local API emulator with its sample data and opens VS Code with the
// extension loaded from this folder and a connection to the emulator already added. Runs until Ctrl+C.
//
// - Desktop VS Code when `code` is on PATH: `code --wait --extensionDevelopmentPath=<repo>` with a throw-away profile.
// - Otherwise code-server (the workbench used by the tests) on a loopback port: the URL is printed, and opened in
//   Chromium when a display is available.
//
// The window opens a copy of the sample multi-language workspace (test/fixtures/codeWorkspace), whose functions the
// emulator's spans name. The connection is added by a small helper extension installed beside it
// (test/demo/connection.ts), which reads OBS_DEMO_CONNECTION and uses the extension's command and API; on the Cloud
// flavor it also sets the folder's code-insights pick (OBS_DEMO_CODE_INSIGHTS: the first service and its trace
// source) and opens src/checkout/cart.ts, so the lenses show at once. The extension itself has no demo code. The build
// (tsc and esbuild) is skipped when no input changed since the last one (`node scripts/demo.mjs --help` for the
// options). Environment: OBS_CHROMIUM (browser).
//
// Once the workbench is up it prints `DEMO READY <workbench URL> <emulator URL>` (the UI test test/e2e/demo.e2e.ts
// reads that line).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { clearTimeout, setTimeout } from 'node:timers';
import { NODE, ROOT, bin, parseOptions } from './shared.mjs';

const require = createRequire(import.meta.url);
const LABEL = 'Northwind (emulator)';
/** A self-hosted connection is named after the deployment's team (the emulator's sample team). */
const SELF_HOSTED_LABEL = 'Northwind Engineering';
const { values: opts } = parseOptions('Usage: node scripts/demo.mjs [options]   (npm run demo -- [options])', {
  flavor: {
    type: 'string',
    default: 'cloud',
    placeholder: 'cloud|oss',
    description: 'oss: a self-hosted ClickStack / HyperDX deployment (External API v2, personal API key)',
  },
  port: {
    type: 'string',
    default: '8787',
    placeholder: 'n',
    description: 'emulator port (0 or a taken one: a free one)',
  },
  browser: { type: 'boolean', description: 'use code-server even when `code` is on PATH' },
  'no-open': { type: 'boolean', description: 'print the workbench URL only' },
  'no-build': { type: 'boolean', description: 'use dist/ and out/ as they are, never build' },
});
const flag = (name) => opts[name.replace(/^--/, '')] === true;
const portArg = Number(opts.port);
if (!Number.isInteger(portArg) || portArg < 0 || portArg > 65535) {
  console.error(`--port needs a port number (0: any free one), not "${opts.port}"`);
  process.exit(2);
}
const flavorArg = opts.flavor;
if (flavorArg !== 'cloud' && flavorArg !== 'oss') {
  console.error(`--flavor must be cloud or oss, not "${flavorArg}"`);
  process.exit(2);
}

/** What the demo's build reads, and when it last finished (out/demo-build.stamp). */
const BUILD_INPUTS = ['src', 'test', 'esbuild.mjs', 'scripts/jsonSchemas.mjs', 'package.json', 'tsconfig.json'];
const BUILD_STAMP = path.join(ROOT, 'out', 'demo-build.stamp');
const BUILD_OUTPUTS = [
  'dist/extension.js',
  'dist/features.js',
  'out/test/emulator/server.js',
  'out/test/demo/install.js',
];

/** The newest modification time of the files below `file` (or of `file`). */
function newestMtime(file) {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(file).reduce((n, name) => Math.max(n, newestMtime(path.join(file, name))), stat.mtimeMs);
}

/** Why the build must run, or undefined when its outputs are newer than every input. */
function buildNeeded() {
  const missing = BUILD_OUTPUTS.find((f) => !fs.existsSync(path.join(ROOT, f)));
  if (missing) return `${missing} is missing`;
  if (!fs.existsSync(BUILD_STAMP)) return 'no earlier demo build';
  const built = fs.statSync(BUILD_STAMP).mtimeMs;
  const changed = BUILD_INPUTS.find((f) => newestMtime(path.join(ROOT, f)) > built);
  return changed ? `${changed} changed` : undefined;
}

const cleanups = [];
let stopping = false;
async function cleanup() {
  while (cleanups.length) {
    const fn = cleanups.pop();
    try {
      await fn();
    } catch {
      // Best effort while shutting down.
    }
  }
}
async function stop(code) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping the demo …');
  await cleanup();
  process.exit(code);
}
process.on('SIGINT', () => void stop(130));
process.on('SIGTERM', () => void stop(143));

function step(cmd, argv) {
  console.log(`$ ${[cmd === NODE ? 'node' : cmd, ...argv].join(' ')}`);
  const r = spawnSync(cmd, argv, { cwd: ROOT, stdio: 'inherit' });
  return r.status ?? 1;
}

function onPath(name) {
  const exts = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const ext of exts) {
      const file = path.join(dir, name + ext);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return file;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}

function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** Stops a process started with `detached: true` together with its children. */
function killGroup(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      resolve();
    }, 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      resolve();
    });
    try {
      if (process.platform === 'win32') child.kill('SIGTERM');
      else process.kill(-child.pid, 'SIGTERM');
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

function hasDisplay() {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

async function startCodeServer(tmp, env) {
  const { ensureCodeServer } = require(path.join(ROOT, 'out', 'test', 'host', 'codeServer.js'));
  console.log('Checking the code-server install (shared with the tests; another process may hold its lock) …');
  const { entry, node } = await ensureCodeServer({ log: (line) => console.log(line) });
  const userData = path.join(tmp, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'security.workspace.trust.enabled': false,
      },
      null,
      2,
    ),
  );
  const workspace = path.join(tmp, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  const child = spawn(
    node,
    [
      entry,
      '--auth',
      'none',
      '--bind-addr',
      '127.0.0.1:0',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--user-data-dir',
      userData,
      '--extensions-dir',
      path.join(tmp, 'extensions'),
      workspace,
    ],
    {
      env: { EXTENSIONS_GALLERY: '{}', ...process.env, ...env, CODE_SERVER_CONFIG: path.join(tmp, 'config.yaml') },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    },
  );
  cleanups.push(() => killGroup(child));
  const serverUrl = await new Promise((resolve, reject) => {
    let tail = '';
    const onData = (chunk) => {
      tail = (tail + chunk.toString('utf8')).slice(-4000);
      const m = /HTTP server listening on (http:\/\/[^\s/]+)/.exec(tail);
      if (m) resolve(m[1].replace('0.0.0.0', '127.0.0.1'));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`code-server exited (${code}):\n${tail}`)));
    setTimeout(() => reject(new Error(`code-server did not start within 60 s:\n${tail}`)), 60_000).unref();
  });
  child.once('exit', () => {
    if (!stopping) void stop(1);
  });
  const authority = new URL(serverUrl).host;
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${authority}${encodeURI(ROOT)}`],
    ['skipWelcome', 'true'],
  ];
  return `${serverUrl}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

async function main() {
  // Build: the bundles the extension runs, and the compiled emulator, code-server and demo helpers.
  const why = flag('--no-build') ? undefined : buildNeeded();
  if (flag('--no-build')) {
    if (!fs.existsSync(path.join(ROOT, 'out', 'test', 'emulator', 'server.js'))) {
      throw new Error('--no-build: out/ is not built (run `npx tsc -p tsconfig.json && node esbuild.mjs`)');
    }
  } else if (!why) {
    console.log('Build skipped: dist/ and out/ are newer than every input (src, test, esbuild.mjs, package.json).');
  } else {
    console.log(`Building (${why}) …`);
    const compiled = step(NODE, [bin('typescript/bin/tsc'), '-p', 'tsconfig.json']) === 0;
    if (!compiled && !fs.existsSync(path.join(ROOT, 'out', 'test', 'emulator', 'server.js'))) {
      throw new Error('compilation failed');
    }
    if (step(NODE, ['esbuild.mjs']) !== 0) throw new Error('the extension build failed');
    // A build with type errors still runs, but is not taken as up to date.
    if (compiled) fs.writeFileSync(BUILD_STAMP, `${new Date().toISOString()}\n`);
  }

  const { startEmulator } = require(path.join(ROOT, 'out', 'test', 'emulator', 'server.js'));
  const port = (await portFree(portArg)) ? portArg : 0;
  // The demo's sample data moves with the wall clock, whatever OBS_EMULATOR_NOW says (tests freeze it).
  const emulator = await startEmulator({ port, flavor: flavorArg, now: false });
  cleanups.push(() => emulator.close());
  const [first, second] = emulator.serviceIds;
  // A self-hosted deployment: its base URL and personal API key; no organization, services or query endpoint.
  const selfHosted = { kind: 'selfHosted', baseUrl: emulator.url, apiKey: emulator.ossApiKey };
  // SQL runs on the emulator's query host (embedded ClickHouse, started on first use). The first service's query
  // endpoint already lists the demo key; the second (idle) one shows the enable-key and wake offers.
  const { SAMPLE_KEY_UUID } = require(path.join(ROOT, 'out', 'test', 'emulator', 'seed.js'));
  emulator.state.data.get(first).queryEndpoint = {
    id: '0d5c2a8e-6f14-4b3a-9e7d-2c1b0a9f8e7d',
    roles: ['sql_console_read_only'],
    openApiKeys: [SAMPLE_KEY_UUID],
    allowedOrigins: '',
  };
  const connection = {
    baseUrl: emulator.url,
    keyId: emulator.keyId,
    keySecret: emulator.keySecret,
    organizationId: emulator.organizationId,
    serviceIds: [first, second],
    label: LABEL,
    queryUrl: emulator.queryUrl,
  };
  const taken = port === 0 && portArg !== 0 ? ` (port ${portArg} was taken)` : '';
  console.log(
    flavorArg === 'oss'
      ? `\nEmulator (self-hosted flavor): ${emulator.url}${taken}  personal API key ${emulator.ossApiKey}`
      : `\nEmulator: ${emulator.url}${taken}  key ${emulator.keyId}  query host ${emulator.queryUrl}`,
  );
  const label = flavorArg === 'oss' ? SELF_HOSTED_LABEL : LABEL;

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-demo-'));
  cleanups.push(() => fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 3 }));
  const env = { OBS_DEMO_CONNECTION: JSON.stringify(flavorArg === 'oss' ? selfHosted : connection) };
  // The sample workspace, copied (the fixture stays as it is), and on the Cloud flavor its code-insights pick.
  fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'codeWorkspace'), path.join(tmp, 'workspace'), { recursive: true });
  const traceSource = [...emulator.state.data.get(first).sources.values()].find((s) => s.kind === 'trace');
  if (flavorArg === 'cloud' && traceSource) {
    env.OBS_DEMO_CODE_INSIGHTS = JSON.stringify({ serviceId: first, sourceId: traceSource.id });
  }
  // The helper extension that adds the connection, installed into the window's own extensions folder.
  const { writeDemoExtension } = require(path.join(ROOT, 'out', 'test', 'demo', 'install.js'));
  const { installExtensions } = require(path.join(ROOT, 'out', 'test', 'host', 'runInCodeServer.js'));
  fs.mkdirSync(path.join(tmp, 'extensions'), { recursive: true });
  installExtensions(path.join(tmp, 'extensions'), [writeDemoExtension(path.join(tmp, 'demo-extension'))]);

  const code = flag('--browser') ? undefined : onPath('code');
  if (code) {
    console.log('Opening VS Code with the extension under development (close the window or press Ctrl+C to stop) …');
    fs.mkdirSync(path.join(tmp, 'workspace'), { recursive: true });
    const child = spawn(
      code,
      [
        '--wait',
        '--new-window',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        `--extensionDevelopmentPath=${ROOT}`,
        '--user-data-dir',
        path.join(tmp, 'user-data'),
        '--extensions-dir',
        path.join(tmp, 'extensions'),
        path.join(tmp, 'workspace'),
      ],
      {
        env: { ...process.env, ...env },
        stdio: 'inherit',
        detached: process.platform !== 'win32',
        shell: process.platform === 'win32',
      },
    );
    cleanups.push(() => killGroup(child));
    child.once('exit', () => {
      if (!stopping) void stop(0);
    });
    return;
  }

  const url = await startCodeServer(tmp, env);
  console.log(`\nVS Code (code-server) with the extension and the connection "${label}":\n\n  ${url}\n`);
  console.log(`DEMO READY ${url} ${emulator.url}`);
  const chromium = process.env.OBS_CHROMIUM ?? '/usr/bin/chromium';
  if (!flag('--no-open') && hasDisplay() && fs.existsSync(chromium)) {
    const browser = spawn(
      chromium,
      [`--user-data-dir=${path.join(tmp, 'browser')}`, '--no-first-run', '--no-default-browser-check', `--app=${url}`],
      {
        stdio: 'ignore',
        detached: process.platform !== 'win32',
      },
    );
    cleanups.push(() => killGroup(browser));
    console.log('Opened in Chromium.');
  } else {
    console.log('Open that address in a browser on this machine. (No display found, so no browser was started.)');
  }
  console.log('Open the Observability view in the activity bar. Press Ctrl+C to stop.');
  if (env.OBS_DEMO_CODE_INSIGHTS) {
    console.log('The sample workspace shows production figures above its functions (code insights, last 24 h).');
  }
}

main().catch(async (err) => {
  console.error(err instanceof Error ? err.message : String(err));
  await cleanup();
  process.exit(1);
});

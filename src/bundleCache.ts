/**
 * Loads a CommonJS bundle with a V8 code cache, so that the features bundle is compiled once per version and machine
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
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** What happened to the code cache on a load. */
export type CodeCacheUse = 'off' | 'none' | 'used' | 'rejected';

export interface LoadedBundle {
  readonly exports: unknown;
  readonly cache: CodeCacheUse;
  /** Writes the code cache unless the load used a valid one (call it once the bundle has done its first work). */
  saveCache(): void;
}

const SUFFIX = '.v8cache';

/**
 * Evaluates the CommonJS bundle `file` (as `require(file)` would, with `req` as its `require`), using and keeping a
 * code cache in `cacheDir`. Without `cacheDir` it is a plain `req(file)`.
 */
export function loadBundle(file: string, req: (id: string) => unknown, cacheDir: string | undefined): LoadedBundle {
  if (!cacheDir) return { exports: req(file), cache: 'off', saveCache: () => undefined };
  const source = readFileSync(file, 'utf8');
  const key = createHash('sha256')
    .update(`${process.version}\0${process.arch}\0`)
    .update(source)
    .digest('hex')
    .slice(0, 24);
  const name = basename(file);
  const cacheFile = join(cacheDir, `${name}.${key}${SUFFIX}`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The wrapper of Node.js's CommonJS loader, on the bundle's first line so that line numbers stay the same.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const cache: CodeCacheUse = cachedData ? (script.cachedDataRejected ? 'rejected' : 'used') : 'none';
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: (id: string) => unknown,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {} as unknown };
  wrapper.call(module.exports, module.exports, req, module, file, dirname(file));
  let saved = cache === 'used';
  return {
    exports: module.exports,
    cache,
    saveCache: () => {
      if (saved) return;
      saved = true;
      try {
        const data = script.createCachedData();
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

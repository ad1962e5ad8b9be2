/**
 * Node.js's module compile cache (`module.enableCompileCache`, Node.js 22.1 and later): V8 keeps the code it compiled
 * for each CommonJS module on disk and reuses it the next time the same file is loaded, so the features bundle is
 * parsed and compiled once per version and machine instead of in every window. Node checks each cached entry against
 * the file's contents. The cache lives in the extension's global storage (`directory`), unless the extension host
 * already enabled one of its own, which is then used as it is. Node enables it for the whole process: modules loaded
 * after this (other extensions' too) are cached there as well. Extension hosts on older Node.js (VS Code before 1.101)
 * have no such function; the bundle then compiles as usual.
 *
 * Part of the activation bundle: imports only Node.js built-ins.
 */
import * as nodeModule from 'node:module';

interface CompileCacheApi {
  enableCompileCache?: (directory?: string) => { status: number; message?: string; directory?: string };
  constants?: { compileCacheStatus?: Record<string, number> };
}

/** Enables the compile cache when the runtime has one; says what happened, for the log. */
export function enableCompileCache(directory: string | undefined): string {
  const api = nodeModule as unknown as CompileCacheApi;
  if (typeof api.enableCompileCache !== 'function') return `unavailable in Node.js ${process.version}`;
  try {
    const result = api.enableCompileCache(directory);
    const names = Object.entries(api.constants?.compileCacheStatus ?? {});
    const status = names.find(([, value]) => value === result.status)?.[0] ?? String(result.status);
    return `${status.toLowerCase().replace(/_/g, ' ')}${result.directory ? ` (${result.directory})` : ''}${result.message ? `: ${result.message}` : ''}`;
  } catch (error) {
    return `failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

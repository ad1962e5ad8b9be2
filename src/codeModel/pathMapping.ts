/**
 * Deployed paths (where the code ran or was built: `/app/src/pay/charge.ts`, `C:\build\App\Charge.cs`,
 * `file:///srv/app/x.mjs`, `webpack:///./src/x.ts`) → workspace-relative paths.
 *
 * Explicit prefix mappings come first (`/app/` → `services/api/`); otherwise the workspace file sharing the longest
 * common path suffix with the deployed path wins (`/app/src/pay/charge.ts` → `src/pay/charge.ts`), at least the
 * file name. Among equal best suffixes, the one workspace path that is wholly the deployed path's end wins (the
 * workspace root deployed under `/app`); otherwise they are reported as ambiguous, never guessed. The answer is always one of the
 * workspace's files as listed (relative, without `..`), so a path never leads out of the workspace folder: a deployed
 * path whose `..` climbs above its root, or that is empty, huge or not a file location (`node:internal/…`,
 * `<frozen …>`), maps to nothing.
 */

export interface PrefixMapping {
  /** The deployed prefix (`/app`, `C:\build\App`, `file:///srv/app`). */
  from: string;
  /** The workspace-relative folder it stands for (`` for the workspace root, `services/api`). */
  to: string;
}

export type PathMatch =
  | {
      kind: 'mapped';
      path: string;
      via: 'prefix' | 'suffix';
      /** Path segments in common (suffix). */ segments: number;
    }
  | { kind: 'ambiguous'; candidates: string[]; segments: number }
  | { kind: 'none'; reason: string };

/** Longest deployed path read (longer ones map to nothing). */
export const MAX_PATH_CHARS = 4096;
/** Most ambiguous candidates reported. */
export const MAX_CANDIDATES = 10;

/** The workspace's files, by lower-cased file name (with their segments). */
export interface WorkspaceIndex {
  byName: Map<string, { path: string; segs: string[] }[]>;
  all: Set<string>;
}

/** An index of workspace-relative file paths (`/` separators); absolute paths and paths with `..` are left out. */
export function indexWorkspace(files: Iterable<string>): WorkspaceIndex {
  const byName = new Map<string, { path: string; segs: string[] }[]>();
  const all = new Set<string>();
  for (const raw of files) {
    const segs = raw.replace(/\\/g, '/').split('/');
    if (segs.some((s) => s === '..') || /^[a-zA-Z]:$/.test(segs[0] ?? '') || segs[0] === '') continue;
    const clean = segs.filter((s) => s !== '' && s !== '.');
    if (clean.length === 0) continue;
    const rel = clean.join('/');
    if (all.has(rel)) continue;
    all.add(rel);
    const name = (clean[clean.length - 1] as string).toLowerCase();
    const entry = { path: rel, segs: clean };
    const list = byName.get(name);
    if (list) list.push(entry);
    else byName.set(name, [entry]);
  }
  return { byName, all };
}

interface Segments {
  segs: string[];
  /** Windows paths compare without case. */
  caseless: boolean;
}

/** The path part of a URL (`file:`, `webpack:`, `http(s):`), undefined for other schemes (`node:`, `internal:`). */
function urlPath(text: string): string | undefined {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]+):(.*)$/.exec(text);
  if (!m) return text;
  const scheme = (m[1] as string).toLowerCase();
  let rest = m[2] as string;
  if (!['file', 'webpack', 'http', 'https', 'webpack-internal', 'app'].includes(scheme)) return undefined;
  if (rest.startsWith('//')) {
    rest = rest.slice(2);
    // file:///x and webpack:///./x have an empty host; http://host/x and webpack://name/x have one.
    const slash = rest.indexOf('/');
    rest = scheme === 'file' || slash === 0 ? rest : slash > 0 ? rest.slice(slash) : '';
  }
  rest = rest.replace(/[?#].*$/, '');
  try {
    rest = decodeURIComponent(rest);
  } catch {
    return undefined;
  }
  // file:///C:/x → C:/x
  return /^\/[a-zA-Z]:[\\/]/.test(rest) ? rest.slice(1) : rest;
}

/** The segments of a deployed path (`.` dropped, `..` resolved), undefined when it climbs above its root. */
export function deployedSegments(raw: string): Segments | undefined {
  const text = raw.trim();
  if (!text || text.length > MAX_PATH_CHARS || text.includes('\0')) return undefined;
  const isDrive = /^[a-zA-Z]:[\\/]/.test(text);
  const path = isDrive ? text : urlPath(text);
  if (path === undefined) return undefined;
  const caseless = isDrive || /^\\\\/.test(path) || (path.includes('\\') && !path.includes('/'));
  const parts = path.replace(/\\/g, '/').split('/');
  if (/^[a-zA-Z]:$/.test(parts[0] ?? '')) parts.shift();
  const segs: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (segs.length === 0) return undefined;
      segs.pop();
    } else segs.push(p);
  }
  if (segs.length === 0 || /^<.*>$/.test(segs[segs.length - 1] as string)) return undefined;
  return { segs, caseless };
}

function same(a: string, b: string, caseless: boolean): boolean {
  return caseless ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** Segments in common at the end of two paths. */
function commonSuffix(a: string[], b: string[], caseless: boolean): number {
  let n = 0;
  while (n < a.length && n < b.length && same(a[a.length - 1 - n] as string, b[b.length - 1 - n] as string, caseless)) {
    n++;
  }
  return n;
}

function byPrefix(d: Segments, prefixes: readonly PrefixMapping[], index: WorkspaceIndex): string | undefined {
  for (const p of prefixes) {
    const from = deployedSegments(p.from);
    if (!from || from.segs.length > d.segs.length) continue;
    const caseless = d.caseless || from.caseless;
    if (!from.segs.every((s, i) => same(s, d.segs[i] as string, caseless))) continue;
    const to = p.to
      .replace(/\\/g, '/')
      .split('/')
      .filter((s) => s !== '' && s !== '.');
    if (to.includes('..') || /^[a-zA-Z]:$/.test(to[0] ?? '')) continue;
    const candidate = [...to, ...d.segs.slice(from.segs.length)].join('/');
    if (index.all.has(candidate)) return candidate;
  }
  return undefined;
}

/** The `k` smallest paths in order, without sorting them all (a name may be shared by very many files). */
function firstSorted(entries: readonly { path: string }[], k: number): string[] {
  const out: string[] = [];
  for (const { path } of entries) {
    if (out.length === k && path >= (out[k - 1] as string)) continue;
    let i = out.length;
    while (i > 0 && (out[i - 1] as string) > path) i--;
    out.splice(i, 0, path);
    if (out.length > k) out.pop();
  }
  return out;
}

/** The workspace file a deployed path stands for. */
export function mapPath(deployed: string, index: WorkspaceIndex, prefixes: readonly PrefixMapping[] = []): PathMatch {
  const d = deployedSegments(deployed);
  if (!d) return { kind: 'none', reason: 'not a file path in the workspace' };
  const viaPrefix = byPrefix(d, prefixes, index);
  if (viaPrefix) return { kind: 'mapped', path: viaPrefix, via: 'prefix', segments: d.segs.length };
  const name = (d.segs[d.segs.length - 1] as string).toLowerCase();
  let best = 0;
  let winners: { path: string; segs: string[] }[] = [];
  for (const candidate of index.byName.get(name) ?? []) {
    const n = commonSuffix(d.segs, candidate.segs, d.caseless);
    if (n > best) {
      best = n;
      winners = [candidate];
    } else if (n === best && n > 0) winners.push(candidate);
  }
  if (best === 0) return { kind: 'none', reason: 'no workspace file has this name' };
  if (winners.length > 1) {
    // A workspace path that is wholly the deployed path's end (`src/pay/charge.ts` of `/app/src/pay/charge.ts`) is
    // the workspace root deployed under a folder; one that differs before its common part is another package.
    const whole = winners.filter((w) => w.segs.length === best);
    if (whole.length === 1) winners = whole;
    else return { kind: 'ambiguous', candidates: firstSorted(winners, MAX_CANDIDATES), segments: best };
  }
  return { kind: 'mapped', path: (winners[0] as { path: string }).path, via: 'suffix', segments: best };
}

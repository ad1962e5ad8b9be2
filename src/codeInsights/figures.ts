/** A file's figures on its definitions: each aggregate row matched to the function or method it names. */
import { matchDefinition, readCodeAttributes, type CodeFigures, type Definition } from '../codeModel';
import { compact, duration, errorRate, rangeLabel } from './format';

export interface LensFigures {
  definition: Definition;
  calls: number;
  errors: number;
  /** The highest p95 of the groups matched (one group in the common case). */
  p95Ms: number | null;
  groups: CodeFigures[];
  by: 'name' | 'container' | 'line';
}

/** The row's code location, read as the attributes it came from. */
export function locationOf(row: CodeFigures) {
  return readCodeAttributes({
    'code.function': row.function,
    'code.namespace': row.namespace,
    'code.filepath': row.file,
    ...(row.line > 0 ? { 'code.lineno': String(row.line) } : {}),
  });
}

/** The figures of each definition that spans name (rows naming no definition, or several, are left out). */
export function figuresOnDefinitions(rows: readonly CodeFigures[], defs: readonly Definition[]): LensFigures[] {
  const byDef = new Map<Definition, LensFigures>();
  for (const row of rows) {
    const loc = locationOf(row);
    if (!loc) continue;
    const m = matchDefinition(loc, defs);
    if (m.kind !== 'matched') continue;
    const kept = byDef.get(m.definition);
    if (kept) {
      kept.calls += row.calls;
      kept.errors += row.errors;
      kept.p95Ms = row.p95Ms === null ? kept.p95Ms : Math.max(kept.p95Ms ?? 0, row.p95Ms);
      kept.groups.push(row);
    } else {
      byDef.set(m.definition, {
        definition: m.definition,
        calls: row.calls,
        errors: row.errors,
        p95Ms: row.p95Ms,
        groups: [row],
        by: m.by,
      });
    }
  }
  return [...byDef.values()].sort((a, b) => a.definition.nameLine - b.definition.nameLine);
}

/** ClickHouse's `quantile` keeps a reservoir of this many values per group: exact up to it, a sample's above. */
export const QUANTILE_EXACT_UP_TO = 8192;

/**
 * Whether the p95 is an estimate: always on a sampled source (a t-digest weighted by the sample rate, as HyperDX
 * computes it), else when a group the figure comes from has more spans than `quantile` keeps.
 */
export function p95Approximate(f: Pick<LensFigures, 'groups'>, weighted: boolean): boolean {
  return weighted || f.groups.some((g) => g.calls > QUANTILE_EXACT_UP_TO);
}

/** `1.2k calls · 3.1% errors · p95 240 ms · 24 h` (`p95 (approx.) 240 ms` when the p95 is an estimate). */
export function lensTitle(f: Pick<LensFigures, 'calls' | 'errors' | 'p95Ms'>, range: string, approx = false): string {
  const p95 = approx ? 'p95 (approx.)' : 'p95';
  return `${compact(f.calls)} calls · ${errorRate(f.calls, f.errors)} errors · ${p95} ${duration(f.p95Ms)} · ${rangeLabel(range)}`;
}

/**
 * Three-way merge of a file with the service's version, for a pull into a folder that was edited since the last pull:
 * what changed on one side only is taken from that side; where both changed the same field differently, the file's
 * value stays and the field is reported as a conflict (the user sees both sides in a diff). Pure.
 */
import { isObject } from './refs';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface MergeResult {
  readonly value: unknown;
  /** Fields both sides changed differently (the file's value was kept). */
  readonly conflicts: readonly string[];
}

/** Merges `theirs` (the service's) into `mine` (the file), both changed since `base` (the last pull). */
export function merge3(base: unknown, mine: unknown, theirs: unknown, path = ''): MergeResult {
  if (same(mine, theirs)) return { value: mine, conflicts: [] };
  if (same(base, mine)) return { value: theirs, conflicts: [] };
  if (same(base, theirs)) return { value: mine, conflicts: [] };
  if (isObject(mine) && isObject(theirs)) {
    const b = isObject(base) ? base : {};
    const out: Record<string, unknown> = {};
    const conflicts: string[] = [];
    const keys = [...new Set([...Object.keys(mine), ...Object.keys(theirs)])];
    for (const key of keys) {
      const merged = merge3(b[key], mine[key], theirs[key], path === '' ? key : `${path}.${key}`);
      if (merged.value !== undefined) out[key] = merged.value;
      conflicts.push(...merged.conflicts);
    }
    return { value: out, conflicts };
  }
  return { value: mine, conflicts: [path === '' ? '(whole file)' : path] };
}

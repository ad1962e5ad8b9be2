/**
 * The server's rule for the pinned filters of a saved search written through the API: each new or changed filter
 * must render as exactly one facet in the search sidebar (a single `<col> IN (...)`, `<col> NOT IN (...)` or
 * `<col> BETWEEN <n> AND <n>`). A port of HyperDX `common-utils/src/filters.ts` isRenderablePinnedFilter (with the
 * parts of parseQuery, extractInClauses, filtersToQuery and countTopLevelAnd it relies on), applied as
 * `routers/external-api/v2/savedSearches.ts` applies it: on create every filter, on PUT only filters not already
 * stored unchanged ("grandfathered").
 */
import type { JsonObject } from './types';

function isQuoteBoundary(s: string, i: number): boolean {
  if (s[i] !== "'") return false;
  let backslashes = 0;
  for (let j = i - 1; j >= 0 && s[j] === '\\'; j--) backslashes++;
  return backslashes % 2 === 0;
}

/**
 * Walks `text` outside quoted strings ('' and \' escapes) and outside parentheses, calling `at(i)` at each such
 * position; `at` returns a number of characters to skip, or true to stop. Returns whether it stopped.
 */
function scanTopLevel(text: string, at: (i: number) => number | true | undefined): boolean {
  let inString = false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (isQuoteBoundary(text, i)) {
      if (inString && text[i + 1] === "'") {
        i += 1;
        continue;
      }
      inString = !inString;
      continue;
    }
    if (inString) continue;
    if (ch === '(') {
      depth++;
      continue;
    }
    if (ch === ')') {
      if (depth > 0) depth--;
      continue;
    }
    if (depth > 0) continue;
    const r = at(i);
    if (r === true) return true;
    if (typeof r === 'number') i += r;
  }
  return false;
}

const upperAt = (text: string, i: number, target: string): boolean =>
  text.slice(i, i + target.length).toUpperCase() === target;

function containsOutsideQuotes(text: string, targets: string[], chars = ''): boolean {
  return scanTopLevel(text, (i) =>
    chars.includes(text[i] ?? '\0') || targets.some((t) => upperAt(text, i, t)) ? true : undefined,
  );
}

function splitTopLevel(text: string, delimiter: string): string[] {
  const cuts: number[] = [];
  scanTopLevel(text, (i) => {
    if (!upperAt(text, i, delimiter)) return undefined;
    cuts.push(i);
    return delimiter.length - 1;
  });
  const parts: string[] = [];
  let from = 0;
  for (const c of cuts) {
    parts.push(text.slice(from, c));
    from = c + delimiter.length;
  }
  parts.push(text.slice(from));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

function splitOnFirst(text: string, delimiter: string): [string, string] | null {
  let found = -1;
  scanTopLevel(text, (i) => {
    if (!upperAt(text, i, delimiter)) return undefined;
    found = i;
    return true;
  });
  return found < 0 ? null : [text.slice(0, found), text.slice(found + delimiter.length)];
}

/** How many values a `(…)` list holds (commas outside quotes; empty items dropped). */
function countValues(list: string): number {
  let inString = false;
  let count = 0;
  let current = '';
  for (let i = 0; i < list.length; i++) {
    if (isQuoteBoundary(list, i)) {
      if (inString && list[i + 1] === "'") {
        current += "''";
        i += 1;
        continue;
      }
      inString = !inString;
      current += "'";
      continue;
    }
    if (!inString && list[i] === ',') {
      if (current.trim()) count++;
      current = '';
      continue;
    }
    current += list[i];
  }
  if (current.trim()) count++;
  return count;
}

interface FacetState {
  included: number;
  excluded: number;
  range: boolean;
}

/** parseQuery for one filter: the facets (by column key) the sidebar reads from it. */
function facets(condition: string): Map<string, FacetState> {
  const state = new Map<string, FacetState>();
  const get = (key: string): FacetState => {
    let s = state.get(key);
    if (!s) state.set(key, (s = { included: 0, excluded: 0, range: false }));
    return s;
  };
  if (containsOutsideQuotes(condition, [' BETWEEN '])) {
    const m = /^(.+?)\s+BETWEEN\s+(.+?)\s+AND\s+(.+?)$/i.exec(condition);
    if (m) {
      if (Number.isFinite(Number((m[2] ?? '').trim())) && Number.isFinite(Number((m[3] ?? '').trim()))) {
        get((m[1] ?? '').trim()).range = true;
      }
      return state;
    }
  }
  for (const part of splitTopLevel(condition, ' AND ')) {
    if (containsOutsideQuotes(part, [' OR '], '=<>')) continue;
    const exclude = containsOutsideQuotes(part, [' NOT IN ']);
    if (!exclude && !containsOutsideQuotes(part, [' IN '])) continue;
    const split = splitOnFirst(part, exclude ? ' NOT IN ' : ' IN ');
    if (!split) continue;
    const values = split[1].trim();
    const inner = values.startsWith('(') && values.endsWith(')') ? values.slice(1, -1) : values;
    const unwrapped = inner.replace(
      /(?:parseDateTime64BestEffort|parseDateTimeBestEffort|toDate32|toDate)\(('(?:[^']|'')*')(?:\s*,\s*\d+)?\)/g,
      '$1',
    );
    const s = get(split[0].trim());
    if (exclude) s.excluded += countValues(unwrapped);
    else s.included += countValues(unwrapped);
  }
  return state;
}

function countTopLevelAnd(condition: string): number {
  let count = 0;
  scanTopLevel(condition, (i) => {
    if (!upperAt(condition, i, ' AND ')) return undefined;
    count++;
    return 4;
  });
  return count;
}

/** isRenderablePinnedFilter. */
export function isRenderableFilter(filter: JsonObject): boolean {
  if (filter.type !== 'sql' || typeof filter.condition !== 'string') return false;
  const state = facets(filter.condition);
  const entries = [...state.entries()];
  if (entries.length !== 1) return false;
  const [key, s] = entries[0] as [string, FacetState];
  if (/\b(?:NOT|AND|OR)\b/i.test(key)) return false;
  const clauses = (s.included > 0 ? 1 : 0) + (s.excluded > 0 ? 1 : 0) + (s.range ? 1 : 0);
  if (clauses !== 1) return false;
  return countTopLevelAnd(filter.condition) === (s.range ? 1 : 0);
}

/** filterKey: a filter's identity, to recognise one stored unchanged. */
export function filterKey(f: JsonObject): string {
  return f.type === 'sql_ast'
    ? JSON.stringify(['sql_ast', f.operator, f.left, f.right])
    : JSON.stringify([f.type, f.condition]);
}

/** The index of the first filter that neither renders nor is grandfathered, or -1. */
export function firstNonRenderableFilter(
  filters: JsonObject[],
  grandfathered: ReadonlySet<string> = new Set(),
): number {
  return filters.findIndex((f) => !isRenderableFilter(f) && !grandfathered.has(filterKey(f)));
}

export const nonRenderableFilterMessage = (index: number): string =>
  `filters[${index}] must be a sidebar-renderable SQL predicate ` +
  `(e.g. "<column> IN ('<value>', ...)", "NOT IN (...)", or "BETWEEN <n> AND <n>"). ` +
  'Other shapes are only accepted on update when preserved unchanged from the stored saved search.';

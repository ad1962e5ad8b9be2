/**
 * The dashboard's search bar and filter selections as conditions on one tile, the way ClickStack's dashboard page
 * passes them: the saved search (`savedQuery`, Lucene unless `savedQueryLanguage` says "sql") applies to every
 * tile; the selected values of a filter (from `savedFilterValues`, or given) become
 * `toString(<expression>) IN ('v1', …)` on the tiles whose source the filter applies to (broadcasting filters
 * only; `appliesToSourceIds` empty or omitted = every source).
 */
import { sqlString } from './sql';

export interface DashboardFilterLike {
  name?: unknown;
  expression?: unknown;
  appliesToSourceIds?: unknown;
  isBroadcastEnabled?: unknown;
  isVariableEnabled?: unknown;
  variableName?: unknown;
}

export interface DashboardLike {
  filters?: readonly DashboardFilterLike[] | undefined;
  savedQuery?: string | null | undefined;
  savedQueryLanguage?: string | null | undefined;
  savedFilterValues?: readonly unknown[] | undefined;
}

/** A condition for a tile: SQL or Lucene text. */
export interface TileFilter {
  language: 'sql' | 'lucene';
  condition: string;
}

/** Selected values per filter expression: included and excluded sets. */
export interface FilterSelection {
  included: string[];
  excluded: string[];
}

/** Parses a list of SQL string literals `'a', 'b'` (returns undefined for anything else). */
function parseStringList(text: string): string[] | undefined {
  const values: string[] = [];
  const re = /\s*'((?:[^'\\]|\\.)*)'\s*(,|$)/y;
  let pos = 0;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) return undefined;
    values.push((m[1] as string).replace(/\\(.)/g, '$1'));
    pos = re.lastIndex;
    if (m[2] === '') break;
  }
  return pos >= text.trimEnd().length ? values : undefined;
}

/**
 * Reads the selections saved in `savedFilterValues` (SQL conditions `<expr> IN (…)` / `<expr> NOT IN (…)`).
 * Conditions of another form are returned in `unreadable`.
 */
export function readSavedSelections(saved: readonly unknown[] | undefined): {
  selections: Map<string, FilterSelection>;
  unreadable: string[];
} {
  const selections = new Map<string, FilterSelection>();
  const unreadable: string[] = [];
  for (const item of saved ?? []) {
    if (item === null || typeof item !== 'object') continue;
    const v = item as { type?: unknown; condition?: unknown };
    if (v.type === 'variable') continue;
    if (typeof v.condition !== 'string' || !v.condition.trim()) continue;
    const m = /^\s*(.+?)\s+(NOT\s+IN|IN)\s*\((.*)\)\s*$/is.exec(v.condition);
    const list = m ? parseStringList(m[3] as string) : undefined;
    if (!m || !list) {
      unreadable.push(v.condition);
      continue;
    }
    const expr = (m[1] as string).trim();
    const sel = selections.get(expr) ?? { included: [], excluded: [] };
    if (/^NOT/i.test(m[2] as string)) sel.excluded.push(...list);
    else sel.included.push(...list);
    selections.set(expr, sel);
  }
  return { selections, unreadable };
}

function broadcasts(filter: DashboardFilterLike): boolean {
  return filter.isBroadcastEnabled !== false;
}

function appliesTo(filter: DashboardFilterLike, sourceId: string | undefined): boolean {
  if (!broadcasts(filter)) return false;
  const ids = Array.isArray(filter.appliesToSourceIds) ? (filter.appliesToSourceIds as unknown[]) : [];
  if (ids.length === 0) return true;
  return sourceId !== undefined && ids.includes(sourceId);
}

/**
 * The conditions the dashboard puts on a tile whose source is `sourceId`. `selections` overrides the saved ones
 * (by filter expression). `notes` says what was left out and why.
 */
export function dashboardFiltersForTile(
  dashboard: DashboardLike | undefined,
  sourceId: string | undefined,
  selections?: ReadonlyMap<string, FilterSelection> | Readonly<Record<string, FilterSelection>>,
): { filters: TileFilter[]; notes: string[] } {
  const notes: string[] = [];
  const filters: TileFilter[] = [];
  if (!dashboard) return { filters, notes };
  if (typeof dashboard.savedQuery === 'string' && dashboard.savedQuery.trim()) {
    filters.push({
      language: dashboard.savedQueryLanguage === 'sql' ? 'sql' : 'lucene',
      condition: dashboard.savedQuery,
    });
  }
  const saved = readSavedSelections(dashboard.savedFilterValues);
  for (const text of saved.unreadable) {
    notes.push(`saved filter condition not applied (not of the form "<expression> IN (…)"): ${text}`);
  }
  const chosen = new Map<string, FilterSelection>(saved.selections);
  if (selections) {
    const entries = selections instanceof Map ? [...selections.entries()] : Object.entries(selections);
    for (const [expr, sel] of entries) chosen.set(expr, sel);
  }
  const defs = (dashboard.filters ?? []).filter((f) => typeof f.expression === 'string');
  for (const [expr, sel] of chosen) {
    const matching = defs.filter((f) => f.expression === expr);
    if (matching.length === 0) {
      notes.push(`selection for "${expr}" ignored: no filter of this dashboard has that expression`);
      continue;
    }
    if (!matching.some((f) => appliesTo(f, sourceId))) continue;
    if (sel.included.length > 0) {
      filters.push({ language: 'sql', condition: `toString(${expr}) IN (${sel.included.map(sqlString).join(', ')})` });
    }
    if (sel.excluded.length > 0) {
      filters.push({
        language: 'sql',
        condition: `toString(${expr}) NOT IN (${sel.excluded.map(sqlString).join(', ')})`,
      });
    }
  }
  return { filters, notes };
}

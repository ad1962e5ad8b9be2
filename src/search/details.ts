/**
 * A row's details (no `vscode`): every column, and each key of a map column (resource, log and span attributes) as a
 * field of its own, values cut and sanitised; and the condition "add to search" appends for a field and value, in the
 * search's language, negated too.
 */
import { sqlString } from '../render/sql';
import { boundedText, DETAIL_CHARS, MAP_KEYS } from './model';

export interface DetailField {
  /** The column, or the map column with its key (`LogAttributes['http.method']`). */
  name: string;
  column: string;
  key?: string | undefined;
  value: string;
  /** Map keys left out of this map (beyond MAP_KEYS). */
  more?: number | undefined;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields of one row: columns in order, a map's keys (at most MAP_KEYS, sorted) after their column. */
export function rowDetails(columns: readonly string[], row: readonly unknown[]): DetailField[] {
  const out: DetailField[] = [];
  columns.forEach((column, i) => {
    const v = row[i];
    if (!isMap(v)) {
      out.push({ name: boundedText(column, 200), column, value: boundedText(v, DETAIL_CHARS) });
      return;
    }
    const keys = Object.keys(v);
    const shown = keys.length > MAP_KEYS ? keys.slice(0, MAP_KEYS) : keys;
    shown.sort();
    for (const key of shown) {
      out.push({
        name: boundedText(`${column}['${key}']`, 300),
        column,
        key,
        value: boundedText(v[key], DETAIL_CHARS),
      });
    }
    if (keys.length > MAP_KEYS) {
      out.push({ name: boundedText(column, 200), column, value: '', more: keys.length - MAP_KEYS });
    }
  });
  return out;
}

/** Lucene quoting of a value: a phrase in double quotes, backslashes and quotes escaped. */
function luceneValue(v: string): string {
  return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The condition matching a field's value (`field:"value"` in Lucene, `field = 'value'` in SQL), or its negation. */
export function fieldCondition(
  field: { column: string; key?: string | undefined },
  value: string,
  language: 'lucene' | 'sql',
  negate: boolean,
): string {
  if (language === 'lucene') {
    const name = field.key === undefined ? field.column : `${field.column}.${field.key}`;
    return `${negate ? '-' : ''}${name}:${luceneValue(value)}`;
  }
  const name = field.key === undefined ? field.column : `${field.column}[${sqlString(field.key)}]`;
  return `${name} ${negate ? '!=' : '='} ${sqlString(value)}`;
}

/** A condition with one more term ANDed on. */
export function appendCondition(condition: string, term: string, language: 'lucene' | 'sql'): string {
  const c = condition.trim();
  if (c === '') return term;
  return language === 'lucene' ? `(${c}) ${term}` : `(${c}) AND ${term}`;
}

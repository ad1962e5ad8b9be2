/**
 * The words completion offers in the condition (no `vscode`, no DOM: the page and the extension both use it): the
 * table's columns, its map keys as the condition's language writes them (`LogAttributes.http.method` in Lucene,
 * `LogAttributes['http.method']` in SQL), and a field's value as a condition (`field:"value"`, `field = 'value'`).
 */
import { sqlString } from '../api/query/sqlText';

/** Map keys Lucene can name as they are (anything else is offered in SQL only). */
const LUCENE_KEY = /^[A-Za-z0-9_][\w.\-/@]*$/;

/** The fields offered: columns first, then map keys, in the language's form. */
export function fieldNames(
  columns: readonly string[],
  keys: readonly (readonly [string, string])[],
  language: 'lucene' | 'sql',
): string[] {
  const out = [...columns];
  for (const [column, key] of keys) {
    if (language === 'sql') out.push(`${column}[${sqlString(key)}]`);
    else if (LUCENE_KEY.test(key)) out.push(`${column}.${key}`);
  }
  return out;
}

/** The condition `field` equals `value`, as the language writes it. */
export function valueCondition(field: string, value: string, language: 'lucene' | 'sql'): string {
  if (language === 'sql') return `${field} = ${sqlString(value)}`;
  return `${field}:"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The field whose value is being typed at the end of the condition: `field:` or `field:"par` (Lucene),
 * `field = ` or `field = 'par` (SQL); with the condition before the value.
 */
export function valueContext(
  text: string,
  language: 'lucene' | 'sql',
): { head: string; field: string; partial: string } | undefined {
  const m =
    language === 'sql'
      ? /^(.*?)([A-Za-z_][\w.]*(?:\['(?:[^'\\]|\\.)*'\])?)\s*=\s*'?([^']*)$/s.exec(text)
      : /^(.*?)([A-Za-z_][\w.\-/@]*):"?([^":\s()]*)$/s.exec(text);
  if (!m) return undefined;
  return { head: m[1]!, field: m[2]!, partial: m[3]! };
}

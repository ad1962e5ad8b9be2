/**
 * Completion of the search condition from the recent data (no `vscode`): the keys of the table's map columns
 * (`LogAttributes.http.method` in Lucene, `LogAttributes['http.method']` in SQL) and the values of a field, each read
 * by one bounded statement over the newest rows of the search's range (10,000 rows read, the answer capped).
 */
import { sqlIdentifier, sqlString } from '../render/sql';
import { rendered, type SearchRequest } from './request';
import { boundedText } from './text';

/** Rows read for completion, keys and values answered at most. */
export const COMPLETION_ROWS = 10_000;
export const MAX_KEYS = 2000;
export const MAX_VALUES = 100;

/** The map columns of a table (`Map(…)` types), in column order. */
export function mapColumns(columns: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(columns ?? {})
    .filter(([, type]) => /^(LowCardinality\()?Map\(/.test(type))
    .map(([name]) => name);
}

/** The newest rows of the search's range (no condition), with the given columns. */
function recentRows(req: SearchRequest, select: string): string {
  return rendered({ ...req, condition: '', language: 'sql', select, orderBy: undefined, limit: COMPLETION_ROWS }).rows
    .sql;
}

/** The statement of the map keys in the recent data ([column, key] rows), or undefined when the table has no map. */
export function mapKeysSql(req: SearchRequest): string | undefined {
  const maps = mapColumns(req.columns);
  if (maps.length === 0) return undefined;
  const select = maps.map((m, i) => `${sqlIdentifier(m)} AS __m${i}`).join(', ');
  const pairs = maps.map((m, i) => `arrayMap(__key -> tuple(${sqlString(m)}, __key), mapKeys(__m${i}))`).join(', ');
  return (
    `SELECT DISTINCT tupleElement(p, 1) AS c, tupleElement(p, 2) AS k FROM (${recentRows(req, select)}) ` +
    `ARRAY JOIN arrayConcat(${pairs}) AS p ORDER BY c, k LIMIT ${MAX_KEYS}`
  );
}

export function mapKeysOf(rows: readonly (readonly unknown[])[]): [string, string][] {
  return rows
    .filter((r) => typeof r[0] === 'string' && plain(r[1]) && r[1] !== '')
    .map((r) => [String(r[0]), String(r[1])]);
}

/**
 * The column and map key a field of the condition names, when it names one of the table: a column (`ServiceName`),
 * a map key in Lucene (`LogAttributes.http.method`) or in SQL (`LogAttributes['http.method']`).
 */
export function fieldTarget(
  field: string,
  columns: Readonly<Record<string, string>> | undefined,
): { column: string; key?: string } | undefined {
  const cols = columns ?? {};
  if (Object.hasOwn(cols, field)) return { column: field };
  const sql = /^([A-Za-z_][A-Za-z0-9_]*)\['((?:[^'\\]|\\.)*)'\]$/.exec(field);
  if (sql && mapColumns(cols).includes(sql[1]!)) return { column: sql[1]!, key: sql[2]!.replace(/\\(.)/g, '$1') };
  const map = mapColumns(cols).find((m) => field.startsWith(`${m}.`) && field.length > m.length + 1);
  return map ? { column: map, key: field.slice(map.length + 1) } : undefined;
}

/** The statement of a field's most frequent values in the recent data ([value, count] rows). */
export function fieldValuesSql(req: SearchRequest, target: { column: string; key?: string }): string {
  const col = sqlIdentifier(target.column);
  const expr = target.key === undefined ? col : `${col}[${sqlString(target.key)}]`;
  return (
    `SELECT toString(__v) AS v, count() AS n FROM (${recentRows(req, `${expr} AS __v`)}) ` +
    `WHERE v != '' GROUP BY v ORDER BY n DESC, v LIMIT ${MAX_VALUES}`
  );
}

export function valuesOf(rows: readonly (readonly unknown[])[]): string[] {
  return rows.filter((r) => plain(r[0])).map((r) => String(r[0]));
}

/** Text offered as it is: short, without control characters (anything else would be offered cut or changed). */
function plain(v: unknown): v is string {
  return typeof v === 'string' && boundedText(v, 200) === v && !/[\n\t]/.test(v);
}

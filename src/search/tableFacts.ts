/**
 * What the search reads of a source's table besides its rows (no `vscode`): column types and sorting key, and every
 * column of a row shown in the list.
 */
import type { QueryResult } from '../api/query';
import { columnsByTable, columnsOfTablesSql, sortingKeySql, tableKey, tableOfSource, type SourceLike } from '../render';
import { sqlString } from '../render/sql';

/** Column types of the source's table and its sorting key (both optional: the search runs without them). */
export async function tableFacts(
  run: (sql: string) => Promise<QueryResult>,
  source: SourceLike,
): Promise<{ columns?: Record<string, string>; sortingKey?: string }> {
  const table = tableOfSource(source);
  if (!table) return {};
  const out: { columns?: Record<string, string>; sortingKey?: string } = {};
  try {
    const cols = columnsByTable([table], (await run(columnsOfTablesSql([table]))).rows).get(tableKey(table));
    if (cols) out.columns = cols;
  } catch {
    // Lucene fields then map by name only.
  }
  const keySql = sortingKeySql(source);
  if (keySql) {
    try {
      const key = (await run(keySql)).rows[0]?.[0];
      if (typeof key === 'string') out.sortingKey = key;
    } catch {
      // The default order then reads the timestamp columns only.
    }
  }
  return out;
}

/** Values longer than this are left out of the statement that finds a row again (the others find it). */
const MATCH_CHARS = 1000;

/**
 * Every column of a row shown in the list (`SELECT *`), found again by the values of its plain columns (a timestamp,
 * service, severity, body…), as the search page reads a row's details. Undefined when it cannot be found that way.
 */
export async function fullRow(
  run: (sql: string) => Promise<QueryResult>,
  source: SourceLike,
  columns: readonly string[],
  row: readonly unknown[],
): Promise<{ columns: string[]; row: unknown[] } | undefined> {
  const table = tableOfSource(source);
  if (!table) return undefined;
  const conds: string[] = [];
  columns.forEach((c, i) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(c)) return;
    const v = row[i];
    if (typeof v === 'string' && v.length <= MATCH_CHARS) conds.push(`${c} = ${sqlString(v)}`);
    else if (typeof v === 'number' && Number.isFinite(v)) conds.push(`${c} = ${v}`);
  });
  if (conds.length === 0) return undefined;
  const result = await run(`SELECT * FROM ${tableKey(table)} WHERE ${conds.join(' AND ')} LIMIT 1`);
  const first = result.rows[0];
  return first ? { columns: result.columns.map((c) => c.name), row: first as unknown[] } : undefined;
}

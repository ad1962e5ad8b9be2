/**
 * Tile → ClickHouse SQL, the way ClickStack renders it (pure: no `vscode`, no network).
 *
 *   renderTile(tile, { range: { from, to }, granularity?: 'auto' | '1 minute' | …, source, columns?, dashboard?,
 *                      filterSelections?, searchLimit? })
 *     → { ok: true, sql, shape, columns: { time?, values, groups }, granularity?, markdown?, notes }
 *     | { ok: false, reason, notes }
 *
 * - `tile`: a dashboard tile (document or response); `source`: the tile's source response (`from`,
 *   `timestampValueExpression`, `implicitColumnExpression`/`bodyExpression`, `tableFilterExpression`, …);
 *   `columns`: the source table's column types (run `describeSourceSql(source)` and pass `columnsFromDescribe(rows)`)
 *   so Lucene fields map to columns as ClickStack maps them (`LogAttributes.k` → `LogAttributes['k']`); without it
 *   the default OpenTelemetry map columns are assumed.
 * - `shape`: 'timeseries' (line, stacked bar), 'number', 'table', 'categories' (pie, bar), 'search' (log lines),
 *   'markdown' (no SQL; `markdown` holds the text).
 * - `columns`: positions of the time bucket, value and group columns in each result row (builder tiles). Raw SQL
 *   tiles report none: as ClickStack, take the first Date/DateTime column of the result as time, numeric columns
 *   as values and the rest as groups.
 * - A tile that cannot be rendered yet answers `ok: false` with the exact part ("formulas are not previewed yet",
 *   "tiles on metric sources are not previewed yet", a Lucene syntax error…). It never renders different numbers.
 * - `notes`: what was left out (an unreadable saved filter, the previous-period comparison, a category limit).
 *
 * `sql` runs as it stands on the service's query endpoint (query parameters are written in as numbers).
 */
export { renderTile, renderWindowedQuery } from './tile';
export type {
  RenderResult,
  RenderOptions,
  ResultColumns,
  SourceLike,
  TileLike,
  TileShape,
  TimeRange,
  SavedSearchLike,
} from './tile';
export { luceneToSql, LuceneError } from './lucene';
export type { LuceneContext } from './lucene';
export { dashboardFiltersForTile, readSavedSelections } from './filters';
export type { DashboardLike, FilterSelection, TileFilter } from './filters';
export { expandMacros, bindParams, MacroError } from './macros';
export { autoGranularity, granularityFromSeconds, parseGranularity, sqlString, tableRef } from './sql';
export type { Granularity } from './sql';

import { sqlString, tableRef } from './sql';

/** `DESCRIBE TABLE` of the source's table (run it on the query endpoint; feed the rows to `columnsFromDescribe`). */
export function describeSourceSql(source: {
  from?: { databaseName?: string | null; tableName?: string | null } | undefined;
}): string | undefined {
  const table = source.from?.tableName;
  return table ? `DESCRIBE TABLE ${tableRef(source.from?.databaseName, table)}` : undefined;
}

/** Column types by name from DESCRIBE rows ({ name, type, … }). */
export function columnsFromDescribe(rows: readonly { name?: unknown; type?: unknown }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of rows) if (typeof row.name === 'string' && typeof row.type === 'string') out[row.name] = row.type;
  return out;
}

/** A source's table, as `columnsOfTablesSql` names it (an empty database is the query's current database). */
export interface TableName {
  database?: string | null | undefined;
  table: string;
}

/** The table a source reads (undefined when it names none). */
export function tableOfSource(source: {
  from?: { databaseName?: string | null; tableName?: string | null } | undefined;
}): TableName | undefined {
  const table = source.from?.tableName;
  return table ? { database: source.from?.databaseName || undefined, table } : undefined;
}

/** `db`.`table` of a table name: the key its column types are kept under. */
export function tableKey(t: TableName): string {
  return tableRef(t.database, t.table);
}

/**
 * One statement for the column types of several tables (the same names and type strings `DESCRIBE TABLE` gives):
 * `system.columns` rows of each table, in column order. A table that does not exist has no rows.
 */
export function columnsOfTablesSql(tables: readonly TableName[]): string {
  const conds = tables.map(
    (t) => `(database = ${t.database ? sqlString(t.database) : 'currentDatabase()'} AND table = ${sqlString(t.table)})`,
  );
  return (
    `SELECT database, table, name, type, database = currentDatabase() AS current FROM system.columns ` +
    `WHERE ${conds.join(' OR ')} ORDER BY database, table, position`
  );
}

/**
 * Column types by table key out of `columnsOfTablesSql` rows ([database, table, name, type, current]). A table
 * without rows (it does not exist, or the key may not see it) is absent.
 */
export function columnsByTable(
  tables: readonly TableName[],
  rows: readonly (readonly unknown[])[],
): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const t of tables) {
    const key = tableKey(t);
    const cols: Record<string, string> = {};
    let found = false;
    for (const [db, table, name, type, current] of rows) {
      if (table !== t.table || typeof name !== 'string' || typeof type !== 'string') continue;
      // A table named without its database is the current database's (as DESCRIBE reads it).
      if (t.database ? db !== t.database : !(current === 1 || current === true || current === '1')) continue;
      cols[name] = type;
      found = true;
    }
    if (found) out.set(key, cols);
  }
  return out;
}

export { renderSearch, defaultSearchOrder, histogramGroupBy, sortingKeySql } from './search';
export type { SearchInput, SearchResult, SearchStatements } from './search';
export { renderTraceSpans, renderTraceLogs, TRACE_ID, TRACE_MAX_SPANS, TRACE_MAX_LOGS } from './trace';
export { spansFromRows, logsFromRows, cleanText } from './traceRows';
export type { TraceSpan, TraceLogLine, TraceStatement } from './trace';
export { buildTraceTree, spanFailed } from './traceTree';
export { traceTreeText, errorText } from './traceText';
export type { TraceRow, TraceTree } from './traceTree';
export { readTrace, logSourceOfTrace } from './traceRead';
export type { TraceModel, TraceReadRun } from './traceRead';

/**
 * A log or trace search's two statements, as ClickStack's search page builds them (pure: no `vscode`, no network):
 *
 * - rows: the source's `defaultTableSelectExpression` columns (or the ones given), the condition, the range with
 *   both ends included, newest first (the source's `orderByExpression`, else its timestamp columns descending, as
 *   the search page's default order), the first `limit` rows;
 * - histogram: `count()` per time bucket (automatic size of at most 80 buckets over the exact range, not aligned to
 *   bucket boundaries, end included, so the counts add up to the rows the search finds), stacked by severity for logs
 *   and status code for spans.
 *
 * Both read the condition through the same translation as the previews (`luceneToSql`), and apply the source's
 * table filter as the search page does.
 */
import { splitTopLevel, sqlString, type Granularity } from './sql';
import {
  renderSearchHistogram,
  renderTile,
  type RenderResult,
  type ResultColumns,
  type SourceLike,
  type TimeRange,
} from './tile';

export interface SearchInput {
  /** A log or trace source (a source response). */
  source: SourceLike;
  /** The search condition: Lucene or SQL ('' for every row). */
  condition: string;
  language: 'lucene' | 'sql';
  range: TimeRange;
  /** Column types of the source table (DESCRIBE), for Lucene field mapping. */
  columns?: Readonly<Record<string, string>> | undefined;
  /** Columns shown (default: the source's `defaultTableSelectExpression`). */
  select?: string | undefined;
  /** Row order (default: the source's `orderByExpression`, else its timestamp columns, newest first). */
  orderBy?: string | undefined;
  /** Rows fetched (default 200, the search page's first page). */
  limit?: number | undefined;
  /** The table's sorting key (system.tables `sorting_key`), which adds its time columns to the default order. */
  sortingKey?: string | undefined;
}

export interface SearchStatements {
  ok: true;
  rows: { sql: string; columns: string[] };
  histogram: {
    sql: string;
    granularity: Granularity;
    /** The range the buckets cover (the one asked, both ends included). */
    range: { from: number; to: number };
    /** Positions of the bucket, the count and the stacking column (when the source names one) in each row. */
    columns: ResultColumns;
    /** The expression the bars are stacked by: severity (logs) or status code (spans). */
    groupBy?: string;
  };
  notes: string[];
}

export type SearchResult = SearchStatements | { ok: false; reason: string; notes: string[] };

/** Expressions the search page's default order keeps from the sorting key: time columns and functions of time. */
const TIME_PREFIXES = ['toStartOf', 'toUnixTimestamp', 'toDateTime', 'Timestamp'];

function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The search page's default order of a source (HyperDX `useDefaultOrderBy`). */
export function defaultSearchOrder(source: SourceLike, sortingKey?: string): string | undefined {
  const explicit = text(source.orderByExpression);
  if (explicit) return explicit;
  const tveParts = splitTopLevel(text(source.timestampValueExpression) ?? '');
  const displayed = text(source.displayedTimestampValueExpression);
  const keys = [...splitTopLevel(sortingKey ?? ''), ...tveParts, ...(displayed ? [displayed] : [])];
  const order: string[] = [];
  for (const key of keys) {
    if (order.includes(key)) continue;
    if (TIME_PREFIXES.some((p) => key.startsWith(p)) || tveParts.includes(key) || displayed === key) order.push(key);
  }
  if (order.length === 0) return undefined;
  return order.length > 1 ? `(${order.join(', ')}) DESC` : `${order[0]} DESC`;
}

/** The statement giving a source table's sorting key (`sorting_key` of its one row), for `SearchInput.sortingKey`. */
export function sortingKeySql(source: SourceLike): string | undefined {
  const table = text(source.from?.tableName);
  if (!table) return undefined;
  const db = text(source.from?.databaseName);
  return `SELECT sorting_key FROM system.tables WHERE database = ${db ? sqlString(db) : 'currentDatabase()'} AND name = ${sqlString(table)}`;
}

/** The expression the histogram's bars are stacked by. */
export function histogramGroupBy(source: SourceLike): string | undefined {
  if (source.kind === 'log') return text(source.severityTextExpression);
  if (source.kind === 'trace') return text(source.statusCodeExpression);
  return undefined;
}

function failed(r: RenderResult): { ok: false; reason: string; notes: string[] } | undefined {
  return r.ok ? undefined : { ok: false, reason: r.reason, notes: r.notes };
}

/** The rows and histogram statements of a search; `ok: false` names what cannot be searched (a Lucene error…). */
export function renderSearch(input: SearchInput): SearchResult {
  const { source } = input;
  if (source.kind !== 'log' && source.kind !== 'trace') {
    return {
      ok: false,
      reason: `only log and trace sources are searched (this one is "${String(source.kind)}")`,
      notes: [],
    };
  }
  const base = {
    range: input.range,
    source,
    columns: input.columns,
    sourceTableFilter: true,
  };
  const where = { where: input.condition, whereLanguage: input.language };
  const select = text(input.select) ?? text(source.defaultTableSelectExpression);
  const rows = renderTile(
    { config: { displayType: 'search', select, ...where } },
    {
      ...base,
      searchLimit: input.limit ?? 200,
      searchOrderBy: text(input.orderBy) ?? defaultSearchOrder(source, input.sortingKey),
    },
  );
  const rowsFailed = failed(rows);
  if (rowsFailed) return rowsFailed;
  const groupBy = histogramGroupBy(source);
  const histogram = renderSearchHistogram(base, { where: input.condition, whereLanguage: input.language, groupBy });
  const histogramFailed = failed(histogram);
  if (histogramFailed) return histogramFailed;
  if (!rows.ok || !histogram.ok || !histogram.granularity || !histogram.range) {
    return { ok: false, reason: 'the search could not be rendered', notes: [] };
  }
  return {
    ok: true,
    rows: { sql: rows.sql, columns: rows.columns.groups.map((g) => g.label) },
    histogram: {
      sql: histogram.sql,
      granularity: histogram.granularity,
      range: histogram.range,
      columns: histogram.columns,
      ...(groupBy ? { groupBy } : {}),
    },
    notes: [...rows.notes, ...histogram.notes],
  };
}

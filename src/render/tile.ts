/**
 * A tile's query as ClickHouse SQL, rendered the way ClickStack's `renderChartConfig` does for event (log and
 * trace) sources: SELECT <series>[, <group by>][, <time bucket>] FROM <db>.<table> WHERE <time range> AND
 * <where> AND <series conditions> AND <dashboard filters> GROUP BY … ORDER BY … (plus the series-limit CTE).
 * Whitespace is normalised; index-only rewrites ClickStack makes from table metadata (materialized columns,
 * text indexes) are left out: they do not change the rows or the numbers.
 */
import { dashboardFiltersForTile, type DashboardLike, type FilterSelection, type TileFilter } from './filters';
import { LuceneError, luceneToSql } from './lucene';
import { bindParams, expandMacros, MacroError } from './macros';
import {
  alignedRange,
  autoGranularity,
  parseGranularity,
  RENDER_MAX_BUCKETS,
  splitTopLevel,
  sqlString,
  tableRef,
  TIME_CHART_MAX_BUCKETS,
  type Granularity,
} from './sql';
import {
  boundsSelect,
  boundsWith,
  heatmapScale,
  HEATMAP_MAX_TIME_BUCKETS,
  HEATMAP_VALUE_BUCKETS,
  isAggregateExpression,
  valueBucketSql,
  HEATMAP_HI,
  HEATMAP_LO,
  type HeatmapScale,
} from './heatmap';

export type TileShape =
  'timeseries' | 'number' | 'table' | 'categories' | 'search' | 'markdown' | 'heatmap' | 'patterns';

/** Where each part of a result row is: column positions (0-based) and labels. */
export interface ResultColumns {
  /** The time bucket column (time series only). */
  time?: { index: number; name: string } | undefined;
  /** Value columns, in series order. */
  values: { index: number; label: string }[];
  /** Group-by columns. */
  groups: { index: number; label: string }[];
  /** The alert evaluation window a row belongs to (backtest queries with an offset or start time). */
  window?: { index: number; name: string } | undefined;
}

export type RenderResult =
  | {
      ok: true;
      sql: string;
      shape: TileShape;
      columns: ResultColumns;
      /** Bucket size of a time series. */
      granularity?: Granularity | undefined;
      /**
       * The range the query reads (a time series: the picked range aligned to its buckets, end excluded, as a
       * dashboard's time chart reads it).
       */
      range?: { from: number; to: number } | undefined;
      /** The markdown of a markdown tile (no SQL). */
      markdown?: string | undefined;
      /** A heatmap: its scale and where the value bounds are in each row. */
      heatmap?: HeatmapColumns | undefined;
      /** An event pattern tile: whether its rows carry a level (column 3). */
      patterns?: PatternColumns | undefined;
      /** What the preview left out or assumed (e.g. an ignored saved filter). */
      notes: string[];
    }
  | { ok: false; reason: string; notes: string[] };

/** Where a heatmap's value bounds are in its rows (counts are the value column, `x_bucket` the group). */
export interface HeatmapColumns {
  scale: HeatmapScale;
  /** Value buckets between the bounds (80). */
  buckets: number;
  lo: number;
  hi: number;
}

/**
 * Where an event pattern tile's sample rows hold their parts: 0 the pattern column's text, 1 the first timestamp,
 * 2 the total count (the same in every row), 3 the severity or status code when the source has one.
 */
export interface PatternColumns {
  level: boolean;
  /** Rows sampled (HyperDX's 10,000). */
  samples: number;
}

/** Rows HyperDX's pattern table mines. */
export const PATTERN_SAMPLES = 10_000;

/** The source fields the renderer reads (a source response carries them; unknown ones are ignored). */
export interface SourceLike {
  id?: string | undefined;
  kind?: string | undefined;
  from?: { databaseName?: string | null | undefined; tableName?: string | null | undefined } | undefined;
  timestampValueExpression?: string | null | undefined;
  implicitColumnExpression?: string | null | undefined;
  bodyExpression?: string | null | undefined;
  tableFilterExpression?: string | null | undefined;
  sampleRateExpression?: string | null | undefined;
  defaultTableSelectExpression?: string | null | undefined;
  [key: string]: unknown;
}

export interface TimeRange {
  /** Start (inclusive), epoch milliseconds or Date. */
  from: number | Date;
  /** End, epoch milliseconds or Date. */
  to: number | Date;
}

export interface RenderOptions {
  range: TimeRange;
  /** "auto" (default: ClickStack's choice from the range), or "1 minute", "15 second", "1 hour", "1 day"… */
  granularity?: string | undefined;
  /** The tile's source; required except for markdown and raw SQL tiles without `$__sourceTable`/`$__filters`. */
  source?: SourceLike | undefined;
  /** Column types of the source table (DESCRIBE), for Lucene field mapping. */
  columns?: Readonly<Record<string, string>> | undefined;
  /** The dashboard (filters, saved search and saved filter values). */
  dashboard?: DashboardLike | undefined;
  /** Filter selections by filter expression; override the dashboard's saved ones. */
  filterSelections?: ReadonlyMap<string, FilterSelection> | Readonly<Record<string, FilterSelection>> | undefined;
  /**
   * Include the end of the range (number, table and pie tiles do; time charts and alert windows do not). Default
   * true; time series set it from the tile (aligned: excluded).
   */
  endInclusive?: boolean | undefined;
  /** Rows of a search tile (default 200). */
  searchLimit?: number | undefined;
  /** Order of a search tile's rows (default: the first timestamp column, newest first). */
  searchOrderBy?: string | undefined;
  /** Apply the source's table filter (`tableFilterExpression`), as ClickStack's search page does. */
  sourceTableFilter?: boolean | undefined;
  /** Rows of a table tile (default 200, as ClickStack's first page). */
  tableLimit?: number | undefined;
}

/** The tile fields the renderer reads: a tile of a dashboard document or response. */
export interface TileLike {
  id?: string | undefined;
  name?: string | undefined;
  config?: Record<string, unknown> | undefined;
  series?: unknown;
}

class Unsupported extends Error {}

const TIME_BUCKET = '__hdx_time_bucket';
const WINDOW = '__backtest_window';

function ms(t: number | Date): number {
  return typeof t === 'number' ? t : t.getTime();
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function nonEmpty(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '';
}

interface SelectItem {
  aggFn?: string;
  valueExpression?: string;
  alias?: string;
  level?: number;
  where?: string;
  whereLanguage?: string;
  metricName?: string;
  countExpression?: string;
}

/** The aggregate expression of one series (ClickStack's `aggFnExpr` without sample weights). */
export function aggregateSql(item: SelectItem, condition: string): string {
  const fn = item.aggFn ?? 'none';
  const expr = item.valueExpression ?? '';
  const hasWhere = condition.trim() !== '';
  const numeric = fn === 'any' || fn === 'none' ? expr : `toFloat64OrDefault(toString(${expr}))`;
  const whereNotNull = `${condition} AND ${numeric} IS NOT NULL`;
  if (fn === 'count') return hasWhere ? `countIf(${condition})` : 'count()';
  if (fn === 'none') return expr;
  if (!expr.trim()) throw new Unsupported(`the series "${fn}" has no value expression`);
  if (fn === 'count_distinct') return hasWhere ? `countIf(DISTINCT ${expr}, ${condition})` : `count(DISTINCT ${expr})`;
  if (fn === 'quantile') {
    const level = typeof item.level === 'number' && Number.isFinite(item.level) ? String(item.level) : '0';
    return hasWhere ? `quantileIf(${level})(${numeric}, ${whereNotNull})` : `quantile(${level})(${numeric})`;
  }
  if (!/^[a-z_]+$/.test(fn)) throw new Unsupported(`the aggregation "${fn}" is not previewed yet`);
  return hasWhere ? `${fn}If(${numeric}, ${whereNotNull})` : `${fn}(${numeric})`;
}

interface Ctx {
  opts: RenderOptions;
  source: SourceLike;
  notes: string[];
}

function condition(ctx: Ctx, text: string, language: string | undefined, what: string): string {
  if (!text.trim()) return '';
  if (language === 'sql') return text;
  try {
    return luceneToSql(text, {
      columns: ctx.opts.columns,
      implicitColumnExpression: str(ctx.source.implicitColumnExpression) || str(ctx.source.bodyExpression),
    });
  } catch (e) {
    if (e instanceof LuceneError) throw new Unsupported(`${what}: ${e.message}`);
    throw e;
  }
}

function timeFilter(ctx: Ctx, fromMs: number, toMs: number): string {
  const tve = str(ctx.source.timestampValueExpression);
  if (!tve) throw new Unsupported('the source has no timestamp expression');
  const endOp = ctx.opts.endInclusive === false ? '<' : '<=';
  return splitTopLevel(tve)
    .map((col) => {
      const type = ctx.opts.columns?.[col];
      const toStartOf = /^(toStartOf\w+)\s*\(/.exec(col);
      const isDate = (type !== undefined && /^(Nullable\()?Date(32)?\)?$/.test(type)) || /^toDate\s*\(/.test(col);
      const startB = `fromUnixTimestamp64Milli(${fromMs})`;
      const endB = `fromUnixTimestamp64Milli(${toMs})`;
      if (toStartOf) {
        throw new Unsupported(`the timestamp expression "${col}" (a ${toStartOf[1]} expression) is not previewed yet`);
      }
      if (isDate) return `(${col} >= toDate(${startB}) AND ${col} <= toDate(${endB}))`;
      return `(${col} >= ${startB} AND ${col} ${endOp} ${endB})`;
    })
    .join(' AND ');
}

/** The column the time buckets are taken from: the first listed, or a DateTime one after a Date one. */
function bucketColumn(ctx: Ctx): string {
  const cols = splitTopLevel(str(ctx.source.timestampValueExpression) ?? '');
  const first = cols[0] ?? '';
  const types = ctx.opts.columns;
  if (types && cols.length > 1 && /^(Nullable\()?Date(32)?\)?$/.test(types[first] ?? '')) {
    const better = cols.find((c) => /DateTime/.test(types[c] ?? ''));
    if (better) return better;
  }
  return first;
}

function granularityOf(opts: RenderOptions, maxBuckets = RENDER_MAX_BUCKETS): Granularity {
  const g = opts.granularity;
  if (g === undefined || g === 'auto') return autoGranularity(ms(opts.range.from), ms(opts.range.to), maxBuckets);
  const parsed = parseGranularity(g);
  if (!parsed) throw new Unsupported(`the granularity "${g}" is not one ClickStack uses (e.g. "1 minute", "1 hour")`);
  return parsed;
}

function dashboardFilters(ctx: Ctx, sourceId: string | undefined): TileFilter[] {
  const { filters, notes } = dashboardFiltersForTile(ctx.opts.dashboard, sourceId, ctx.opts.filterSelections);
  ctx.notes.push(...notes);
  return filters;
}

function wrap(s: string): string {
  return s ? `(${s})` : '';
}

interface BuilderQuery {
  select: SelectItem[] | string;
  where?: string;
  whereLanguage?: string;
  groupBy?: string;
  having?: string;
  orderBy?: string;
  limit?: number;
  seriesLimit?: number;
  ratio?: boolean;
  granularity?: Granularity;
  /** Adds the evaluation window (anchor + k × size, in seconds) of each row as a column. */
  window?: { anchorSeconds: number; sizeSeconds: number };
  extraFilters: TileFilter[];
  /** Common table expressions put before the query (`name AS (…)`). */
  with?: string[];
  /** SETTINGS clause. */
  settings?: string;
  /** Apply the source's table filter (saved searches do, as ClickStack's search config). */
  tableFilter?: boolean;
  /**
   * Metric sums only: the query stands for one query per bucket (an alert's windows), each reading the source from
   * `perBucket` buckets before its own (1 on the interval grid, 2 off it), so a reading's increase is taken only from
   * a previous reading in that span.
   */
  perBucket?: number;
  /**
   * Metric sums only: read the source one bucket beyond each end (ClickStack does when the chart has a
   * granularity: time charts and alerts, not number, table or pie tiles).
   */
  widen?: boolean;
  /**
   * Metric gauges only: keep the rows whose bucket starts within their alert window (anchor + k × size, seconds),
   * as one query per window off the interval grid sees them.
   */
  rowWindow?: { anchorSeconds: number; sizeSeconds: number };
}

/** The WHERE condition: time range, tile filter, series filters (when every series has one), other filters. */
function whereSql(
  ctx: Ctx,
  q: Pick<BuilderQuery, 'where' | 'whereLanguage' | 'extraFilters' | 'tableFilter'>,
  seriesConds: string[],
  fromMs: number,
  toMs: number,
): string {
  const filterConds = [
    ...((q.tableFilter || ctx.opts.sourceTableFilter) && nonEmpty(ctx.source.tableFilterExpression)
      ? [{ language: 'sql' as const, condition: ctx.source.tableFilterExpression }]
      : []),
    ...q.extraFilters,
  ]
    .map((f, i) => wrap(condition(ctx, f.condition, f.language, `dashboard filter ${i + 1}`)))
    .filter((s) => s);
  return [
    timeFilter(ctx, fromMs, toMs),
    wrap(nonEmpty(q.where) ? condition(ctx, q.where, q.whereLanguage ?? 'sql', 'the tile filter') : ''),
    wrap(seriesConds.join(' OR ')),
    wrap(filterConds.join(' AND ')),
  ]
    .filter((s) => s)
    .join(' AND ');
}

/** The start of the alert window (anchor + k × size, seconds) holding the time `col`. */
function windowStartSql(col: string, w: { anchorSeconds: number; sizeSeconds: number }): string {
  return `toDateTime(${w.anchorSeconds} + intDiv(toInt64(toUnixTimestamp(toDateTime(${col}))) - ${w.anchorSeconds}, ${w.sizeSeconds}) * ${w.sizeSeconds})`;
}

/** Renders a builder query against the source (the core of ClickStack's renderChartConfig). */
function renderBuilder(ctx: Ctx, q: BuilderQuery): { sql: string; columns: ResultColumns } {
  const from = str(ctx.source.from?.tableName);
  if (!from) {
    throw new Unsupported(
      ctx.source.kind === 'metric'
        ? 'the metric tile names no metric type this source has a table for'
        : 'the source has no table',
    );
  }
  const table = tableRef(str(ctx.source.from?.databaseName), from);
  const fromMs = ms(ctx.opts.range.from);
  const toMs = ms(ctx.opts.range.to);

  const columns: ResultColumns = { values: [], groups: [] };
  const selectParts: string[] = [];
  let bareValues: string[] = [];
  let seriesConds: string[] = [];
  if (typeof q.select === 'string') {
    selectParts.push(q.select);
  } else {
    const rendered = q.select.map((item, i) => {
      const cond = nonEmpty(item.where)
        ? condition(ctx, item.where, item.whereLanguage ?? 'lucene', `series ${i + 1} filter`)
        : '';
      // As ClickStack: without a language the series reads its filter as Lucene, the WHERE copy as SQL.
      const whereCopy = nonEmpty(item.where) && item.whereLanguage === undefined ? item.where : cond;
      if (whereCopy !== cond) {
        ctx.notes.push(
          `series ${i + 1} filter has no whereLanguage: ClickStack reads it as Lucene in the series and as SQL in the WHERE clause`,
        );
      }
      return { item, cond, whereCopy, expr: aggregateSql(item, cond) };
    });
    bareValues = rendered.map((r) => r.expr);
    seriesConds = rendered.every((r) => r.cond) ? rendered.map((r) => r.whereCopy) : [];
    if (q.ratio && rendered.length === 2) {
      selectParts.push(`divide(${rendered[0]?.expr}, ${rendered[1]?.expr})`);
      columns.values.push({ index: 0, label: `${labelOf(rendered[0]?.item)} / ${labelOf(rendered[1]?.item)}` });
    } else {
      rendered.forEach((r, i) => {
        selectParts.push(nonEmpty(r.item.alias) ? `${r.expr} AS "${r.item.alias}"` : r.expr);
        columns.values.push({ index: i, label: labelOf(r.item) });
      });
    }
  }
  const groupCols = nonEmpty(q.groupBy) ? splitTopLevel(q.groupBy) : [];
  if (groupCols.length > 0) {
    const base = selectParts.length;
    selectParts.push(q.groupBy as string);
    groupCols.forEach((g, i) => columns.groups.push({ index: base + i, label: g }));
  }
  const bucket = q.granularity
    ? `toStartOfInterval(toDateTime(${bucketColumn(ctx)}), INTERVAL ${q.granularity.sql}) AS \`${TIME_BUCKET}\``
    : '';
  if (bucket) {
    columns.time = { index: selectParts.length + (groupCols.length > 0 ? groupCols.length - 1 : 0), name: TIME_BUCKET };
    selectParts.push(bucket);
  }
  const windowCol = q.window ? `${windowStartSql(bucketColumn(ctx), q.window)} AS \`${WINDOW}\`` : '';
  if (windowCol) {
    columns.window = { index: (columns.time?.index ?? selectParts.length - 1) + 1, name: WINDOW };
    selectParts.push(windowCol);
  }

  let where = whereSql(ctx, q, seriesConds, fromMs, toMs);
  const groupByParts = [
    ...(groupCols.length > 0 ? [q.groupBy as string] : []),
    ...(bucket ? [bucket] : []),
    ...(windowCol ? [windowCol] : []),
  ];
  const groupBy = groupByParts.join(',');

  const ctes = [...(q.with ?? [])];
  if (
    q.seriesLimit !== undefined &&
    q.seriesLimit > 0 &&
    groupCols.length > 0 &&
    bucket &&
    typeof q.select !== 'string'
  ) {
    const tuple = groupCols.join(',');
    const rank =
      q.ratio && bareValues.length === 2 ? `divide(${bareValues[0]}, ${bareValues[1]})` : (bareValues[0] ?? 'count()');
    const rankOrder =
      q.ratio && bareValues.length === 2
        ? 'max(if(isFinite(`__hdx_series_rank`), `__hdx_series_rank`, -inf))'
        : 'max(`__hdx_series_rank`)';
    const notNull = groupCols.map((g) => `${g} IS NOT NULL`).join(' AND ');
    ctes.push(
      `\`__hdx_series_limit\` AS (SELECT \`group\` FROM (SELECT tuple(${tuple}) AS \`group\`, ${rank} AS \`__hdx_series_rank\` ` +
        `FROM ${table} WHERE ${where} AND ${notNull} GROUP BY ${groupBy}) GROUP BY \`group\` ORDER BY ${rankOrder} DESC, \`group\` LIMIT ${q.seriesLimit})`,
    );
    where = `${where} AND tuple(${tuple}) IN (SELECT \`group\` FROM \`__hdx_series_limit\`)`;
  }
  const having = nonEmpty(q.having) ? condition(ctx, q.having, 'sql', 'having') : '';
  const orderParts = [...(bucket ? [bucket] : []), ...(nonEmpty(q.orderBy) ? [q.orderBy] : [])];
  const sql = [
    `${ctes.length > 0 ? `WITH ${ctes.join(',')} ` : ''}SELECT ${selectParts.join(',')}`,
    `FROM ${table}`,
    where ? `WHERE ${where}` : '',
    groupBy ? `GROUP BY ${groupBy}` : '',
    having ? `HAVING ${having}` : '',
    orderParts.length > 0 ? `ORDER BY ${orderParts.join(',')}` : '',
    q.limit !== undefined ? `LIMIT ${q.limit}` : '',
    q.settings ? `SETTINGS ${q.settings}` : '',
  ]
    .filter((s) => s)
    .join(' ');
  return { sql, columns };
}

function labelOf(item: SelectItem | undefined): string {
  if (!item) return '';
  if (nonEmpty(item.alias)) return item.alias;
  const fn = item.aggFn ?? '';
  if (fn === 'count') return 'count()';
  if (fn === 'quantile') return `quantile(${item.level ?? ''})(${item.valueExpression ?? ''})`;
  if (fn === 'none' || fn === '') return item.valueExpression ?? '';
  return `${fn}(${item.valueExpression ?? ''})`;
}

function selectItems(config: Record<string, unknown>): SelectItem[] {
  const select = config.select;
  if (!Array.isArray(select)) throw new Unsupported('the tile has no series (select)');
  return select.map((s) => (s !== null && typeof s === 'object' ? (s as SelectItem) : {}));
}

function checkSource(ctx: Ctx, config: Record<string, unknown>): void {
  const kind = ctx.source.kind;
  if (kind === 'promql') throw new Unsupported('PromQL tiles are not previewed yet');
  if (kind === 'session') throw new Unsupported('tiles on session sources are not previewed yet');
  if (nonEmpty(ctx.source.sampleRateExpression)) {
    throw new Unsupported('sources with sampling weights (sampleRateExpression) are not previewed yet');
  }
  if (typeof config.sourceId === 'string' && ctx.source.id !== undefined && ctx.source.id !== config.sourceId) {
    throw new Unsupported(`the tile's source "${config.sourceId}" is not the source given ("${ctx.source.id}")`);
  }
}

/** The source's metric table of one kind; a source without it is not previewed. */
function metricTable(ctx: Ctx, kind: 'gauge' | 'sum'): string {
  const table = str(((ctx.source.metricTables ?? {}) as Record<string, unknown>)[kind]);
  if (!table) throw new Unsupported(`the metric source has no ${kind} table`);
  return table;
}

/** A context that reads one metric table (timestamp `TimeUnix` unless the source names one), and the series' filter. */
function onMetricTable(ctx: Ctx, table: string, item: SelectItem): { tve: string; ctx: Ctx; cond: string } {
  const tve = str(ctx.source.timestampValueExpression) || 'TimeUnix';
  const tableCtx: Ctx = {
    ...ctx,
    source: {
      ...ctx.source,
      from: { databaseName: ctx.source.from?.databaseName, tableName: table },
      timestampValueExpression: tve,
    },
  };
  const cond = nonEmpty(item.where)
    ? condition(tableCtx, item.where, item.whereLanguage ?? 'lucene', 'series 1 filter')
    : '';
  return { tve, ctx: tableCtx, cond };
}

const GAUGE_ANY_COLUMNS = [
  'ScopeAttributes',
  'ResourceAttributes',
  'Attributes',
  'ResourceSchemaUrl',
  'ScopeName',
  'ScopeVersion',
  'ScopeDroppedAttrCount',
  'ScopeSchemaUrl',
  'ServiceName',
  'MetricDescription',
  'MetricUnit',
  'StartTimeUnix',
  'Flags',
];

/**
 * A gauge metric series, as ClickStack translates it: the last value per time series (attribute hash) and bucket
 * in CTEs over the gauge table, then the tile's aggregation over those values.
 */
function renderGauge(
  ctx: Ctx,
  items: SelectItem[],
  q: Omit<BuilderQuery, 'select'>,
  bucketGranularity: Granularity,
): { sql: string; columns: ResultColumns } {
  const item = items[0] as SelectItem & { metricType?: string; periodAggFn?: string };
  const table = metricTable(ctx, 'gauge');
  if (item.periodAggFn === 'delta') throw new Unsupported('gauge series with a per-period delta are not previewed yet');
  if (!nonEmpty(item.metricName)) throw new Unsupported('the metric series names no metric');
  const { ctx: gaugeCtx, cond } = onMetricTable(ctx, table, item);
  const fromMs = ms(ctx.opts.range.from);
  const toMs = ms(ctx.opts.range.to);
  const where = whereSql(
    gaugeCtx,
    { extraFilters: [...q.extraFilters, { language: 'sql', condition: `MetricName = ${sqlString(item.metricName)}` }] },
    cond ? [cond] : [],
    fromMs,
    toMs,
  );
  const bucketExpr = `toStartOfInterval(toDateTime(${bucketColumn(gaugeCtx)}), INTERVAL ${bucketGranularity.sql})`;
  const bucket2 = `${bucketExpr} AS \`__hdx_time_bucket2\``;
  // Off the interval grid, one alert query per window reads only that window: a bucket's last value comes from
  // the rows of the window its start falls in.
  const inWindow = q.rowWindow ? ` AND ${bucketExpr} >= ${windowStartSql(bucketColumn(gaugeCtx), q.rowWindow)}` : '';
  const source = `Source AS (SELECT *, cityHash64(ScopeAttributes, ResourceAttributes, Attributes) AS AttributesHash FROM ${tableRef(str(ctx.source.from?.databaseName), table)} WHERE ${where}${inWindow})`;
  const bucketed =
    `Bucketed AS (SELECT ${bucket2}, AttributesHash, last_value(Value) AS LastValue, ${GAUGE_ANY_COLUMNS.map((c) => `any(${c}) AS ${c}`).join(', ')} ` +
    'FROM Source GROUP BY AttributesHash, __hdx_time_bucket2 ORDER BY AttributesHash, __hdx_time_bucket2)';
  const outerCtx: Ctx = {
    ...ctx,
    source: {
      kind: 'metric',
      from: { databaseName: '', tableName: 'Bucketed' },
      timestampValueExpression: '__hdx_time_bucket2',
    },
  };
  return renderBuilder(outerCtx, {
    ...q,
    rowWindow: undefined,
    select: [{ ...item, valueExpression: 'LastValue', where: '' }],
    extraFilters: [],
    with: [source, bucketed],
    settings: "short_circuit_function_evaluation = 'force_enable'",
  });
}

const SUM_ANY_COLUMNS = [
  'ResourceAttributes',
  'ResourceSchemaUrl',
  'ScopeName',
  'ScopeVersion',
  'ScopeAttributes',
  'ScopeDroppedAttrCount',
  'ScopeSchemaUrl',
  'ServiceName',
  'MetricName',
  'MetricDescription',
  'MetricUnit',
  'Attributes',
  'StartTimeUnix',
  'Flags',
  'AggregationTemporality',
  'IsMonotonic',
];

/**
 * A sum (counter) metric series, as ClickStack translates it: per-row increases (delta temporality as is,
 * cumulative as the clamped difference to the previous reading of the same time series), summed per bucket, then
 * the tile's aggregation over those per-series increases. With a granularity (time charts, alerts) the source is
 * read one bucket beyond each end; number, table and pie tiles read the range itself.
 */
function renderSum(
  ctx: Ctx,
  items: SelectItem[],
  q: Omit<BuilderQuery, 'select'>,
  bucketGranularity: Granularity,
): { sql: string; columns: ResultColumns } {
  const item = items[0] as SelectItem;
  const table = metricTable(ctx, 'sum');
  if (!nonEmpty(item.metricName)) throw new Unsupported('the metric series names no metric');
  if (item.aggFn === 'increase') throw new Unsupported('the "increase" aggregation is not previewed yet');
  if (!item.aggFn) throw new Unsupported('sum metric series without an aggregation are not previewed yet');
  const { tve, ctx: sumCtx, cond } = onMetricTable(ctx, table, item);
  const g = bucketGranularity.sql;
  const fromMs = ms(ctx.opts.range.from);
  const toMs = ms(ctx.opts.range.to);
  const col = splitTopLevel(tve)[0] ?? tve;
  const endOp = ctx.opts.endInclusive === false ? '<' : '<=';
  const widened = `(${col} >= toStartOfInterval(fromUnixTimestamp64Milli(${fromMs}), INTERVAL ${g}) - INTERVAL ${g} AND ${col} ${endOp} toStartOfInterval(fromUnixTimestamp64Milli(${toMs}), INTERVAL ${g}) + INTERVAL ${g})`;
  const rest = whereSql(
    sumCtx,
    { extraFilters: [...q.extraFilters, { language: 'sql', condition: `MetricName = ${sqlString(item.metricName)}` }] },
    cond ? [cond] : [],
    fromMs,
    toMs,
  );
  // Replace the plain time filter (the first part) by the widened one.
  const plain = timeFilter(sumCtx, fromMs, toMs);
  const where = q.widen && rest.startsWith(plain) ? `${widened}${rest.slice(plain.length)}` : rest;
  const previous = 'lagInFrame(toNullable(Value), 1, NULL) OVER (PARTITION BY AttributesHash ORDER BY TimeUnix)';
  // One query per bucket reads from one or two buckets before it: an older previous reading is not in that query
  // (NULL).
  const previousInSpan = q.perBucket
    ? `IF(lagInFrame(toNullable(${col}), 1, NULL) OVER (PARTITION BY AttributesHash ORDER BY TimeUnix) >= toStartOfInterval(${col}, INTERVAL ${g})${` - INTERVAL ${g}`.repeat(q.perBucket)}, ${previous}, NULL)`
    : previous;
  const source =
    'Source AS (SELECT *, cityHash64(ScopeAttributes, ResourceAttributes, Attributes) AS AttributesHash, ' +
    `IF(AggregationTemporality = 1, Value, greatest(Value - ${previousInSpan}, 0)) AS Rate, ` +
    'IF(AggregationTemporality = 1, SUM(Value) OVER (PARTITION BY AttributesHash ORDER BY TimeUnix ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), Value) AS Sum ' +
    `FROM ${tableRef(str(ctx.source.from?.databaseName), table)} WHERE ${where})`;
  const bucket2 = `toStartOfInterval(toDateTime(${bucketColumn(sumCtx)}), INTERVAL ${g}) AS \`__hdx_time_bucket2\``;
  const bucketed =
    `Bucketed AS (SELECT \`__hdx_time_bucket2\`, AttributesHash, Rate, Sum, ${SUM_ANY_COLUMNS.join(', ')} FROM (SELECT ${bucket2}, AttributesHash, ` +
    `sum(Source.Rate) AS Rate, argMax(Source.Sum, TimeUnix) AS Sum, ${SUM_ANY_COLUMNS.map((c) => `any(${c}) AS ${c}`).join(', ')} ` +
    'FROM Source GROUP BY AttributesHash, `__hdx_time_bucket2` ORDER BY AttributesHash, `__hdx_time_bucket2`))';
  const outerCtx: Ctx = {
    ...ctx,
    source: {
      kind: 'metric',
      from: { databaseName: '', tableName: 'Bucketed' },
      timestampValueExpression: '`__hdx_time_bucket2`',
    },
  };
  return renderBuilder(outerCtx, {
    ...q,
    select: [{ alias: 'Value', ...item, valueExpression: 'Rate', where: '' }],
    extraFilters: [],
    with: [source, bucketed],
  });
}

/** One metric series (gauge or sum). */
function renderMetricSeries(
  ctx: Ctx,
  item: SelectItem,
  q: Omit<BuilderQuery, 'select'>,
  bucketGranularity: Granularity,
): { sql: string; columns: ResultColumns } {
  const type = (item as { metricType?: string }).metricType;
  if (type === 'gauge') return renderGauge(ctx, [item], q, bucketGranularity);
  if (type === 'sum') return renderSum(ctx, [item], q, bucketGranularity);
  throw new Unsupported(`${type ?? 'untyped'} metric series are not previewed yet (gauge and sum only)`);
}

const MULTI_VALUE = '__hdx_value';
const MULTI_INDEX = '__hdx_series_idx';

/** The name ClickStack gives a metric series' value column when a tile has several (`setChartSelectsAlias`). */
function metricSeriesName(item: SelectItem & { metricType?: string; isDelta?: boolean }): string {
  if (nonEmpty(item.alias)) return item.alias;
  if (item.aggFn === 'increase') return `increase(${item.metricName ?? ''})`;
  if (item.isDelta === true) return `${item.aggFn ?? ''}(delta(${item.metricName ?? ''}))`;
  return `${item.aggFn ?? ''}(${item.metricName ?? ''})`;
}

function quotedName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A metric tile with several series, as ClickStack composes it: each series rendered on its own (its value as
 * `__hdx_value`), the results stacked with UNION ALL and tagged with the series' index, then pivoted back into one
 * column per series (`anyOrNullIf`: a series with no row for a group and bucket is NULL), grouped by the group and
 * bucket columns (GROUP BY ALL). HAVING, ORDER BY and LIMIT apply to the pivoted rows.
 */
function renderMultiMetric(
  ctx: Ctx,
  items: SelectItem[],
  q: Omit<BuilderQuery, 'select'>,
  bucketGranularity: Granularity,
): { sql: string; columns: ResultColumns } {
  const seen = new Set<string>();
  const names = items.map((item, i) => {
    const base = metricSeriesName(item);
    const name = seen.has(base) ? `${base}__${i}` : base;
    seen.add(name);
    return name;
  });
  const branchQuery = { ...q, having: undefined, orderBy: undefined, limit: undefined };
  const settings = new Set<string>();
  let groups: ResultColumns['groups'] = [];
  let hasTime = false;
  let hasWindow = false;
  const branches = items.map((item, i) => {
    const r = renderMetricSeries(ctx, { ...item, alias: MULTI_VALUE }, branchQuery, bucketGranularity);
    const m = / SETTINGS (.*)$/.exec(r.sql);
    if (m) settings.add(m[1] as string);
    const sql = m ? r.sql.slice(0, m.index) : r.sql;
    groups = r.columns.groups;
    hasTime = r.columns.time !== undefined;
    hasWindow = r.columns.window !== undefined;
    return `SELECT * REPLACE (toFloat64(\`${MULTI_VALUE}\`) AS \`${MULTI_VALUE}\`), ${i} AS \`${MULTI_INDEX}\` FROM (${sql})`;
  });
  const pick = (i: number) => `anyOrNullIf(\`${MULTI_VALUE}\`, \`${MULTI_INDEX}\` = ${i})`;
  const projection: string[] = [];
  const columns: ResultColumns = { values: [], groups: [] };
  if (q.ratio && items.length === 2) {
    const name = `${names[0]}/${(names[1] as string).replace(/__\d+$/, '')}`;
    projection.push(`coalesce(${pick(0)}, 0) / nullif(${pick(1)}, 0) AS ${quotedName(name)}`);
    columns.values.push({ index: 0, label: name });
  } else {
    names.forEach((name, i) => {
      projection.push(`${pick(i)} AS ${quotedName(name)}`);
      columns.values.push({ index: i, label: name });
    });
  }
  const passthrough = groups.length > 0 || hasTime || hasWindow;
  if (passthrough) {
    projection.push(`* EXCEPT (\`${MULTI_VALUE}\`, \`${MULTI_INDEX}\`)`);
    const base = columns.values.length;
    groups.forEach((g, i) => columns.groups.push({ index: base + i, label: g.label }));
    if (hasTime) columns.time = { index: base + groups.length, name: TIME_BUCKET };
    if (hasWindow) columns.window = { index: base + groups.length + (hasTime ? 1 : 0), name: WINDOW };
  }
  const having = nonEmpty(q.having) ? condition(ctx, q.having, 'sql', 'having') : '';
  const order = [...(hasTime ? [`\`${TIME_BUCKET}\``] : []), ...(nonEmpty(q.orderBy) ? [q.orderBy] : [])];
  const sql = [
    `SELECT ${projection.join(', ')} FROM (${branches.join(' UNION ALL ')})`,
    passthrough ? 'GROUP BY ALL' : '',
    having ? `HAVING ${having}` : '',
    order.length > 0 ? `ORDER BY ${order.join(',')}` : '',
    q.limit !== undefined ? `LIMIT ${q.limit}` : '',
    settings.size > 0 ? `SETTINGS ${[...settings].join(', ')}` : '',
  ]
    .filter((x) => x)
    .join(' ');
  return { sql, columns };
}

/** Metric tiles: gauge and sum series (several series composed as ClickStack composes them). */
function renderMetric(
  ctx: Ctx,
  items: SelectItem[],
  q: Omit<BuilderQuery, 'select'>,
  bucketGranularity: Granularity,
): { sql: string; columns: ResultColumns } {
  if (items.length === 0) throw new Unsupported('the tile has no series (select)');
  if (items.length > 1) return renderMultiMetric(ctx, items, q, bucketGranularity);
  return renderMetricSeries(ctx, items[0] as SelectItem, q, bucketGranularity);
}

function renderRawSql(config: Record<string, unknown>, opts: RenderOptions, notes: string[]): RenderResult {
  const displayType = str(config.displayType) ?? 'table';
  const timeSeries = displayType === 'line' || displayType === 'stacked_bar';
  const template = str(config.sqlTemplate) ?? '';
  if (!template.trim()) return { ok: false, reason: 'the raw SQL tile has no SQL', notes };
  const source = opts.source;
  const table =
    source && nonEmpty(source.from?.tableName)
      ? `\`${source.from?.databaseName ?? ''}\`.\`${source.from?.tableName}\``
      : undefined;
  const ctx: Ctx = { opts, source: source ?? {}, notes };
  const variables = new Map<string, boolean>();
  for (const f of opts.dashboard?.filters ?? []) {
    if (f.isVariableEnabled !== true) continue;
    const derived = str(f.name)
      ?.trim()
      .replace(/\s+/g, '_')
      .replace(/[^A-Za-z0-9_]+/g, '');
    const name = nonEmpty(f.variableName)
      ? f.variableName.trim()
      : derived && /^[0-9_]/.test(derived)
        ? `v${derived}`
        : derived;
    if (name) variables.set(name, false);
  }
  for (const v of opts.dashboard?.savedFilterValues ?? []) {
    const sv = v as { type?: unknown; name?: unknown; values?: unknown };
    if (
      sv.type === 'variable' &&
      typeof sv.name === 'string' &&
      Array.isArray(sv.values) &&
      sv.values.length > 0 &&
      variables.has(sv.name)
    ) {
      variables.set(sv.name, true);
    }
  }
  try {
    let filtersSql: string | undefined;
    if (source && table) {
      const conds = dashboardFilters(ctx, str(config.sourceId))
        .map((f) => condition(ctx, f.condition, f.language, 'dashboard filter'))
        .filter((s) => s)
        .map((s) => `(${s})`);
      filtersSql = conds.length > 0 ? `(${conds.join(' AND ')})` : undefined;
    }
    const expanded = expandMacros(template, { sourceTable: table, filtersSql, variables });
    for (const name of variables.keys()) {
      if (new RegExp(`\\$\\{?${name}\\b`).test(expanded)) {
        throw new Unsupported(`dashboard variable references ($${name}) in raw SQL are not previewed yet`);
      }
    }
    // A raw SQL time chart reads the aligned range too (HyperDX converts every time chart's config).
    const time = timeSeries ? timeChart(ctx, config) : undefined;
    const granularity = time?.granularity;
    const range = time?.range ?? { from: ms(opts.range.from), to: ms(opts.range.to) };
    const sql = bindParams(
      expanded,
      { startMs: range.from, endMs: range.to, intervalSeconds: granularity?.seconds },
      timeSeries,
    );
    const shape: TileShape = timeSeries
      ? 'timeseries'
      : displayType === 'number'
        ? 'number'
        : displayType === 'pie' || displayType === 'bar'
          ? 'categories'
          : 'table';
    // Raw SQL columns are only known once the query ran: ClickStack takes the first Date column as time, numeric
    // columns as values and the rest as groups. The UI applies the same rule to the result's meta.
    return { ok: true, sql, shape, columns: { values: [], groups: [] }, granularity, range, notes };
  } catch (e) {
    if (e instanceof MacroError || e instanceof Unsupported) return { ok: false, reason: e.message, notes };
    throw e;
  }
}

/**
 * A dashboard time chart's granularity and range (HyperDX `convertToTimeChartConfig`): the automatic granularity
 * allows 80 buckets; unless the tile turns `alignDateRangeToGranularity` off, the range is aligned to the buckets
 * and its end excluded (not aligned: excluded unless the tile says `dateRangeEndInclusive`).
 */
function timeChart(
  ctx: Ctx,
  config: Record<string, unknown>,
): { granularity: Granularity; range: { from: number; to: number }; ctx: Ctx } {
  const opts = ctx.opts;
  const granularity = granularityOf(opts, TIME_CHART_MAX_BUCKETS);
  const aligned = config.alignDateRangeToGranularity !== false;
  const from = ms(opts.range.from);
  const to = ms(opts.range.to);
  const range = aligned ? alignedRange(from, to, granularity) : { from, to };
  const endInclusive = aligned ? false : config.dateRangeEndInclusive === true;
  return { granularity, range, ctx: { ...ctx, opts: { ...opts, range, endInclusive } } };
}

/** Why a tile without a `config` object is not previewed (by either route). */
export function noConfigReason(tile: TileLike): string {
  return tile.series !== undefined
    ? 'tiles in the legacy "series" format are not previewed yet'
    : 'the tile has no config';
}

/**
 * Renders a tile's query. Never throws for a tile it cannot render: it answers `{ ok: false, reason }` naming the
 * part that is not previewed (or is wrong), so no numbers are shown that ClickStack would not show.
 */
export function renderTile(tile: TileLike, opts: RenderOptions): RenderResult {
  const notes: string[] = [];
  const config = tile.config;
  if (!config || typeof config !== 'object') return { ok: false, reason: noConfigReason(tile), notes };
  const displayType = str(config.displayType);
  if (displayType === 'markdown') {
    return {
      ok: true,
      sql: '',
      shape: 'markdown',
      columns: { values: [], groups: [] },
      markdown: str(config.markdown) ?? '',
      notes,
    };
  }
  if (config.configType === 'sql') return renderRawSql(config, opts, notes);
  if (!opts.source) return { ok: false, reason: "the tile's source is not known (no source with its sourceId)", notes };
  const ctx: Ctx = { opts, source: opts.source, notes };
  try {
    checkSource(ctx, config);
    const extraFilters = dashboardFilters(ctx, str(config.sourceId));
    if (Array.isArray(config.formulas) && config.formulas.length > 0) {
      throw new Unsupported('formulas are not previewed yet');
    }
    const isMetric = ctx.source.kind === 'metric';
    if (isMetric && !['line', 'stacked_bar', 'number', 'table', 'pie', 'bar'].includes(displayType ?? '')) {
      throw new Unsupported(`"${displayType ?? ''}" tiles on metric sources are not previewed yet`);
    }
    switch (displayType) {
      case 'line':
      case 'stacked_bar': {
        const items = selectItems(config);
        if (config.compareToPreviousPeriod === true) notes.push('the previous-period comparison is not drawn');
        const { granularity, range, ctx: timeCtx } = timeChart(ctx, config);
        const seriesLimit = typeof config.seriesLimit === 'number' ? config.seriesLimit : undefined;
        const query = {
          groupBy: str(config.groupBy),
          ratio: config.asRatio === true,
          granularity,
          seriesLimit,
          extraFilters,
        };
        const r = isMetric
          ? renderMetric(timeCtx, items, { ...query, widen: true }, granularity)
          : renderBuilder(timeCtx, { ...query, select: items });
        return { ok: true, sql: r.sql, shape: 'timeseries', columns: r.columns, granularity, range, notes };
      }
      case 'number': {
        const items = selectItems(config);
        const r = isMetric
          ? renderMetric(ctx, items, { extraFilters }, granularityOf({ ...opts, granularity: 'auto' }))
          : renderBuilder(ctx, { select: items, extraFilters });
        return { ok: true, sql: r.sql, shape: 'number', columns: r.columns, notes };
      }
      case 'table': {
        const items = selectItems(config);
        // As ClickStack's table chart: the first 200 rows, ordered by the group by unless an order is given.
        const groupBy = str(config.groupBy);
        const orderBy = nonEmpty(config.orderBy) ? config.orderBy : nonEmpty(groupBy) ? groupBy : undefined;
        const query = {
          groupBy,
          having: str(config.having),
          orderBy,
          ratio: config.asRatio === true,
          limit: opts.tableLimit ?? 200,
          extraFilters,
        };
        const r = isMetric
          ? renderMetric(ctx, items, query, granularityOf({ ...opts, granularity: 'auto' }))
          : renderBuilder(ctx, { ...query, select: items });
        return { ok: true, sql: r.sql, shape: 'table', columns: r.columns, notes };
      }
      case 'pie':
      case 'bar': {
        const limit = typeof config.limit === 'number' && config.limit > 0 ? config.limit : undefined;
        const items = selectItems(config);
        const query = { groupBy: str(config.groupBy), orderBy: str(config.orderBy), extraFilters };
        const r = isMetric
          ? renderMetric(ctx, items, query, granularityOf({ ...opts, granularity: 'auto' }))
          : renderBuilder(ctx, { ...query, select: items });
        if (limit !== undefined) {
          notes.push(`ClickStack shows the top ${limit} categories; the preview returns them all`);
        }
        return { ok: true, sql: r.sql, shape: 'categories', columns: r.columns, notes };
      }
      case 'search': {
        const select = nonEmpty(config.select) ? config.select : (str(ctx.source.defaultTableSelectExpression) ?? '');
        if (!select.trim()) throw new Unsupported('the search tile has no columns (select) and the source no default');
        const tve = splitTopLevel(str(ctx.source.timestampValueExpression) ?? '')[0];
        const r = renderBuilder(ctx, {
          select,
          where: str(config.where),
          whereLanguage: str(config.whereLanguage) ?? 'lucene',
          orderBy: nonEmpty(opts.searchOrderBy) ? opts.searchOrderBy : tve ? `${tve} DESC` : undefined,
          limit: opts.searchLimit ?? 200,
          extraFilters,
        });
        return {
          ok: true,
          sql: r.sql,
          shape: 'search',
          columns: { values: [], groups: splitTopLevel(select).map((label, index) => ({ index, label })) },
          notes,
        };
      }
      case 'heatmap':
        return renderHeatmap(ctx, config, extraFilters);
      case 'event_patterns':
        return renderPatterns(ctx, config, extraFilters);
      default:
        throw new Unsupported(`the display type "${displayType ?? '(none)'}" is not previewed`);
    }
  } catch (e) {
    if (e instanceof Unsupported) return { ok: false, reason: e.message, notes };
    throw e;
  }
}

/**
 * The search page's histogram of a log or trace search: `count()` per bucket (automatic size, at most 80 buckets)
 * over the exact range, end included and not aligned to bucket boundaries, stacked by `groupBy`, with the search's
 * condition as the WHERE clause (the same translation as the tiles).
 */
export function renderSearchHistogram(
  opts: RenderOptions,
  q: { where: string; whereLanguage: string; groupBy?: string | undefined },
): RenderResult {
  const notes: string[] = [];
  if (!opts.source) return { ok: false, reason: 'the search names no source', notes };
  const ctx: Ctx = { opts: { ...opts, granularity: 'auto' }, source: opts.source, notes };
  try {
    checkSource(ctx, {});
    const chart = timeChart(ctx, { alignDateRangeToGranularity: false, dateRangeEndInclusive: true });
    const { granularity, range, ctx: timeCtx } = chart;
    const r = renderBuilder(timeCtx, {
      select: [{ aggFn: 'count', valueExpression: '' }],
      where: q.where,
      whereLanguage: q.whereLanguage,
      groupBy: q.groupBy,
      granularity,
      extraFilters: [],
    });
    return { ok: true, sql: r.sql, shape: 'timeseries', columns: r.columns, granularity, range, notes };
  } catch (e) {
    if (e instanceof Unsupported) return { ok: false, reason: e.message, notes };
    throw e;
  }
}

/**
 * A heatmap tile: the bounds query (over the range as picked, both ends included) as a scalar subquery, then the
 * counts per value bucket and time bucket (automatic granularity of at most 245 buckets), as HyperDX's dashboard.
 */
function renderHeatmap(ctx: Ctx, config: Record<string, unknown>, extraFilters: TileFilter[]): RenderResult {
  const item = selectItems(config)[0] as (SelectItem & { heatmapScaleType?: unknown }) | undefined;
  const value = item?.valueExpression;
  if (!nonEmpty(value)) throw new Unsupported('the heatmap has no value expression');
  if (isAggregateExpression(value)) {
    throw new Unsupported('heatmaps of an aggregate value expression are not previewed yet');
  }
  const scale = heatmapScale(item);
  const where = { where: str(config.where), whereLanguage: str(config.whereLanguage) ?? 'lucene' };
  const bounds = renderBuilder(ctx, { select: boundsSelect(value, scale), ...where, extraFilters });
  const granularity = autoGranularity(ms(ctx.opts.range.from), ms(ctx.opts.range.to), HEATMAP_MAX_TIME_BUCKETS);
  const count = nonEmpty(item?.countExpression) ? item.countExpression : 'count()';
  const counts = renderBuilder(ctx, {
    select: `${count} AS "count", \`${HEATMAP_LO}\`, \`${HEATMAP_HI}\``,
    ...where,
    groupBy: valueBucketSql(value, scale),
    orderBy: 'x_bucket ASC',
    granularity,
    with: boundsWith(bounds.sql, scale),
    // HyperDX runs the counts query only when the bounds leave room for buckets.
    extraFilters: [...extraFilters, { language: 'sql', condition: `\`${HEATMAP_HI}\` > \`${HEATMAP_LO}\`` }],
  });
  const range = { from: ms(ctx.opts.range.from), to: ms(ctx.opts.range.to) };
  return {
    ok: true,
    sql: counts.sql,
    shape: 'heatmap',
    columns: {
      values: [{ index: 0, label: 'count' }],
      groups: [{ index: 3, label: 'x_bucket' }],
      time: { index: 4, name: TIME_BUCKET },
    },
    heatmap: { scale, buckets: HEATMAP_VALUE_BUCKETS, lo: 1, hi: 2 },
    granularity,
    range,
    notes: ctx.notes,
  };
}

/** The expression of an event's text: a log's body, a span's name (the first of several), as HyperDX's getEventBody. */
export function eventBodyOf(source: SourceLike): string | undefined {
  const expr =
    source.kind === 'trace'
      ? str(source.spanNameExpression)
      : source.kind === 'log'
        ? (str(source.bodyExpression) ?? str(source.implicitColumnExpression))
        : undefined;
  return nonEmpty(expr) ? splitTopLevel(expr)[0] : undefined;
}

/** The level HyperDX shows beside a pattern: a log's severity, a span's status code (when the source names one). */
export function eventLevelOf(source: SourceLike): string | undefined {
  const expr =
    source.kind === 'log'
      ? str(source.severityTextExpression)
      : source.kind === 'trace'
        ? str(source.statusCodeExpression)
        : undefined;
  return nonEmpty(expr) ? expr : undefined;
}

/** The column an event pattern tile mines: its `select` when that is one expression, else the event's body. */
export function patternColumnOf(select: unknown, source: SourceLike): string | undefined {
  return typeof select === 'string' && select.trim() !== '' && splitTopLevel(select).length <= 1
    ? select
    : eventBodyOf(source);
}

/**
 * An event pattern tile as HyperDX's dashboard reads it: a random sample of up to 10,000 rows of the range as picked
 * (the pattern column — the tile's `select` when it is one expression, else the event's body —, the first timestamp,
 * the severity of a log or status code of a span), and the total count of the tile's rows as its count chart reads
 * it (the range aligned to the automatic 80-bucket granularity unless the tile turns alignment off, end excluded),
 * as a scalar in every row. The patterns are mined from the rows afterwards (`src/render/patterns`).
 */
function renderPatterns(ctx: Ctx, config: Record<string, unknown>, extraFilters: TileFilter[]): RenderResult {
  const select = config.select;
  const body = patternColumnOf(select, ctx.source);
  if (!nonEmpty(body)) throw new Unsupported('the source has no body expression for the patterns (bodyExpression)');
  const tve = splitTopLevel(str(ctx.source.timestampValueExpression) ?? '')[0];
  if (!tve) throw new Unsupported('the source has no timestamp expression');
  const levelExpr = eventLevelOf(ctx.source);
  const level = levelExpr !== undefined;
  const where = { where: str(config.where), whereLanguage: str(config.whereLanguage) ?? 'lucene' };
  const { ctx: countCtx } = timeChart({ ...ctx, opts: { ...ctx.opts, granularity: 'auto' } }, config);
  const total = renderBuilder(countCtx, { select: 'count() AS total', ...where, extraFilters });
  const sample = renderBuilder(ctx, {
    select: [
      `${body} AS __hdx_pattern_field`,
      `${tve} AS __hdx_timestamp`,
      '`__hdx_total_count`',
      ...(level ? [`${levelExpr} AS __hdx_severity_text`] : []),
    ].join(', '),
    ...where,
    orderBy: 'rand() DESC',
    limit: PATTERN_SAMPLES,
    extraFilters,
    with: [`(SELECT total FROM (${total.sql})) AS \`__hdx_total_count\``],
  });
  const range = { from: ms(ctx.opts.range.from), to: ms(ctx.opts.range.to) };
  return {
    ok: true,
    sql: sample.sql,
    shape: 'patterns',
    columns: { values: [], groups: [] },
    patterns: { level, samples: PATTERN_SAMPLES },
    range,
    notes: ctx.notes,
  };
}

/** The query of a saved search alert: count() of matching rows per window. */
export interface SavedSearchLike {
  where?: string | null | undefined;
  whereLanguage?: string | null | undefined;
  source?: string | undefined;
  /** Pinned filters (`{type: 'sql' | 'lucene', condition}` or `{type: 'sql_ast', operator, left, right}`). */
  filters?: readonly unknown[] | null | undefined;
}

const SQL_AST_OPERATORS = new Set(['=', '<', '>', '!=', '<=', '>=']);

/** A saved search's pinned filters as the scheduler adds them to the alert's query (each one ANDed). */
function savedSearchFilters(filters: readonly unknown[] | null | undefined): TileFilter[] {
  return (filters ?? []).map((f, i) => {
    const filter = (f !== null && typeof f === 'object' ? f : {}) as Record<string, unknown>;
    if ((filter.type === 'sql' || filter.type === 'lucene') && typeof filter.condition === 'string') {
      return { language: filter.type, condition: filter.condition };
    }
    if (
      filter.type === 'sql_ast' &&
      typeof filter.operator === 'string' &&
      SQL_AST_OPERATORS.has(filter.operator) &&
      typeof filter.left === 'string' &&
      typeof filter.right === 'string'
    ) {
      return { language: 'sql', condition: `${filter.left} ${filter.operator} ${filter.right}` };
    }
    throw new Unsupported(
      `the saved search's filter ${i + 1} is not one the scheduler reads ({type: "sql" | "lucene", condition} or {type: "sql_ast", operator, left, right})`,
    );
  });
}

/** Internal: renders a builder query for the backtest (count per window, or a tile's series per window). */
export function renderWindowedQuery(
  input:
    | { kind: 'tile'; tile: TileLike }
    | { kind: 'savedSearch'; savedSearch: SavedSearchLike; groupBy?: string | null | undefined },
  opts: RenderOptions & { granularity: string; window?: { anchorSeconds: number; sizeSeconds: number } | undefined },
): RenderResult {
  const notes: string[] = [];
  if (!opts.source) return { ok: false, reason: "the alert's source is not known", notes };
  const ctx: Ctx = { opts: { ...opts, endInclusive: false }, source: opts.source, notes };
  try {
    const granularity = granularityOf(opts);
    if (input.kind === 'savedSearch') {
      checkSource(ctx, {});
      const r = renderBuilder(ctx, {
        select: [{ aggFn: 'count', where: '', whereLanguage: 'sql' }],
        where: input.savedSearch.where ?? '',
        whereLanguage: input.savedSearch.whereLanguage ?? 'sql',
        groupBy: input.groupBy ?? undefined,
        granularity,
        window: opts.window,
        tableFilter: true,
        // The scheduler adds the saved search's pinned filters to the alert's query.
        extraFilters: savedSearchFilters(input.savedSearch.filters),
      });
      return { ok: true, sql: r.sql, shape: 'timeseries', columns: r.columns, granularity, notes };
    }
    const config = input.tile.config;
    if (!config) throw new Unsupported('the tile has no config');
    if (config.configType === 'sql') {
      const dt = str(config.displayType);
      throw new Unsupported(`alerts on raw SQL tiles ("${dt}") are not backtested yet`);
    }
    checkSource(ctx, config);
    const dt = str(config.displayType);
    if (dt !== 'line' && dt !== 'stacked_bar' && dt !== 'number') {
      throw new Unsupported(`alerts on "${dt}" tiles are not evaluated`);
    }
    if (Array.isArray(config.formulas) && config.formulas.length > 0) {
      throw new Unsupported('alerts on tiles with formulas are not backtested yet');
    }
    // The scheduler uses the tile's series, group by and where, without the dashboard's filters or series limit.
    const query = {
      groupBy: str(config.groupBy),
      ratio: config.asRatio === true,
      granularity,
      window: opts.window,
      extraFilters: [],
    };
    let r: { sql: string; columns: ResultColumns };
    if (ctx.source.kind === 'metric') {
      // The scheduler renders a metric tile as the chart does (gauge: last value per time series and bucket; sum:
      // per-period increase, the source read one bucket beyond each end), one window [W − interval, W) at a time, in
      // buckets of the interval aligned to the epoch, and keeps the buckets that start in the window. On the grid
      // a window is one bucket. Off it (an offset or start time) a window keeps one bucket, the one starting inside
      // it: a gauge's last value from the rows of that bucket up to the window's end; a sum's increases over the
      // whole bucket, a reading's previous one looked for back to two buckets before it (the window's read span).
      const off = opts.window;
      r = renderMetric(
        ctx,
        selectItems(config),
        { ...query, window: off, perBucket: off ? 2 : 1, widen: true, ...(off ? { rowWindow: off } : {}) },
        granularity,
      );
    } else {
      r = renderBuilder(ctx, { ...query, select: selectItems(config) });
    }
    return { ok: true, sql: r.sql, shape: 'timeseries', columns: r.columns, granularity, notes };
  } catch (e) {
    if (e instanceof Unsupported || e instanceof MacroError) return { ok: false, reason: e.message, notes };
    throw e;
  }
}

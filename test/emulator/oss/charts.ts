/**
 * `POST /api/v2/charts/series` and `POST /api/v2/search` of the self-hosted flavor, answered from the emulator's
 * embedded ClickHouse (the same sample tables the Cloud flavor's query host serves).
 *
 * Like HyperDX: up to 5 series over one time range, each `aggFn(field)` on a log or trace source, bucketed by
 * `granularity` (`auto`: about 60 buckets), optionally filtered by `where` and grouped by `groupBy` (every series the
 * same groupBy, else 400); rows merged by bucket and group into `{ts_bucket, group, "series_<i>.data"}`; a series
 * whose source does not exist is `404 {error: "Source not found for series <i>"}`.
 *
 * Search: rows of one log or trace source in a time window (ISO `startTime`/`endTime`, default the last 15 minutes),
 * `select` (default: the source's `defaultTableSelectExpression`), `orderBy` (default: newest first), `maxResults`
 * (default 100) and `offset`; `{data: rows, rows: n}`; errors `{message}` (a ClickHouse error is 400
 * `<TYPE>: <first line>`; `select` must not hold `;` or a SELECT).
 *
 * Metric sources, as HyperDX translates a metric series (`renderChartConfig`'s `translateMetricChartConfig`): the
 * series names its metric (`metricName`, else `field`) and its `metricDataType`; the source's table of that type is
 * read (`MetricName = <name>` and the series filter) into CTEs keyed by time series (the hash of the scope, resource and
 * point attributes) and bucket:
 * - gauge: the last value of each time series in each bucket, then `aggFn` over those values;
 * - sum: the increase of each reading (delta temporality: the value; cumulative: the difference to the previous
 *   reading of the same time series, negative differences clamped to 0), read one bucket beyond each end of the range,
 *   summed per time series and bucket, then `aggFn` over those increases; `increase` (the newest HyperDX only) sums
 *   them across the time series of each group, as `renderChartConfig` does (its top-groups limit for a grouped
 *   `increase` is not modelled); on any other metric type it fails with 500 as on the server.
 * The outer query keeps the buckets that start within [startTime, endTime] (both ends inclusive, as the server's time
 * filter): a bucket that starts before `startTime` is left out. `field` is not used for gauges and sums (the server
 * aggregates the bucketed values). Without a metric name or a type the server fails the request with 500
 * `no query support for metric type=<type>`, as here.
 *
 * - histogram: `quantile` (interpolated within the explicit bounds over the summed bucket-count increases) or `count`
 *   (the summed increases of `Count`); other aggregations fail with 500 as on the server.
 * What the emulator does not do: grouped histogram series answer 400 (the server answers them with the groups left
 * empty); `where` in Lucene only understands `field:value`, `field:"quoted value"`, `field:prefix*`, bare words
 * (searched in the source's implicit column) joined by AND/OR/NOT, and answers 400 for anything else. Values are
 * numbers (the spec's type; a live server may send numeric strings).
 */
import { ClickHouseEngine } from '../clickhouse/engine';
import { clickHouseError } from '../clickhouse/queryHost';
import { ApiFailure } from '../errors';
import type { EmulatorState, JsonObject } from '../types';
import { ossData } from './seed';

interface SeriesInput {
  sourceId: string;
  aggFn: string;
  field?: string;
  where: string;
  whereLanguage?: 'lucene' | 'sql';
  groupBy: string[];
  level?: number;
  metricName?: string;
  metricDataType?: string;
}

export interface SeriesRequest {
  series: SeriesInput[];
  startTime: number;
  endTime: number;
  granularity?: string;
}

const GRANULARITY_SECONDS: Record<string, number> = {
  '30s': 30,
  '1m': 60,
  '5m': 300,
  '10m': 600,
  '15m': 900,
  '30m': 1800,
  '1h': 3600,
  '2h': 7200,
  '6h': 21600,
  '12h': 43200,
  '1d': 86400,
  '2d': 172800,
  '7d': 604800,
  '30d': 2592000,
};

/** A failure answered as `{error: message}`, the charts route's own error shape. */
export class ChartsFailure extends ApiFailure {}

const quoteIdent = (s: string): string => `\`${s.replace(/`/g, '``')}\``;
const quoteString = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function autoStep(rangeMs: number): number {
  const want = rangeMs / 1000 / 60;
  const steps = Object.values(GRANULARITY_SECONDS).sort((a, b) => a - b);
  return steps.find((s) => s >= want) ?? (steps.at(-1) as number);
}

/** `Field` → a column; `a.b` on a source with attribute maps → `LogAttributes['a.b']`-style lookups are not emulated. */
function columnOf(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new ChartsFailure(400, `The emulator only understands plain column names in where, not "${name}"`);
  }
  return quoteIdent(name);
}

/** The small Lucene subset described at the top of this file, as SQL. */
export function luceneToSql(where: string, implicitColumn: string): string {
  const tokens = where.match(/[A-Za-z_][A-Za-z0-9_]*:"(?:[^"\\]|\\.)*"|"(?:[^"\\]|\\.)*"|\S+/g) ?? [];
  const out: string[] = [];
  let op = 'AND';
  let negateNext = false;
  for (const token of tokens) {
    if (token === 'AND' || token === 'OR') {
      op = token;
      continue;
    }
    if (token === 'NOT') {
      negateNext = true;
      continue;
    }
    let negate = negateNext;
    negateNext = false;
    let t = token;
    if (t.startsWith('-') && t.length > 1) {
      negate = true;
      t = t.slice(1);
    }
    const unquote = (v: string): string =>
      v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? (JSON.parse(v) as string) : v;
    let cond: string;
    const colon = /^([A-Za-z_][A-Za-z0-9_]*):(.+)$/.exec(t);
    if (colon) {
      const col = columnOf(colon[1] as string);
      const value = unquote(colon[2] as string);
      cond = value.endsWith('*')
        ? `startsWith(toString(${col}), ${quoteString(value.slice(0, -1))})`
        : `toString(${col}) = ${quoteString(value)}`;
    } else {
      const word = unquote(t);
      if (/[():[\]{}]/.test(word)) {
        throw new ChartsFailure(400, `The emulator does not understand the Lucene query near "${word}"`);
      }
      cond = `positionCaseInsensitive(toString(${implicitColumn}), ${quoteString(word)}) > 0`;
    }
    out.push(`${out.length > 0 ? `${op} ` : ''}${negate ? 'NOT ' : ''}(${cond})`);
    op = 'AND';
  }
  return out.length > 0 ? out.join(' ') : '1';
}

function aggregate(s: SeriesInput, ts: string): string {
  const field = s.field?.trim() ?? '';
  const value = field === '' ? '' : field;
  const need = (): string => {
    if (value === '') throw new ChartsFailure(400, `aggFn ${s.aggFn} needs a field`);
    return value;
  };
  switch (s.aggFn) {
    case 'count':
      return 'toFloat64(count())';
    case 'count_distinct':
      return `toFloat64(uniq(${need()}))`;
    case 'avg':
    case 'max':
    case 'min':
    case 'sum':
      return `toFloat64(${s.aggFn}(toFloat64(${need()})))`;
    case 'last_value':
      return `toFloat64(argMax(toFloat64(${need()}), ${ts}))`;
    case 'quantile': {
      const level = typeof s.level === 'number' && s.level > 0 && s.level < 1 ? s.level : 0.5;
      return `toFloat64(quantile(${level})(toFloat64(${need()})))`;
    }
    default:
      throw new ChartsFailure(400, `Unknown aggFn ${s.aggFn}`);
  }
}

/** The rows of `sql`; `frozenNow` is the emulator's frozen clock (EmulatorOptions.now), if any. */
async function rows(
  engine: ClickHouseEngine,
  sql: string,
  database: string,
  frozenNow?: number,
): Promise<JsonObject[]> {
  const chunks: Uint8Array[] = [];
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 30_000);
  try {
    await engine.run(
      sql,
      'JSONEachRow',
      database,
      abort.signal,
      () => undefined,
      (bytes) => {
        chunks.push(bytes);
        return Promise.resolve(true);
      },
      {},
      frozenNow,
    );
  } finally {
    clearTimeout(timer);
  }
  const text = Buffer.concat(chunks.map((c) => Buffer.from(c))).toString('utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as JsonObject);
}

/** HyperDX's `auto` granularity (`convertDateRangeToGranularityString`, at most 60 buckets), in seconds. */
function hyperdxAutoStep(rangeMs: number): number {
  const want = Math.ceil(Math.floor(rangeMs / 1000) / 60);
  const steps = [15, 30, 60, 300, 900, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 604800, 2592000];
  return steps.find((x) => want <= x) ?? 2592000;
}

/** HyperDX's aggregation of a bucketed metric value (`aggFnExpr` without a condition). */
function metricAggregate(s: SeriesInput, value: string): string {
  const num = `toFloat64OrDefault(toString(${value}))`;
  switch (s.aggFn) {
    case 'count':
      return 'count()';
    case 'count_distinct':
      return `count(DISTINCT ${value})`;
    case 'quantile': {
      const level = typeof s.level === 'number' && Number.isFinite(s.level) ? s.level : 0;
      return `quantile(${level})(${num})`;
    }
    case 'avg':
    case 'max':
    case 'min':
    case 'sum':
    case 'last_value':
      return `${s.aggFn}(${num})`;
    // A sum metric's increase: the per-bucket increases summed across the time series of a group.
    case 'increase':
      return `sum(${num})`;
    default:
      throw new ChartsFailure(400, `Unknown aggFn ${s.aggFn}`);
  }
}

const GAUGE_ANY = [
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
const SUM_ANY = [
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
 * A histogram series as HyperDX runs it (`histogram.ts`): per time series (attribute and bounds hash) the increase of
 * each bucket count (delta temporality: the counts; cumulative: the difference to the previous point, the counts
 * again after a reset, nothing for the first point), summed per bucket; `quantile` interpolates within the explicit
 * bound that holds the rank, `count` sums the increases of `Count`.
 */
function histogramSql(
  s: SeriesInput,
  q: { tableRef: string; where: string; interval: string; col: string; from: string; to: string },
): string {
  const bucket = `toStartOfInterval(toDateTime(${q.col}), ${q.interval}) AS \`__hdx_time_bucket\``;
  const hash = 'cityHash64(ScopeAttributes, ResourceAttributes, Attributes)';
  let ctes: string;
  if (s.aggFn === 'count') {
    ctes =
      `source AS (SELECT TimeUnix, AggregationTemporality, ${bucket}, ${hash} AS attr_hash, cityHash64(ExplicitBounds) AS bounds_hash, ` +
      'toInt64(Count) AS current_count, lagInFrame(toNullable(current_count), 1, NULL) OVER (PARTITION BY attr_hash, bounds_hash, AggregationTemporality ORDER BY TimeUnix) AS prev_count, ' +
      'CASE WHEN AggregationTemporality = 1 THEN current_count WHEN AggregationTemporality = 2 AND prev_count IS NOT NULL THEN if(current_count < prev_count, current_count, current_count - prev_count) ELSE 0 END AS delta ' +
      `FROM ${q.tableRef} WHERE ${q.where}), ` +
      'metrics AS (SELECT `__hdx_time_bucket`, sum(delta) AS v FROM source GROUP BY `__hdx_time_bucket`)';
  } else {
    const level = Number(s.level);
    ctes =
      `source AS (SELECT MetricName, ExplicitBounds, ${bucket}, sumForEach(deltas) AS rates FROM (` +
      'SELECT TimeUnix, MetricName, ExplicitBounds, attr_hash, any(attr_hash) OVER prev_row AS prev_attr_hash, ' +
      'count() OVER prev_row = 0 OR prev_attr_hash != attr_hash AS is_first_series_point, ' +
      'any(bounds_hash) OVER prev_row AS prev_bounds_hash, any(counts) OVER prev_row AS prev_counts, counts, ' +
      'multiIf(AggregationTemporality = 2 AND is_first_series_point, arrayWithConstant(length(counts), toInt64(0)), ' +
      'AggregationTemporality = 1 OR bounds_hash != prev_bounds_hash OR arrayExists((x) -> x.2 < x.1, arrayZip(prev_counts, counts)), counts, ' +
      'counts - prev_counts) AS deltas FROM (' +
      `SELECT TimeUnix, MetricName, AggregationTemporality, ExplicitBounds, ResourceAttributes, Attributes, ${hash} AS attr_hash, ` +
      `cityHash64(ExplicitBounds) AS bounds_hash, CAST(BucketCounts AS Array(Int64)) counts FROM ${q.tableRef} WHERE ${q.where} ` +
      'ORDER BY attr_hash, TimeUnix ASC) WINDOW prev_row AS (ORDER BY attr_hash, TimeUnix ROWS BETWEEN 1 PRECEDING AND 1 PRECEDING)) ' +
      'GROUP BY `__hdx_time_bucket`, MetricName, ExplicitBounds ORDER BY `__hdx_time_bucket`), ' +
      'points AS (SELECT `__hdx_time_bucket`, MetricName, arrayZipUnaligned(arrayCumSum(rates), ExplicitBounds) AS point, length(point) AS n FROM source), ' +
      'metrics AS (SELECT `__hdx_time_bucket`, MetricName, point[n].1 AS total, ' +
      `toFloat64(${Number.isFinite(level) ? level : 0}) * total AS rank, arrayFirstIndex(x -> if(x.1 > rank, 1, 0), point) AS upper_idx, ` +
      'point[upper_idx].1 AS upper_count, ifNull(point[upper_idx].2, inf) AS upper_bound, ' +
      'CASE WHEN upper_idx > 1 THEN point[upper_idx - 1].2 WHEN point[upper_idx].2 > 0 THEN 0 ELSE inf END AS lower_bound, ' +
      'if(lower_bound = 0, 0, point[upper_idx - 1].1) AS lower_count, ' +
      'CASE WHEN upper_bound = inf THEN point[upper_idx - 1].2 WHEN lower_bound = inf THEN point[1].2 ' +
      'ELSE lower_bound + (upper_bound - lower_bound) * ((rank - lower_count) / (upper_count - lower_count)) END AS v ' +
      'FROM points WHERE length(point) > 1 AND total > 0)';
  }
  return [
    `WITH ${ctes}`,
    'SELECT toInt64(toUnixTimestamp(`__hdx_time_bucket`)) * 1000 AS ts_bucket, toFloat64(v) AS v FROM metrics',
    `WHERE \`__hdx_time_bucket\` >= ${q.from} AND \`__hdx_time_bucket\` <= ${q.to}`,
    'ORDER BY ts_bucket',
    'LIMIT 100000',
    "SETTINGS short_circuit_function_evaluation = 'force_enable'",
  ].join(' ');
}

/** One metric series as the SQL HyperDX runs for it (see the top of this file); rows `{ts_bucket, g<k>, v}`. */
function metricSeriesSql(
  source: JsonObject,
  s: SeriesInput,
  i: number,
  q: { database: string; cond: string; groups: string[]; startTime: number; endTime: number; step: number },
): string {
  const type = s.metricDataType;
  // The server reads the metric name from `field` when `metricName` is missing.
  const name = s.metricName ?? s.field;
  const tables = (source.metricTables ?? {}) as Record<string, unknown>;
  const table = type !== undefined ? tables[type] : undefined;
  if (!name || typeof table !== 'string' || table === '') {
    throw new ChartsFailure(500, `no query support for metric type=${String(type)}`);
  }
  if (type !== 'gauge' && type !== 'sum' && type !== 'histogram') {
    throw new ChartsFailure(500, `no query support for metric type=${type}`);
  }
  if (s.aggFn === 'increase' && type !== 'sum') {
    throw new ChartsFailure(
      500,
      `aggFn 'increase' is only supported for Sum (counter) metrics (got metricType=${String(type)})`,
    );
  }
  if (type === 'histogram') {
    if (q.groups.length > 0) {
      throw new ChartsFailure(400, `The emulator does not chart grouped histogram metrics (series ${i})`);
    }
    if (s.aggFn === 'quantile' && typeof s.level !== 'number') {
      throw new ChartsFailure(500, 'quantile must have a level');
    }
    if (s.aggFn !== 'quantile' && s.aggFn !== 'count') {
      throw new ChartsFailure(500, `${s.aggFn} is not supported for histograms currently`);
    }
  }
  const ts = String(source.timestampValueExpression ?? '') || 'TimeUnix';
  const col = ts.split(',')[0]!.trim();
  const interval = `INTERVAL ${q.step} SECOND`;
  const from = `fromUnixTimestamp64Milli(toInt64(${Math.floor(q.startTime)}))`;
  const to = `fromUnixTimestamp64Milli(toInt64(${Math.floor(q.endTime)}))`;
  // Sums are read one bucket beyond each end, so the first reading in the range has one before it.
  const range =
    type !== 'gauge'
      ? `${col} >= toStartOfInterval(${from}, ${interval}) - ${interval} AND ${col} <= toStartOfInterval(${to}, ${interval}) + ${interval}`
      : `${col} >= ${from} AND ${col} <= ${to}`;
  const where = `(${range}) AND ${q.cond} AND (MetricName = ${quoteString(name)})`;
  const tableRef = `${quoteIdent(q.database)}.${quoteIdent(table)}`;
  const bucket2 = `toStartOfInterval(toDateTime(${col}), ${interval}) AS \`__hdx_time_bucket2\``;
  const hash = 'cityHash64(ScopeAttributes, ResourceAttributes, Attributes) AS AttributesHash';
  if (type === 'histogram') return histogramSql(s, { tableRef, where, interval, col, from, to });
  let ctes: string;
  let value: string;
  if (type === 'gauge') {
    ctes =
      `Source AS (SELECT *, ${hash} FROM ${tableRef} WHERE ${where}), ` +
      `Bucketed AS (SELECT ${bucket2}, AttributesHash, last_value(Value) AS LastValue, ` +
      `${GAUGE_ANY.map((c) => `any(${c}) AS ${c}`).join(', ')} FROM Source ` +
      'GROUP BY AttributesHash, __hdx_time_bucket2 ORDER BY AttributesHash, __hdx_time_bucket2)';
    value = 'LastValue';
  } else {
    ctes =
      `Source AS (SELECT *, ${hash}, ` +
      'IF(AggregationTemporality = 1, Value, greatest(Value - lagInFrame(toNullable(Value), 1, NULL) OVER (PARTITION BY AttributesHash ORDER BY TimeUnix), 0)) AS Rate, ' +
      'IF(AggregationTemporality = 1, SUM(Value) OVER (PARTITION BY AttributesHash ORDER BY TimeUnix ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), Value) AS Sum ' +
      `FROM ${tableRef} WHERE ${where}), ` +
      `Bucketed AS (SELECT \`__hdx_time_bucket2\`, AttributesHash, Rate, Sum, ${SUM_ANY.join(', ')} FROM (` +
      `SELECT ${bucket2}, AttributesHash, sum(Source.Rate) AS Rate, argMax(Source.Sum, TimeUnix) AS Sum, ` +
      `${SUM_ANY.map((c) => `any(${c}) AS ${c}`).join(', ')} FROM Source ` +
      'GROUP BY AttributesHash, `__hdx_time_bucket2` ORDER BY AttributesHash, `__hdx_time_bucket2`))';
    value = 'Rate';
  }
  return [
    `WITH ${ctes}`,
    `SELECT toInt64(toUnixTimestamp(toStartOfInterval(toDateTime(\`__hdx_time_bucket2\`), ${interval}))) * 1000 AS ts_bucket`,
    ...q.groups.map((g) => `, ${g}`),
    `, toFloat64(${metricAggregate(s, value)}) AS v`,
    'FROM Bucketed',
    `WHERE \`__hdx_time_bucket2\` >= ${from} AND \`__hdx_time_bucket2\` <= ${to}`,
    `GROUP BY ts_bucket${q.groups.map((_g, k) => `, g${k}`).join('')}`,
    'ORDER BY ts_bucket',
    'LIMIT 100000',
    "SETTINGS short_circuit_function_evaluation = 'force_enable'",
  ].join(' ');
}

/** Answers a series request (already checked against the OSS spec) with the `data` rows. */
export async function chartSeries(
  state: EmulatorState,
  body: SeriesRequest,
  frozenNow?: number,
): Promise<JsonObject[]> {
  const { series, startTime, endTime } = body;
  for (const [name, v] of [
    ['startTime', startTime],
    ['endTime', endTime],
  ] as const) {
    if (!Number.isInteger(v) || v <= 0 || String(v).length < 13) {
      throw new ChartsFailure(400, `Body validation failed: ${name}: Timestamp must be in milliseconds`);
    }
  }
  if (endTime <= startTime) throw new ChartsFailure(400, 'Body validation failed: endTime: must be after startTime');
  const groupKey = JSON.stringify(series[0]?.groupBy ?? []);
  if (series.some((s) => JSON.stringify(s.groupBy ?? []) !== groupKey)) {
    throw new ChartsFailure(400, 'All series must have the same groupBy fields');
  }
  const step =
    body.granularity && body.granularity !== 'auto'
      ? (GRANULARITY_SECONDS[body.granularity] as number)
      : autoStep(endTime - startTime);
  const sources = ossData(state).sources;
  const engine = await ClickHouseEngine.shared();
  const merged = new Map<string, JsonObject>();
  for (let i = 0; i < series.length; i++) {
    const s = series[i] as SeriesInput;
    const source = sources.get(s.sourceId);
    if (!source) throw new ChartsFailure(404, `Source not found for series ${i}`);
    const from = (source.from ?? {}) as { databaseName?: string; tableName?: string };
    const database = String(from.databaseName ?? '');
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) {
      throw new ChartsFailure(400, `Source of series ${i} has no usable database`);
    }
    engine.ensureDatabase(database);
    const ts = String(source.timestampValueExpression ?? 'Timestamp');
    const implicit = String(source.implicitColumnExpression ?? 'Body');
    const where = s.where?.trim() ?? '';
    const cond = where === '' ? '1' : s.whereLanguage === 'sql' ? `(${where})` : `(${luceneToSql(where, implicit)})`;
    const groups = (s.groupBy ?? []).map((g, k) => `toString(${g}) AS ${quoteIdent(`g${k}`)}`);
    const sql =
      source.kind === 'metric'
        ? metricSeriesSql(source, s, i, {
            database,
            cond,
            groups,
            startTime,
            endTime,
            step: body.granularity && body.granularity !== 'auto' ? step : hyperdxAutoStep(endTime - startTime),
          })
        : [
            `SELECT toInt64(toUnixTimestamp(toDateTime(toStartOfInterval(${ts}, INTERVAL ${step} SECOND)))) * 1000 AS ts_bucket`,
            ...groups.map((g) => `, ${g}`),
            `, ${aggregate(s, ts)} AS v`,
            `FROM ${quoteIdent(database)}.${quoteIdent(String(from.tableName ?? ''))}`,
            `WHERE ${ts} >= fromUnixTimestamp64Milli(toInt64(${Math.floor(startTime)})) AND ${ts} < fromUnixTimestamp64Milli(toInt64(${Math.floor(endTime)})) AND ${cond}`,
            `GROUP BY ts_bucket${groups.map((_g, k) => `, g${k}`).join('')}`,
            'ORDER BY ts_bucket',
            'LIMIT 100000',
          ].join(' ');
    let out: JsonObject[];
    try {
      out = await rows(engine, sql, database, frozenNow);
    } catch (e) {
      if (e instanceof ApiFailure) throw e;
      throw new ChartsFailure(400, clickHouseError(e).details);
    }
    for (const r of out) {
      const group = (s.groupBy ?? []).map((_g, k) => String(r[`g${k}`] ?? ''));
      const tsBucket = Number(r.ts_bucket);
      const key = `${tsBucket}|${group.join('|')}`;
      let row = merged.get(key);
      if (!row) {
        row = { ts_bucket: tsBucket, group };
        merged.set(key, row);
      }
      row[`series_${i}.data`] = Number(r.v);
    }
  }
  return [...merged.values()].sort((a, b) => (a.ts_bucket as number) - (b.ts_bucket as number));
}

export interface SearchRequest {
  sourceId: string;
  startTime?: string;
  endTime?: string;
  where?: string;
  whereLanguage?: 'lucene' | 'sql';
  select?: string;
  orderBy?: string;
  maxResults?: number;
  offset?: number;
}

/**
 * Answers a search request (already checked against the OSS spec) with `{data, rows}`. `frozenNow` is the emulator's
 * frozen clock (EmulatorOptions.now), if any: the end of a search without `endTime` and the end of the data.
 */
export async function searchRows(
  state: EmulatorState,
  body: SearchRequest,
  frozenNow?: number,
): Promise<{ data: JsonObject[]; rows: number }> {
  const now = frozenNow ?? Date.now();
  const source = ossData(state).sources.get(body.sourceId);
  if (!source) throw new ApiFailure(404, 'Source not found');
  if (source.kind !== 'log' && source.kind !== 'trace') {
    throw new ApiFailure(400, `Search is not supported for ${String(source.kind)} sources`);
  }
  const end = body.endTime ? Date.parse(body.endTime) : now;
  const start = body.startTime ? Date.parse(body.startTime) : end - 15 * 60_000;
  if (!(start < end)) throw new ApiFailure(400, 'startTime must be before endTime');
  const select = body.select?.trim() || String(source.defaultTableSelectExpression ?? '*');
  if (/;|\bselect\b/i.test(body.select ?? '')) {
    throw new ApiFailure(
      400,
      'Body validation failed: select: select must not contain semicolons or SELECT subqueries; use column expressions only',
    );
  }
  const ts = String(source.timestampValueExpression ?? 'Timestamp');
  const orderBy = body.orderBy?.trim() || `${ts} DESC`;
  if (/;|\bselect\b/i.test(orderBy)) {
    throw new ApiFailure(400, 'Body validation failed: orderBy: must be a column expression');
  }
  const from = (source.from ?? {}) as { databaseName?: string; tableName?: string };
  const database = String(from.databaseName ?? '');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) throw new ApiFailure(400, 'The source has no usable database');
  const where = body.where?.trim() ?? '';
  let cond = '1';
  try {
    if (where !== '') {
      cond =
        body.whereLanguage === 'sql'
          ? `(${where})`
          : `(${luceneToSql(where, String(source.implicitColumnExpression ?? 'Body'))})`;
    }
  } catch (e) {
    throw new ApiFailure(400, e instanceof Error ? e.message : String(e));
  }
  const engine = await ClickHouseEngine.shared();
  engine.ensureDatabase(database);
  const sql = [
    `SELECT ${select}`,
    `FROM ${quoteIdent(database)}.${quoteIdent(String(from.tableName ?? ''))}`,
    `WHERE ${ts} >= fromUnixTimestamp64Milli(toInt64(${Math.floor(start)})) AND ${ts} < fromUnixTimestamp64Milli(toInt64(${Math.floor(end)})) AND ${cond}`,
    `ORDER BY ${orderBy}`,
    `LIMIT ${Math.floor(body.maxResults ?? 100)} OFFSET ${Math.floor(body.offset ?? 0)}`,
  ].join(' ');
  let out: JsonObject[];
  try {
    out = await rows(engine, sql, database, frozenNow);
  } catch (e) {
    const details = clickHouseError(e).details;
    const type = /\(([A-Z_]+)\)\s*$/.exec(details.split('\n')[0] ?? '')?.[1] ?? 'QUERY_ERROR';
    throw new ApiFailure(400, `${type}: ${(details.split('\n')[0] ?? '').slice(0, 300)}`);
  }
  return { data: out, rows: out.length };
}

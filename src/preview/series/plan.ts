/**
 * The "series route" of previews (pure: no `vscode`, no network): a tile as the body of a self-hosted deployment's
 * `POST /api/v2/charts/series` (builder tiles) or `POST /api/v2/search` (search tiles), for deployments that give no
 * SQL access to their ClickHouse. The Cloud renders the same tile to SQL (`../render`); both feed the same panels.
 *
 * What the chart series API can express, and so what is previewed through it:
 * - up to 5 series, each `aggFn(field)` with its own filter (Lucene or SQL), the same group-by for all, over one time
 *   range in buckets of one of the API's granularities;
 * - number, table, pie and bar tiles need one value per group over the whole range: they are asked in a single bucket
 *   (the smallest of 1, 2, 7 or 30 days, aligned as the server aligns them, that holds the range); a range that no
 *   bucket holds is refused;
 * - search tiles go through the search API (rows of the source, newest first); event pattern tiles through the
 *   search API (a random sample of up to 2,000 rows) and a count series (the total the counts are scaled to).
 * What it cannot express is refused with the reason (never shown as other numbers): raw SQL tiles, formulas, ratio
 * tiles, HAVING, more than 5 series, a value expression with a "." (the server reads it as a text literal), gauge
 * series with a per-period delta, heatmaps, dashboard filters in another language than the series
 * filter, and metric number, table, pie and bar tiles (the server keeps only the metric buckets that start within the
 * range, so no single bucket holds it). What it leaves out is said in the notes (the series limit, the previous-period comparison, an order of a
 * table it cannot apply).
 */
import { SERIES_AGG_FNS, type SearchRequest, type SeriesQuery, type SeriesRequest } from '../../api/oss';
import { dashboardFiltersForTile, type DashboardLike, type TileFilter } from '../../render/filters';
import {
  alignedRange,
  autoGranularity,
  granularityFromSeconds,
  splitTopLevel,
  TIME_CHART_MAX_BUCKETS,
} from '../../render/sql';
import { eventLevelOf, noConfigReason, patternColumnOf, type SourceLike, type TileLike } from '../../render/tile';

/** The API's bucket sizes in seconds (without `auto`: the preview picks the size, so it knows the buckets). */
export const SERIES_STEPS: readonly (readonly [SeriesGranularityName, number])[] = [
  ['30s', 30],
  ['1m', 60],
  ['5m', 300],
  ['10m', 600],
  ['15m', 900],
  ['30m', 1800],
  ['1h', 3600],
  ['2h', 7200],
  ['6h', 21600],
  ['12h', 43200],
  ['1d', 86400],
  ['2d', 172800],
  ['7d', 604800],
  ['30d', 2592000],
];
export type SeriesGranularityName =
  '30s' | '1m' | '5m' | '10m' | '15m' | '30m' | '1h' | '2h' | '6h' | '12h' | '1d' | '2d' | '7d' | '30d';

/** Bucket sizes that can hold a whole range in one bucket (day multiples: aligned to the epoch by the server). */
const SINGLE_BUCKET_STEPS = SERIES_STEPS.filter(([, s]) => s >= 86400);

/** Aggregations the chart series API has (the client's request schema lists them). */
const API_AGG_FNS: ReadonlySet<string> = new Set(SERIES_AGG_FNS);

export type SeriesShape = 'timeseries' | 'number' | 'table' | 'categories';

export type SeriesPlan =
  | {
      ok: true;
      route: 'series';
      shape: SeriesShape;
      body: SeriesRequest;
      /** Label of each series, in order (alias, or `fn(field)`). */
      labels: string[];
      /** The group-by expressions, in order. */
      groupBy: string[];
      /** Bucket size, ms. */
      stepMs: number;
      /** Tables: the value column to order by (index into `labels`) or the group-by column, and the direction. */
      order?: { by: { value: number } | { group: number }; desc: boolean } | undefined;
      /** Tables: the rows shown. */
      limit?: number | undefined;
      notes: string[];
    }
  | {
      ok: true;
      route: 'search';
      body: SearchRequest;
      /** The row key holding the time (the source's first timestamp column). */
      timeKey: string | undefined;
      notes: string[];
    }
  | {
      ok: true;
      route: 'patterns';
      /** A random sample of the tile's rows (pattern column, first timestamp, level when the source has one). */
      search: SearchRequest;
      /** The tile's count over the range as HyperDX's count chart reads it (the buckets are summed). */
      count: SeriesRequest;
      /** The range as picked (the trend's buckets). */
      range: { from: number; to: number };
      level: boolean;
      notes: string[];
    }
  | { ok: true; route: 'markdown'; markdown: string; notes: string[] }
  | { ok: false; reason: string; notes: string[] };

export interface SeriesPlanOptions {
  range: { from: number; to: number };
  source: SourceLike | undefined;
  dashboard?: DashboardLike | undefined;
  /** Rows of a search tile (default 200, as the SQL route). */
  searchLimit?: number | undefined;
  /** Rows of a table tile (default 200). */
  tableLimit?: number | undefined;
}

/** Why a tile cannot go through the series route; its message is the reason shown in the panel. */
export class NotOnSeriesRoute extends Error {}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

interface SelectItem {
  aggFn?: string;
  level?: number;
  valueExpression?: string;
  alias?: string;
  where?: string;
  whereLanguage?: string;
  metricName?: string;
  metricType?: string;
  periodAggFn?: string;
}

/** Rows one search request returns at most (the API's `maxResults` maximum). */
export const PATTERN_SEARCH_ROWS = 2000;

/**
 * An event pattern tile through the self-hosted API: the rows of the range as picked, in random order as HyperDX's
 * sample query orders them (`orderBy: "rand() DESC"`; the search API takes a ClickHouse ORDER BY expression), up to
 * the API's 2,000 (HyperDX's dashboard samples 10,000); and the total count as a count series over the range aligned
 * to the 80-bucket granularity (end excluded: asked to the millisecond before it), its buckets summed.
 */
function planPatterns(
  config: Record<string, unknown>,
  sourceId: string,
  source: SourceLike,
  range: { from: number; to: number },
  filters: readonly TileFilter[],
  notes: string[],
): SeriesPlan {
  if (source.kind !== 'log' && source.kind !== 'trace') {
    throw new NotOnSeriesRoute(
      `event pattern tiles on ${source.kind ?? 'unknown'} sources are not previewed (the search API reads logs and traces)`,
    );
  }
  const body = patternColumnOf(config.select, source);
  if (!nonEmpty(body)) {
    throw new NotOnSeriesRoute('the source has no body expression for the patterns (bodyExpression)');
  }
  const ts = splitTopLevel(str(source.timestampValueExpression) ?? '')[0];
  if (!ts) throw new NotOnSeriesRoute('the source has no timestamp expression');
  const level = eventLevelOf(source);
  const filtered = withFilters(
    str(config.where) ?? '',
    str(config.whereLanguage) === 'sql' ? 'sql' : 'lucene',
    filters,
  );
  const where = filtered.where.trim()
    ? { where: filtered.where, whereLanguage: filtered.whereLanguage ?? 'lucene' }
    : {};
  const search: SearchRequest = {
    sourceId,
    startTime: new Date(range.from).toISOString(),
    endTime: new Date(range.to).toISOString(),
    ...where,
    select: [
      `${body} AS __hdx_pattern_field`,
      `${ts} AS __hdx_timestamp`,
      ...(level ? [`${level} AS __hdx_severity_text`] : []),
    ].join(', '),
    orderBy: 'rand() DESC',
    maxResults: PATTERN_SEARCH_ROWS,
  };
  const g = autoGranularity(range.from, range.to, TIME_CHART_MAX_BUCKETS);
  const aligned = config.alignDateRangeToGranularity !== false;
  const counted = aligned ? alignedRange(range.from, range.to, g) : range;
  const endInclusive = !aligned && config.dateRangeEndInclusive === true;
  const count: SeriesRequest = {
    series: [{ sourceId, aggFn: 'count', groupBy: [], where: '', ...where }],
    startTime: Math.floor(counted.from),
    endTime: Math.ceil(endInclusive ? counted.to : counted.to - 1),
    granularity: seriesStepFor(g.seconds)[0],
  };
  return { ok: true, route: 'patterns', search, count, range, level: level !== undefined, notes };
}

/** The API bucket that is at least `seconds` long (the largest when none is). */
export function seriesStepFor(seconds: number): readonly [SeriesGranularityName, number] {
  return SERIES_STEPS.find(([, s]) => s >= seconds) ?? SERIES_STEPS[SERIES_STEPS.length - 1]!;
}

/**
 * The granularity of a time-series preview: a dashboard time chart's automatic choice (at most 80 buckets), rounded
 * up to a bucket the API has (15 seconds becomes 30).
 */
export function seriesGranularity(range: { from: number; to: number }): readonly [SeriesGranularityName, number] {
  return seriesStepFor(autoGranularity(range.from, range.to, TIME_CHART_MAX_BUCKETS).seconds);
}

/** The smallest day-multiple bucket (epoch-aligned) holding [from, to]; undefined when none does. */
export function singleBucket(range: {
  from: number;
  to: number;
}): readonly [SeriesGranularityName, number] | undefined {
  return SINGLE_BUCKET_STEPS.find(([, s]) => Math.floor(range.from / (s * 1000)) === Math.floor(range.to / (s * 1000)));
}

function labelOf(item: SelectItem, source: SourceLike | undefined): string {
  if (nonEmpty(item.alias)) return item.alias;
  // ClickStack names a sum metric's value "Value" (as the SQL route draws it).
  if (source?.kind === 'metric' && item.metricType === 'sum') return 'Value';
  const fn = item.aggFn ?? '';
  if (fn === 'count') return 'count()';
  if (fn === 'quantile') return `quantile(${item.level ?? ''})(${item.valueExpression ?? ''})`;
  if (fn === 'none' || fn === '') return item.valueExpression ?? '';
  return `${fn}(${item.valueExpression ?? ''})`;
}

/** `(a) AND (b)` in either language; empty parts are left out. */
function both(a: string, b: string): string {
  if (!a.trim()) return b;
  if (!b.trim()) return a;
  return `(${a}) AND (${b})`;
}

/** Folds filters into a series filter when they share its language (or it has none). */
function withFilters(
  where: string,
  language: 'lucene' | 'sql' | undefined,
  filters: readonly TileFilter[],
): { where: string; whereLanguage: 'lucene' | 'sql' | undefined } {
  let out = where;
  let lang = language;
  for (const f of filters) {
    const own = out.trim() === '' ? undefined : (lang ?? 'lucene');
    if (own !== undefined && own !== f.language) {
      throw new NotOnSeriesRoute(
        `a dashboard filter in ${f.language === 'sql' ? 'SQL' : 'Lucene'} cannot be combined with a ${own === 'sql' ? 'SQL' : 'Lucene'} series filter through the chart series API`,
      );
    }
    out = both(out, f.condition);
    lang = f.language;
  }
  return { where: out, whereLanguage: lang };
}

/** One select item as an API series. */
export function seriesOf(
  item: SelectItem,
  index: number,
  sourceId: string,
  source: SourceLike | undefined,
  groupBy: string[],
): SeriesQuery {
  const n = index + 1;
  const fn = item.aggFn;
  if (!fn) throw new NotOnSeriesRoute(`series ${n} has no aggregation`);
  if (!API_AGG_FNS.has(fn)) throw new NotOnSeriesRoute(`the aggregation "${fn}" is not one the chart series API has`);
  const metric = source?.kind === 'metric';
  if (metric) {
    if (!nonEmpty(item.metricName)) throw new NotOnSeriesRoute(`metric series ${n} names no metric`);
    // The server applies a per-period delta to gauges only (sums are counted per reading either way), and the
    // chart series API has no field for it.
    if (item.metricType === 'histogram') {
      if (fn !== 'quantile' && fn !== 'count') {
        throw new NotOnSeriesRoute(
          `the chart series API answers histogram series with quantile or count only, not ${fn}`,
        );
      }
      // The server reads the groups of its histogram rows from columns the histogram query does not have.
      if (groupBy.length > 0) {
        throw new NotOnSeriesRoute(
          'grouped histogram series cannot be previewed through the chart series API: the server answers them without their groups',
        );
      }
    }
    if (item.periodAggFn === 'delta' && item.metricType === 'gauge') {
      throw new NotOnSeriesRoute(
        'gauge series with a per-period delta cannot be previewed through the chart series API (it has no field for the delta)',
      );
    }
  }
  const expr = (item.valueExpression ?? '').trim();
  // The server reads a field holding a "." as a text literal ('a.b'), not as the column or expression.
  const sendField = fn !== 'count' && expr !== '' && !(metric && expr === 'Value');
  if (sendField && expr.includes('.')) {
    throw new NotOnSeriesRoute(
      `the value "${expr}" holds a ".", which the chart series API reads as a text, not as a column or expression`,
    );
  }
  if (!sendField && fn !== 'count' && !metric) throw new NotOnSeriesRoute(`series ${n} ("${fn}") has no value`);
  const language = item.whereLanguage === 'sql' || item.whereLanguage === 'lucene' ? item.whereLanguage : undefined;
  const out: SeriesQuery = {
    sourceId,
    aggFn: fn as SeriesQuery['aggFn'],
    where: item.where ?? '',
    groupBy,
    ...(language ? { whereLanguage: language } : {}),
    ...(fn === 'quantile' ? { level: typeof item.level === 'number' ? item.level : 0.5 } : {}),
    ...(sendField ? { field: expr } : {}),
    ...(metric ? { metricName: item.metricName } : {}),
    ...(metric && (item.metricType === 'gauge' || item.metricType === 'sum' || item.metricType === 'histogram')
      ? { metricDataType: item.metricType }
      : {}),
  };
  return out;
}

function selectItems(config: Record<string, unknown>): SelectItem[] {
  const select = config.select;
  if (!Array.isArray(select) || select.length === 0) throw new NotOnSeriesRoute('the tile has no series (select)');
  if (select.length > 5) {
    throw new NotOnSeriesRoute(`the chart series API takes up to 5 series; the tile has ${select.length}`);
  }
  return select.map((s) => (s !== null && typeof s === 'object' ? (s as SelectItem) : {}));
}

/** A table's ORDER BY the preview can apply: `"<alias>" [ASC|DESC]` or one of the group-by expressions. */
function tableOrder(
  orderBy: string | undefined,
  labels: string[],
  groupBy: string[],
  notes: string[],
): { by: { value: number } | { group: number }; desc: boolean } | undefined {
  if (!nonEmpty(orderBy)) return groupBy.length > 0 ? { by: { group: 0 }, desc: false } : undefined;
  const m = /^\s*(?:"([^"]+)"|`([^`]+)`|(.+?))\s*(ASC|DESC)?\s*$/i.exec(orderBy);
  const name = m ? (m[1] ?? m[2] ?? m[3] ?? '').trim() : '';
  const desc = (m?.[4] ?? '').toUpperCase() === 'DESC';
  const value = labels.indexOf(name);
  if (value >= 0) return { by: { value }, desc };
  const group = groupBy.indexOf(name);
  if (group >= 0) return { by: { group }, desc };
  notes.push(`the order "${orderBy}" is not applied (the chart series API has none)`);
  return undefined;
}

/** The series-route request of a tile, or the reason it has none. Never throws for a tile it cannot take. */
export function planTile(tile: TileLike, opts: SeriesPlanOptions): SeriesPlan {
  const notes: string[] = [];
  const config = tile.config;
  if (!config || typeof config !== 'object') return { ok: false, reason: noConfigReason(tile), notes };
  const displayType = str(config.displayType);
  if (displayType === 'markdown') return { ok: true, route: 'markdown', markdown: str(config.markdown) ?? '', notes };
  if (config.configType === 'sql') {
    return {
      ok: false,
      reason:
        'raw SQL tiles are not previewed on a self-hosted deployment: its API runs no SQL (only chart series and search requests)',
      notes,
    };
  }
  const sourceId = str(config.sourceId);
  if (!sourceId) return { ok: false, reason: 'the tile names no source', notes };
  if (!opts.source) return { ok: false, reason: "the tile's source is not known (no source with its sourceId)", notes };
  try {
    const kind = opts.source.kind;
    if (kind === 'session' || kind === 'promql') {
      throw new NotOnSeriesRoute(`tiles on ${kind} sources are not previewed through the chart series API`);
    }
    if (Array.isArray(config.formulas) && config.formulas.length > 0) {
      throw new NotOnSeriesRoute('formulas are not previewed through the chart series API');
    }
    const dashboard = dashboardFiltersForTile(opts.dashboard, sourceId);
    notes.push(...dashboard.notes);
    const range = { from: opts.range.from, to: opts.range.to };
    if (displayType === 'search') {
      if (kind !== 'log' && kind !== 'trace' && kind !== undefined) {
        throw new NotOnSeriesRoute(
          `search tiles on ${kind} sources are not previewed (the search API reads logs and traces)`,
        );
      }
      const filtered = withFilters(
        str(config.where) ?? '',
        str(config.whereLanguage) === 'sql' ? 'sql' : 'lucene',
        dashboard.filters,
      );
      const select = nonEmpty(config.select) ? config.select.trim() : undefined;
      const body: SearchRequest = {
        sourceId,
        startTime: new Date(range.from).toISOString(),
        endTime: new Date(range.to).toISOString(),
        ...(filtered.where.trim() ? { where: filtered.where, whereLanguage: filtered.whereLanguage ?? 'lucene' } : {}),
        ...(select ? { select } : {}),
        maxResults: Math.min(2000, Math.max(1, opts.searchLimit ?? 200)),
      };
      const timeKey = splitTopLevel(str(opts.source.timestampValueExpression) ?? '')[0];
      return { ok: true, route: 'search', body, timeKey, notes };
    }
    if (displayType === 'heatmap') {
      throw new NotOnSeriesRoute(
        'heatmap tiles are not previewed through the chart series API: it has no 15-second buckets (a heatmap of up to an hour uses them) and no value buckets between bounds read first',
      );
    }
    if (displayType === 'event_patterns') {
      return planPatterns(config, sourceId, opts.source, range, dashboard.filters, notes);
    }
    const shape: SeriesShape | undefined =
      displayType === 'line' || displayType === 'stacked_bar'
        ? 'timeseries'
        : displayType === 'number'
          ? 'number'
          : displayType === 'table'
            ? 'table'
            : displayType === 'pie' || displayType === 'bar'
              ? 'categories'
              : undefined;
    if (!shape) throw new NotOnSeriesRoute(`the display type "${displayType ?? '(none)'}" is not previewed`);
    if (config.asRatio === true) {
      throw new NotOnSeriesRoute(
        'ratio tiles are not previewed through the chart series API (it answers each series alone)',
      );
    }
    if (nonEmpty(config.having)) {
      throw new NotOnSeriesRoute('a HAVING condition cannot be applied through the chart series API');
    }
    const items = selectItems(config);
    const groupBy = nonEmpty(config.groupBy) ? splitTopLevel(config.groupBy) : [];
    if (groupBy.length > 10) throw new NotOnSeriesRoute('the chart series API groups by up to 10 expressions');
    const series = items.map((item, i) => {
      const s = seriesOf(item, i, sourceId, opts.source, groupBy);
      const f = withFilters(s.where, s.whereLanguage, dashboard.filters);
      const { whereLanguage: _old, ...rest } = s;
      return { ...rest, where: f.where, ...(f.whereLanguage ? { whereLanguage: f.whereLanguage } : {}) };
    });
    const labels = items.map((item) => labelOf(item, opts.source));
    let step: readonly [SeriesGranularityName, number];
    let asked = range;
    if (shape === 'timeseries') {
      step = seriesGranularity(range);
      // As a dashboard's time chart: the range aligned to the buckets, its end excluded (the API includes the end it
      // is given, so it is asked up to the last millisecond before it).
      if (config.alignDateRangeToGranularity !== false) {
        const aligned = alignedRange(range.from, range.to, granularityFromSeconds(step[1]));
        asked = { from: aligned.from, to: aligned.to - 1 };
      }
      if (config.compareToPreviousPeriod === true) notes.push('the previous-period comparison is not drawn');
      if (typeof config.seriesLimit === 'number' && groupBy.length > 0) {
        notes.push(`every group is drawn: the chart series API has no series limit (${config.seriesLimit})`);
      }
    } else {
      if (opts.source.kind === 'metric') {
        throw new NotOnSeriesRoute(
          'metric number, table, pie and bar tiles are not previewed through the chart series API: it answers metrics only in buckets that start within the range, so no bucket can hold the whole range',
        );
      }
      const one = singleBucket(range);
      if (!one) {
        throw new NotOnSeriesRoute(
          'the chart series API answers per time bucket, and no bucket it has holds this whole range (pick a shorter range)',
        );
      }
      step = one;
    }
    const body: SeriesRequest = {
      series,
      startTime: Math.floor(asked.from),
      endTime: Math.ceil(asked.to),
      granularity: step[0],
    };
    const table = shape === 'table' || shape === 'categories';
    const order = table ? tableOrder(str(config.orderBy), labels, groupBy, notes) : undefined;
    if (shape === 'categories' && typeof config.limit === 'number' && config.limit > 0) {
      notes.push(`ClickStack shows the top ${config.limit} categories; the preview returns them all`);
    }
    return {
      ok: true,
      route: 'series',
      shape,
      body,
      labels,
      groupBy,
      stepMs: step[1] * 1000,
      order,
      limit: shape === 'table' ? (opts.tableLimit ?? 200) : undefined,
      notes,
    };
  } catch (e) {
    if (e instanceof NotOnSeriesRoute) return { ok: false, reason: e.message, notes };
    throw e;
  }
}

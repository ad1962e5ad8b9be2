/**
 * Backtests through the series route (pure: no `vscode`, no network): the alert's query (the tile's series, or a
 * count of the saved search's rows) as one chart series request over all evaluated windows, in buckets of the alert's
 * interval (one bucket per window, as the scheduler queries them); the answer becomes the evaluator's points, and the
 * evaluation itself is the shared one (`../backtest/evaluate`).
 *
 * Windows off the bucket grid (a schedule offset or start time that is not a multiple of the interval) span two
 * partial buckets: they are asked in finer buckets that divide both the offset and the interval and summed up into
 * the partial buckets when the alert's value adds up that way (count, sum, min, max; on metrics only the sum of a
 * counter); other aggregations are refused there. Refused too (with the reason): raw SQL tiles, ratio tiles, formulas, and saved searches on sources with a
 * table filter (the API does not apply it).
 */
import type { SeriesRequest } from '../../api/oss';
import {
  BacktestError,
  evaluationTimes,
  intervalMs,
  windowAnchor,
  type BacktestAlert,
  type BacktestPoint,
} from '../backtest/evaluate';
import type { AlertQueryTarget } from '../backtest/query';
import { numberOf } from '../data';
import { splitTopLevel } from '../../render/sql';
import type { SourceLike } from '../../render/tile';
import type { SeriesRow } from './data';
import { NotOnSeriesRoute, SERIES_STEPS, seriesOf } from './plan';

/**
 * A saved search's filter with its pinned filters added (each ANDed, as the scheduler adds them). The API takes one
 * filter per series, in one language: pinned filters in another language than the filter are refused.
 */
function pinnedFilters(
  filters: readonly unknown[] | null | undefined,
  where: string,
  whereLanguage: string | null | undefined,
): { where: string; language: 'sql' | 'lucene' } {
  let out = where;
  let language: 'sql' | 'lucene' = whereLanguage === 'sql' ? 'sql' : 'lucene';
  for (const [i, f] of (filters ?? []).entries()) {
    const filter = (f !== null && typeof f === 'object' ? f : {}) as Record<string, unknown>;
    let lang: 'sql' | 'lucene';
    let condition: string;
    if ((filter.type === 'sql' || filter.type === 'lucene') && typeof filter.condition === 'string') {
      lang = filter.type;
      condition = filter.condition;
    } else if (filter.type === 'sql_ast' && typeof filter.left === 'string' && typeof filter.right === 'string') {
      lang = 'sql';
      condition = `${filter.left} ${String(filter.operator)} ${filter.right}`;
    } else {
      throw new NotOnSeriesRoute(`the saved search's filter ${i + 1} is not one the scheduler reads`);
    }
    if (out.trim() !== '' && lang !== language) {
      throw new NotOnSeriesRoute(
        `the saved search's pinned filter ${i + 1} (${lang === 'sql' ? 'SQL' : 'Lucene'}) cannot be combined with its ${language === 'sql' ? 'SQL' : 'Lucene'} filter in one request of the chart series API`,
      );
    }
    out = out.trim() === '' ? condition : `(${out}) AND (${condition})`;
    language = lang;
  }
  return { where: out, language };
}

export type SeriesBacktestPlan =
  | {
      ok: true;
      body: SeriesRequest;
      groupBy: string[];
      /** The evaluation times (window ends, epoch ms). */
      evaluations: number[];
      grouped: boolean;
      /** Off-grid windows: the finer buckets asked, and how they add up into each window's partial buckets. */
      fine?: { anchor: number; sizeMs: number; combine: 'sum' | 'min' | 'max' } | undefined;
    }
  | { ok: false; reason: string };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** The chart series request of an alert over the windows evaluated in `range`, or why there is none. */
export function planSeriesBacktest(
  alert: BacktestAlert & { groupBy?: string | null | undefined },
  target: AlertQueryTarget,
  options: { source: SourceLike | undefined; range: { from: number; to: number } },
): SeriesBacktestPlan {
  try {
    const size = intervalMs(alert.interval);
    if (size < 60_000) throw new NotOnSeriesRoute('alerts with a 30-second interval are not backtested yet');
    const step = SERIES_STEPS.find(([, s]) => s * 1000 === size);
    if (!step) throw new NotOnSeriesRoute(`the chart series API has no ${alert.interval} buckets`);
    const anchor = windowAnchor(alert);
    const offGrid = ((anchor % size) + size) % size !== 0;
    const times = evaluationTimes(alert, options.range);
    if (times.length === 0) throw new NotOnSeriesRoute('no evaluation window ends in the range');
    const source = options.source;
    if (!source) throw new NotOnSeriesRoute("the alert's source is not known");
    const sourceId = str(source.id);
    if (!sourceId) throw new NotOnSeriesRoute("the alert's source has no ID");
    let series: SeriesRequest['series'];
    let groupBy: string[];
    if (target.kind === 'savedSearch') {
      if (nonEmpty(source.tableFilterExpression)) {
        throw new NotOnSeriesRoute(
          "the source's table filter is not applied by the chart series API, so saved search alerts on it are not backtested",
        );
      }
      groupBy = nonEmpty(target.groupBy) ? splitTopLevel(target.groupBy) : [];
      const pinned = pinnedFilters(
        target.savedSearch.filters,
        target.savedSearch.where ?? '',
        target.savedSearch.whereLanguage,
      );
      series = [{ sourceId, aggFn: 'count', where: pinned.where, whereLanguage: pinned.language, groupBy }];
    } else {
      const config = target.tile.config;
      if (!config) throw new NotOnSeriesRoute('the tile has no config');
      const dt = str(config.displayType);
      if (config.configType === 'sql') {
        throw new NotOnSeriesRoute(
          'alerts on raw SQL tiles are not backtested on a self-hosted deployment: its API runs no SQL',
        );
      }
      if (dt !== 'line' && dt !== 'stacked_bar' && dt !== 'number') {
        throw new NotOnSeriesRoute(`alerts on "${dt}" tiles are not evaluated`);
      }
      if (Array.isArray(config.formulas) && config.formulas.length > 0) {
        throw new NotOnSeriesRoute('alerts on tiles with formulas are not backtested yet');
      }
      if (config.asRatio === true) {
        throw new NotOnSeriesRoute('alerts on ratio tiles are not backtested through the chart series API');
      }
      const select = config.select;
      if (!Array.isArray(select) || select.length === 0) throw new NotOnSeriesRoute('the tile has no series (select)');
      if (select.length > 5) throw new NotOnSeriesRoute('the chart series API takes up to 5 series');
      groupBy = nonEmpty(config.groupBy) ? splitTopLevel(config.groupBy) : [];
      // The scheduler uses the tile's series, group by and filters, without the dashboard's filters or series limit.
      series = select.map((item, i) =>
        seriesOf(item !== null && typeof item === 'object' ? item : {}, i, sourceId, source, groupBy),
      );
    }
    let granularity = step[0];
    let fine: { anchor: number; sizeMs: number; combine: 'sum' | 'min' | 'max' } | undefined;
    if (offGrid) {
      const last = series[series.length - 1];
      const fn = last?.aggFn;
      // Metric values are per time series and bucket (a gauge's last value, a counter's increase): only the sum of
      // counter increases adds up over finer buckets.
      if (source.kind === 'metric' && !(last?.metricDataType === 'sum' && fn === 'sum')) {
        throw new NotOnSeriesRoute(
          'the alert is evaluated off the interval grid (schedule offset or start time), so its windows span two partial buckets; the chart series API gives metric values per bucket that do not add up into them (only a sum of a counter does)',
        );
      }
      const combine = fn === 'count' || fn === 'sum' ? 'sum' : fn === 'min' || fn === 'max' ? fn : undefined;
      const offset = ((anchor % size) + size) % size;
      const finer = [...SERIES_STEPS].reverse().find(([, s]) => offset % (s * 1000) === 0 && size % (s * 1000) === 0);
      if (!combine || !finer) {
        throw new NotOnSeriesRoute(
          `the alert is evaluated off the interval grid (schedule offset or start time), so its windows span two partial buckets; the chart series API gives them only for count, sum, min and max, not ${fn ?? 'this aggregation'}`,
        );
      }
      granularity = finer[0];
      fine = { anchor, sizeMs: size, combine };
    }
    const body: SeriesRequest = {
      series,
      startTime: times[0]! - size,
      endTime: times[times.length - 1]!,
      granularity,
    };
    return { ok: true, body, groupBy, evaluations: times, grouped: groupBy.length > 0, fine };
  } catch (e) {
    if (e instanceof NotOnSeriesRoute || e instanceof BacktestError) return { ok: false, reason: e.message };
    throw e;
  }
}

/**
 * The evaluator's points of a chart series answer: the bucket, the last series' value (as the scheduler takes the
 * last value column) and the group as "expression:value, …" (as the SQL route names it).
 */
export function pointsFromSeries(
  plan: Extract<SeriesBacktestPlan, { ok: true }>,
  rows: readonly SeriesRow[],
): BacktestPoint[] {
  const last = plan.body.series.length - 1;
  const points = rows.map((row) => {
    const g = Array.isArray(row.group) ? row.group : [];
    const group = plan.groupBy.map((expr, k) => `${expr}:${String(g[k])}`).join(', ');
    return { bucket: Number(row.ts_bucket), value: numberOf(row[`series_${last}.data`]), group };
  });
  const fine = plan.fine;
  if (!fine) return points;
  // Finer buckets → each window's partial buckets: the interval bucket (epoch-aligned, as the scheduler's query
  // buckets) within the evaluation window (anchored as the scheduler evaluates).
  const merged = new Map<string, BacktestPoint>();
  for (const p of points) {
    const bucket = Math.floor(p.bucket / fine.sizeMs) * fine.sizeMs;
    const window = fine.anchor + Math.floor((p.bucket - fine.anchor) / fine.sizeMs) * fine.sizeMs;
    const key = `${window}|${bucket}|${p.group}`;
    const had = merged.get(key);
    if (!had) {
      merged.set(key, { bucket, window, value: p.value, group: p.group });
    } else if (p.value !== null) {
      const a = had.value;
      had.value =
        a === null
          ? p.value
          : fine.combine === 'sum'
            ? a + p.value
            : fine.combine === 'min'
              ? Math.min(a, p.value)
              : Math.max(a, p.value);
    }
  }
  return [...merged.values()];
}

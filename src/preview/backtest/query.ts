/**
 * The SQL behind a backtest: the alert's query (the tile's series, or count() of the saved search's rows) over
 * all evaluated windows at once, bucketed by the interval as the scheduler buckets it; plus the conversion of the
 * result rows into evaluator points.
 */
import {
  renderWindowedQuery,
  type ResultColumns,
  type SavedSearchLike,
  type SourceLike,
  type TileLike,
} from '../../render/tile';
import {
  type BacktestAlert,
  type BacktestPoint,
  evaluationTimes,
  intervalMs,
  windowAnchor,
  BacktestError,
} from './evaluate';

export type AlertQueryTarget =
  | { kind: 'tile'; tile: TileLike }
  | { kind: 'savedSearch'; savedSearch: SavedSearchLike; groupBy?: string | null | undefined };

export type BacktestQuery =
  | {
      ok: true;
      sql: string;
      columns: ResultColumns;
      /** The evaluation times (window ends, epoch ms) the query covers. */
      evaluations: number[];
      /** Whether rows carry groups (group-by alerts and grouped tiles). */
      grouped: boolean;
      notes: string[];
    }
  | { ok: false; reason: string; notes: string[] };

/** The scheduler's granularity for an interval ("5 minute", …; "30 second" for 30s). */
export function intervalGranularity(interval: string): string {
  const size = intervalMs(interval);
  return size < 60_000 ? `${size / 1000} second` : `${size / 60_000} minute`;
}

/**
 * Renders the alert query over the windows evaluated in `range`. With an offset or start time that does not fall
 * on the bucket grid, each row also carries its evaluation window (`columns.window`).
 */
export function backtestQuery(
  alert: BacktestAlert,
  target: AlertQueryTarget,
  options: {
    source: SourceLike | undefined;
    columns?: Readonly<Record<string, string>> | undefined;
    range: { from: number; to: number };
  },
): BacktestQuery {
  let times: number[];
  let size: number;
  let anchor: number;
  try {
    size = intervalMs(alert.interval);
    anchor = windowAnchor(alert);
    times = evaluationTimes(alert, options.range);
  } catch (e) {
    if (e instanceof BacktestError) return { ok: false, reason: e.message, notes: [] };
    throw e;
  }
  if (size < 60_000) return { ok: false, reason: 'alerts with a 30-second interval are not backtested yet', notes: [] };
  if (times.length === 0) return { ok: false, reason: 'no evaluation window ends in the range', notes: [] };
  const aligned = ((anchor % size) + size) % size === 0;
  const from = (times[0] as number) - size;
  const to = times[times.length - 1] as number;
  const res = renderWindowedQuery(target, {
    range: { from, to },
    granularity: intervalGranularity(alert.interval),
    source: options.source,
    columns: options.columns,
    window: aligned ? undefined : { anchorSeconds: Math.floor(anchor / 1000), sizeSeconds: size / 1000 },
  });
  if (!res.ok) return res;
  const grouped = res.columns.groups.length > 0;
  return { ok: true, sql: res.sql, columns: res.columns, evaluations: times, grouped, notes: res.notes };
}

function toMs(v: unknown): number {
  if (typeof v === 'number') return v < 1e11 ? v * 1000 : v;
  if (typeof v === 'string') {
    if (/^\d+(\.\d+)?$/.test(v)) return toMs(Number(v));
    const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}Z`;
    return Date.parse(iso);
  }
  return NaN;
}

function toValue(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isNaN(n) ? null : n;
  }
  return null;
}

/**
 * Converts result rows (arrays in column order, or objects whose keys are in column order) into points. Times may
 * be Unix seconds, epoch ms or "YYYY-MM-DD hh:mm:ss" (UTC). The value is the last value column, as the scheduler
 * takes it; groups read "column:value, column:value".
 */
export function pointsFromRows(
  rows: readonly (readonly unknown[] | Record<string, unknown>)[],
  columns: ResultColumns,
  columnNames?: readonly string[],
): BacktestPoint[] {
  const time = columns.time?.index;
  if (time === undefined) throw new BacktestError('the alert query has no time column');
  const valueIndex = columns.values[columns.values.length - 1]?.index;
  if (valueIndex === undefined) throw new BacktestError('the alert query has no value column');
  return rows.map((row) => {
    const names = Array.isArray(row) ? (columnNames ?? []) : Object.keys(row);
    const cells = Array.isArray(row) ? (row as readonly unknown[]) : Object.values(row);
    const group = columns.groups.map((g) => `${names[g.index] ?? g.label}:${String(cells[g.index])}`).join(', ');
    const bucket = toMs(cells[time]);
    const window = columns.window ? toMs(cells[columns.window.index]) : undefined;
    return { bucket, window, value: toValue(cells[valueIndex]), group };
  });
}

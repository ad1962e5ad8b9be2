/**
 * Small ClickHouse SQL helpers shared by the tile renderer and the Lucene translator: literal and identifier
 * quoting and bracket-aware splitting of expression lists (src/api/query/sqlText.ts, re-exported), and granularity.
 */

export { sqlString, sqlValue, sqlIdentifierPath, sqlIdentifier, tableRef, splitTopLevel } from '../api/query/sqlText';

/** A time bucket size: a whole number of seconds, written for ClickHouse as `INTERVAL <n> <unit>`. */
export interface Granularity {
  seconds: number;
  /** As ClickStack writes it, e.g. "1 minute", "15 second", "2 hour", "7 day". */
  sql: string;
}

const AUTO_STEPS: [number, string][] = [
  [15, '15 second'],
  [30, '30 second'],
  [60, '1 minute'],
  [300, '5 minute'],
  [900, '15 minute'],
  [1800, '30 minute'],
  [3600, '1 hour'],
  [7200, '2 hour'],
  [21600, '6 hour'],
  [43200, '12 hour'],
  [86400, '1 day'],
  [172800, '2 day'],
  [604800, '7 day'],
  [2592000, '30 day'],
];

/** Most buckets of an automatic granularity in ClickStack's renderer (`DEFAULT_AUTO_GRANULARITY_MAX_BUCKETS`). */
export const RENDER_MAX_BUCKETS = 60;
/** Most buckets of an automatic granularity on a dashboard's time charts (HyperDX `getTimeChartGranularity`). */
export const TIME_CHART_MAX_BUCKETS = 80;

/**
 * ClickStack's automatic granularity: the smallest step that gives at most `maxBuckets` buckets (60 inside the
 * renderer, e.g. a metric's per-series buckets on a number tile; 80 for a dashboard's time charts).
 */
export function autoGranularity(fromMs: number, toMs: number, maxBuckets = RENDER_MAX_BUCKETS): Granularity {
  const diffSeconds = Math.floor((toMs - fromMs) / 1000);
  const size = Math.ceil(diffSeconds / maxBuckets);
  for (const [seconds, sql] of AUTO_STEPS) {
    if (size <= seconds) return { seconds, sql };
  }
  return { seconds: 2592000, sql: '30 day' };
}

/** A granularity from seconds, written with the largest whole unit. */
export function granularityFromSeconds(seconds: number): Granularity {
  const s = Math.max(1, Math.round(seconds));
  if (s % 86400 === 0) return { seconds: s, sql: `${s / 86400} day` };
  if (s % 3600 === 0) return { seconds: s, sql: `${s / 3600} hour` };
  if (s % 60 === 0) return { seconds: s, sql: `${s / 60} minute` };
  return { seconds: s, sql: `${s} second` };
}

/** Parses "1 minute", "15 second", "2 hour", "1 day" (ClickStack's granularity strings). */
export function parseGranularity(text: string): Granularity | undefined {
  const m = /^\s*(\d+)\s+(second|minute|hour|day)s?\s*$/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = { second: 1, minute: 60, hour: 3600, day: 86400 }[m[2] as 'second' | 'minute' | 'hour' | 'day'];
  return n > 0 ? { seconds: n * unit, sql: `${n} ${m[2]}` } : undefined;
}

/**
 * The start of the bucket holding `ms`, as HyperDX rounds in JavaScript (`toStartOfInterval` in common-utils): seconds
 * within the minute, minutes within the hour, hours within the day (UTC), days since the epoch. For the sizes
 * ClickStack picks this is ClickHouse's `toStartOfInterval` too.
 */
export function bucketStart(ms: number, g: Granularity): number {
  const m = /^(\d+) (second|minute|hour|day)$/.exec(g.sql);
  const n = m ? Number(m[1]) : g.seconds;
  const unit = m ? m[2] : 'second';
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth();
  const day = d.getUTCDate();
  switch (unit) {
    case 'minute':
      return Date.UTC(y, mo, day, d.getUTCHours(), Math.floor(d.getUTCMinutes() / n) * n);
    case 'hour':
      return Date.UTC(y, mo, day, Math.floor(d.getUTCHours() / n) * n);
    case 'day': {
      const dayMs = 86_400_000;
      return Math.floor(ms / dayMs / n) * n * dayMs;
    }
    default:
      return m
        ? Date.UTC(y, mo, day, d.getUTCHours(), d.getUTCMinutes(), Math.floor(d.getUTCSeconds() / n) * n)
        : Math.floor(ms / (n * 1000)) * n * 1000;
  }
}

/**
 * A dashboard time chart's range (HyperDX `getAlignedDateRange`): the start rounded down and the end rounded up to
 * bucket boundaries; the chart then reads it with the end excluded.
 */
export function alignedRange(fromMs: number, toMs: number, g: Granularity): { from: number; to: number } {
  const from = bucketStart(fromMs, g);
  let to = bucketStart(toMs, g);
  if (to < toMs) to += g.seconds * 1000;
  return { from, to };
}

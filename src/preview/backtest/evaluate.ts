/**
 * Alert backtest: replays the scheduler's evaluations (HyperDX `checkAlerts`) over past windows.
 *
 * How the scheduler works, and what is replayed here:
 * - Evaluations happen at window boundaries W = anchor + k × interval, where the anchor is `scheduleStartAt` when set
 *   (the offset is then ignored), else the epoch shifted by `scheduleOffsetMinutes` (normalised: ≥ 0, whole minutes,
 *   modulo the interval). No evaluation happens before `scheduleStartAt`, and the first covers
 *   [scheduleStartAt, scheduleStartAt + interval).
 * - The evaluation at W queries [W − interval, W) (start inclusive, end exclusive) with buckets of the interval
 *   aligned to the epoch (ClickHouse `toStartOfInterval`), so with an offset one window spans two partial buckets;
 *   they are evaluated in order and the last decides the state (as in the scheduler).
 * - The buckets expected in a window start at the window start rounded down as HyperDX rounds in JavaScript (by
 *   the interval within the hour; to the hour for intervals over an hour) and step by the interval.
 * - Per bucket: no rows at all → the value is 0; if 0 crosses the threshold the (ungrouped) alert goes ALERT,
 *   otherwise the state is left as it was in this evaluation. Rows with a NULL value are skipped. For each group
 *   (group-by alerts) the state is ALERT when the value crosses, else OK.
 * - Comparisons: above `>=`, below `<`, above_exclusive `>`, below_or_equal `<=`, equal `===`, not_equal `!==`,
 *   between `threshold <= v <= thresholdMax`, not_between `v < threshold || v > thresholdMax`.
 * - `numConsecutiveWindows` M > 1: a crossing at W is ALERT only if the group has a recorded state ALERT or PENDING
 *   in each of the M − 1 windows just before (evaluations at W − interval … W − (M − 1) × interval: the scheduler
 *   reads the histories created in [W − (M − 1) × interval, W)); a group missing from one of them stays PENDING.
 * - Group-by: a group that was ALERT/PENDING and has no rows in an evaluation resolves to OK (when 0 does not
 *   cross). An evaluation with no state at all records OK.
 * - The scheduler runs once a minute, on the minute: the window ending at W is evaluated at the first whole minute at
 *   or after W (a start time with seconds puts W between two minutes), so a range includes it only if that minute is
 *   in the range.
 * Assumed: the scheduler ran at every boundary (no missed runs that it would backfill) and the alert was neither
 * silenced nor edited during the range.
 */

export type BacktestThresholdType =
  'above' | 'below' | 'above_exclusive' | 'below_or_equal' | 'equal' | 'not_equal' | 'between' | 'not_between';

export interface BacktestAlert {
  /** Evaluation interval: 30s, 1m, 5m, 15m, 30m, 1h, 6h, 12h or 1d. */
  interval: string;
  threshold: number;
  thresholdType: BacktestThresholdType | string;
  thresholdMax?: number | null | undefined;
  scheduleOffsetMinutes?: number | null | undefined;
  /** ISO date-time (UTC). */
  scheduleStartAt?: string | null | undefined;
  numConsecutiveWindows?: number | null | undefined;
}

export type BacktestState = 'OK' | 'PENDING' | 'ALERT';

/** One row of the alert query: the bucket (epoch-aligned), the evaluation window it belongs to, a value, a group. */
export interface BacktestPoint {
  /** Start of the query's time bucket (epoch ms). */
  bucket: number;
  /** Start of the evaluation window the row belongs to (epoch ms); the bucket when omitted. */
  window?: number | undefined;
  value: number | null;
  /** Group key ("col:value, col2:value2"); '' for ungrouped alerts. */
  group?: string | undefined;
}

export interface GroupEvaluation {
  group: string;
  state: BacktestState;
  /** The last value evaluated (0 for an empty bucket). */
  value: number | undefined;
}

export interface Evaluation {
  /** When the scheduler evaluates (the window end, epoch ms). */
  at: number;
  windowStart: number;
  windowEnd: number;
  /** Worst state over the groups: ALERT > PENDING > OK. */
  state: BacktestState;
  groups: GroupEvaluation[];
}

export interface Transition {
  at: number;
  group: string;
  from: BacktestState;
  to: BacktestState;
  value: number | undefined;
  /**
   * What decided a change to ALERT: the ends of the windows whose crossings made it fire (the M − 1 windows before
   * and this one; just this one when M = 1).
   */
  windows?: number[] | undefined;
}

export interface BacktestResult {
  evaluations: Evaluation[];
  /** Evaluations in which some group was ALERT. */
  fired: Evaluation[];
  /** State changes per group (the first evaluation of a group counts as a change from OK). */
  transitions: Transition[];
  /** The last evaluation's state (OK when there was none). */
  lastState: BacktestState;
  lastFiredAt: number | undefined;
}

export class BacktestError extends Error {}

const INTERVAL_MS: Record<string, number> = {
  '30s': 30_000,
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '6h': 21_600_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
};

export function intervalMs(interval: string): number {
  const v = INTERVAL_MS[interval];
  if (v === undefined) throw new BacktestError(`the interval "${interval}" is not one the scheduler knows`);
  return v;
}

/** Whether `value` crosses the alert's threshold, exactly as the scheduler compares. */
export function exceedsThreshold(
  alert: Pick<BacktestAlert, 'threshold' | 'thresholdType' | 'thresholdMax'>,
  value: number,
): boolean {
  const t = alert.threshold;
  switch (alert.thresholdType) {
    case 'above':
      return value >= t;
    case 'below':
      return value < t;
    case 'above_exclusive':
      return value > t;
    case 'below_or_equal':
      return value <= t;
    case 'equal':
      return value === t;
    case 'not_equal':
      return value !== t;
    case 'between':
    case 'not_between': {
      const max = alert.thresholdMax;
      if (max == null) throw new BacktestError(`thresholdMax is required for threshold type "${alert.thresholdType}"`);
      return alert.thresholdType === 'between' ? value >= t && value <= max : value < t || value > max;
    }
    default:
      throw new BacktestError(`the threshold type "${String(alert.thresholdType)}" is not one the scheduler knows`);
  }
}

/** Where the evaluation boundaries are anchored: epoch ms of one boundary. */
export function windowAnchor(alert: BacktestAlert): number {
  const size = intervalMs(alert.interval);
  const start = parseStart(alert);
  if (start !== undefined) return start;
  const raw = alert.scheduleOffsetMinutes;
  if (raw == null || !Number.isFinite(raw)) return 0;
  const minutes = Math.max(0, Math.floor(raw));
  const sizeMinutes = size / 60_000;
  const offset = minutes < sizeMinutes ? minutes : minutes % sizeMinutes;
  return offset * 60_000;
}

function parseStart(alert: BacktestAlert): number | undefined {
  if (alert.scheduleStartAt == null) return undefined;
  const t = Date.parse(alert.scheduleStartAt);
  return Number.isFinite(t) ? t : undefined;
}

/**
 * The evaluation times (window ends) in (from, to]: every boundary W with W − interval ≥ from, W ≤ to and (with a
 * start time) W − interval ≥ scheduleStartAt.
 */
export function evaluationTimes(alert: BacktestAlert, range: { from: number; to: number }): number[] {
  const size = intervalMs(alert.interval);
  const anchor = windowAnchor(alert);
  const start = parseStart(alert);
  const from = Math.max(range.from, start ?? -Infinity);
  let w = anchor + Math.ceil((from + size - anchor) / size) * size;
  const out: number[] = [];
  for (; evaluatedAt(w) <= range.to; w += size) out.push(w);
  return out;
}

/** When the scheduler (a cron job at second 0 of every minute) evaluates the window ending at `windowEnd`. */
export function evaluatedAt(windowEnd: number): number {
  return Math.ceil(windowEnd / 60_000) * 60_000;
}

/**
 * The first bucket the scheduler expects in a window: its start rounded down by the interval in minutes within
 * the hour (HyperDX's `toStartOfInterval` in JavaScript), which for intervals over an hour is the start of the hour.
 */
function firstBucket(windowStart: number, size: number): number {
  const hour = 3_600_000;
  return size > hour ? Math.floor(windowStart / hour) * hour : Math.floor(windowStart / size) * size;
}

function worst(states: BacktestState[]): BacktestState {
  if (states.includes('ALERT')) return 'ALERT';
  if (states.includes('PENDING')) return 'PENDING';
  return 'OK';
}

/**
 * Replays the evaluations over `range` from the alert query's rows (see `backtestQuery`). Rows outside the
 * evaluated windows are ignored.
 */
export function evaluateBacktest(
  alert: BacktestAlert,
  points: readonly BacktestPoint[],
  range: { from: number; to: number },
  options: { grouped?: boolean } = {},
): BacktestResult {
  const size = intervalMs(alert.interval);
  const m = Math.max(1, Math.floor(alert.numConsecutiveWindows ?? 1));
  const grouped = options.grouped ?? points.some((p) => (p.group ?? '') !== '');
  // Rows by window, then bucket.
  const byWindow = new Map<number, Map<number, BacktestPoint[]>>();
  for (const p of points) {
    const win = p.window ?? p.bucket;
    let buckets = byWindow.get(win);
    if (!buckets) {
      buckets = new Map<number, BacktestPoint[]>();
      byWindow.set(win, buckets);
    }
    const list = buckets.get(p.bucket);
    if (list) list.push(p);
    else buckets.set(p.bucket, [p]);
  }
  // Each group's recorded states (window end and state), newest last; only the last M − 1 windows are read.
  const history = new Map<string, { at: number; state: BacktestState }[]>();
  const previous = new Map<string, BacktestState>();
  const evaluations: Evaluation[] = [];
  const transitions: Transition[] = [];
  let at = 0;
  const fires = (group: string) => {
    if (m <= 1) return true;
    const earliest = at - (m - 1) * size;
    const recent = (history.get(group) ?? []).filter((h) => h.at >= earliest && h.at < at);
    return recent.length === m - 1 && recent.every((h) => h.state === 'ALERT' || h.state === 'PENDING');
  };
  const decidingWindows = (group: string) => {
    const earliest = at - (m - 1) * size;
    return [...(history.get(group) ?? []).filter((h) => h.at >= earliest && h.at < at).map((h) => h.at), at];
  };

  for (const windowEnd of evaluationTimes(alert, range)) {
    at = windowEnd;
    const windowStart = at - size;
    const buckets = byWindow.get(windowStart) ?? new Map<number, BacktestPoint[]>();
    const current = new Map<string, GroupEvaluation>();
    const get = (group: string) => {
      let g = current.get(group);
      if (!g) {
        g = { group, state: 'OK', value: undefined };
        current.set(group, g);
      }
      return g;
    };
    const hadAlerts = [...previous.values()].some((s) => s === 'ALERT' || s === 'PENDING');
    for (let b = firstBucket(windowStart, size); b < at; b += size) {
      const rows = buckets.get(b) ?? [];
      if (rows.length === 0) {
        if (exceedsThreshold(alert, 0)) {
          const g = get('');
          g.value = 0;
          g.state = fires('') ? 'ALERT' : 'PENDING';
        } else if (!grouped || !hadAlerts) {
          get('').value = 0;
        }
        continue;
      }
      const inBucket = new Map<string, { value: number; exceeds: boolean }>();
      for (const row of rows) {
        if (row.value == null || Number.isNaN(row.value)) continue;
        const key = grouped ? (row.group ?? '') : '';
        const exceeds = exceedsThreshold(alert, row.value);
        const existing = inBucket.get(key);
        if (!existing || !existing.exceeds || exceeds) inBucket.set(key, { value: row.value, exceeds });
      }
      for (const [key, ev] of inBucket) {
        const g = get(key);
        g.state = ev.exceeds ? (fires(key) ? 'ALERT' : 'PENDING') : 'OK';
        g.value = ev.value;
      }
    }
    if (grouped) {
      for (const [key, state] of previous) {
        if ((state === 'ALERT' || state === 'PENDING') && !current.has(key) && !exceedsThreshold(alert, 0)) {
          const g = get(key);
          g.value = 0;
        }
      }
    }
    if (current.size === 0) get('');
    const groups = [...current.values()].sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
    for (const g of groups) {
      const before = previous.get(g.group) ?? 'OK';
      if (before !== g.state) {
        const windows = g.state === 'ALERT' ? decidingWindows(g.group) : undefined;
        transitions.push({
          at,
          group: g.group,
          from: before,
          to: g.state,
          value: g.value,
          ...(windows ? { windows } : {}),
        });
      }
      previous.set(g.group, g.state);
      const h = history.get(g.group) ?? [];
      h.push({ at, state: g.state });
      if (h.length > m) h.shift();
      history.set(g.group, h);
    }
    evaluations.push({ at, windowStart, windowEnd: at, state: worst(groups.map((g) => g.state)), groups });
  }
  const fired = evaluations.filter((e) => e.state === 'ALERT');
  return {
    evaluations,
    fired,
    transitions,
    lastState: evaluations[evaluations.length - 1]?.state ?? 'OK',
    lastFiredAt: fired[fired.length - 1]?.at,
  };
}

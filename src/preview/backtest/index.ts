/**
 * Alert backtests (pure: no `vscode`, no network): "would this alert have fired, and when?"
 *
 *   const q = backtestQuery(alert, { kind: 'tile', tile } | { kind: 'savedSearch', savedSearch, groupBy },
 *                           { source, columns?, range: { from, to } })
 *     → { ok: true, sql, columns, evaluations, grouped, notes } | { ok: false, reason, notes }
 *   run q.sql on the query endpoint, then
 *   const points = pointsFromRows(resultRows, q.columns, columnNames?)
 *   const result = evaluateBacktest(alert, points, range, { grouped: q.grouped })
 *     → { evaluations: [{ at, windowStart, windowEnd, state, groups }], fired, transitions: [{ at, group, from, to,
 *         value }], lastState, lastFiredAt }
 *
 * `alert` is an alert (response or document): interval, threshold, thresholdType (all eight types), thresholdMax,
 * scheduleOffsetMinutes, scheduleStartAt, numConsecutiveWindows. The evaluation replays the scheduler (see
 * evaluate.ts for the exact rules: window alignment, offset/start, empty windows, group-by, strict and non-strict
 * comparisons). `exceedsThreshold` draws the threshold band; `evaluationTimes` lists the windows of a range.
 */
export {
  evaluateBacktest,
  exceedsThreshold,
  evaluationTimes,
  windowAnchor,
  intervalMs,
  BacktestError,
} from './evaluate';
export type {
  BacktestAlert,
  BacktestPoint,
  BacktestResult,
  BacktestState,
  BacktestThresholdType,
  Evaluation,
  GroupEvaluation,
  Transition,
} from './evaluate';
export { backtestQuery, pointsFromRows, intervalGranularity } from './query';
export type { AlertQueryTarget, BacktestQuery } from './query';

/**
 * Query results → what the preview webview draws (pure: no `vscode`, no network). A rendered tile's result columns
 * say where the time bucket, the values and the groups are; raw SQL tiles are read as ClickStack reads them: the
 * first Date/DateTime column is the time, numeric columns are values, the rest are groups.
 */
import { sanitizeServerText } from '../api/sanitize';
import { conditionOf } from '../labels/condition';
import type { BacktestResult } from './backtest';
import type { RenderResult, ResultColumns } from '../render';
import { heatmapOf } from './heatmapData';
import { patternsOfResult } from './patternsData';
import type { AlertRule, FiredWindow, LogLine, NumberFormat, Threshold, TileData, Transition } from './protocol';

export interface ResultLike {
  columns: readonly { name: string; type: string }[];
  rows: readonly (readonly unknown[])[];
}

type Rendered = Extract<RenderResult, { ok: true }>;

const isTimeType = (t: string): boolean => /^(Nullable\()?(LowCardinality\()?Date(Time)?(64)?\b/.test(t);
const isNumericType = (t: string): boolean =>
  /^(Nullable\()?(U?Int\d+|Float\d+|Decimal)/.test(t) && !/^(Nullable\()?(LowCardinality\()?Date/.test(t);

/** Epoch ms of a ClickHouse time cell ("YYYY-MM-DD hh:mm:ss[.fff]" in UTC, seconds or ms). */
export function timeOf(v: unknown): number {
  if (typeof v === 'number') return v < 1e11 ? v * 1000 : v;
  if (typeof v === 'string') {
    if (/^\d+(\.\d+)?$/.test(v)) return timeOf(Number(v));
    const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}${v.length <= 10 ? 'T00:00:00' : ''}Z`;
    return Date.parse(iso);
  }
  return NaN;
}

/** A numeric cell (64-bit integers arrive as strings). */
export function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Where time, values and groups are in a raw SQL result, the way ClickStack picks them. */
export function columnsOfRawResult(result: ResultLike): ResultColumns {
  const timeIndex = result.columns.findIndex((c) => isTimeType(c.type));
  const values: ResultColumns['values'] = [];
  const groups: ResultColumns['groups'] = [];
  result.columns.forEach((c, index) => {
    if (index === timeIndex) return;
    if (isNumericType(c.type)) values.push({ index, label: c.name });
    else groups.push({ index, label: c.name });
  });
  return {
    time: timeIndex >= 0 ? { index: timeIndex, name: result.columns[timeIndex]!.name } : undefined,
    values,
    groups,
  };
}

function cellText(v: unknown): string {
  return v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Time series: one series per (group, value column); buckets without a row are gaps. */
export function timeseriesOf(
  result: ResultLike,
  columns: ResultColumns,
  opts: { display?: 'line' | 'stacked_bar'; range?: { from: number; to: number }; stepMs?: number } = {},
): TileData {
  const time = columns.time?.index;
  if (time === undefined) return { kind: 'unsupported', reason: 'the query returned no time column to draw' };
  const timeSet = new Set<number>();
  const bySeries = new Map<string, Map<number, number | null>>();
  const multiValue = columns.values.length > 1;
  for (const row of result.rows) {
    const t = timeOf(row[time]);
    if (!Number.isFinite(t)) continue;
    timeSet.add(t);
    const group = columns.groups.map((g) => cellText(row[g.index])).join(' · ');
    for (const v of columns.values) {
      const name = group && multiValue ? `${group} · ${v.label}` : group || v.label;
      let m = bySeries.get(name);
      if (!m) bySeries.set(name, (m = new Map()));
      m.set(t, numberOf(row[v.index]));
    }
  }
  // Buckets of the whole range (so an empty stretch shows as a gap, not as a line across it).
  if (opts.range && opts.stepMs && opts.stepMs > 0) {
    const first = Math.floor(opts.range.from / opts.stepMs) * opts.stepMs;
    const count = Math.ceil((opts.range.to - first) / opts.stepMs);
    if (count > 0 && count <= 20_000) for (let i = 0; i < count; i++) timeSet.add(first + i * opts.stepMs);
  }
  const times = [...timeSet].sort((a, b) => a - b);
  const series = [...bySeries.entries()].map(([name, m]) => ({ name, values: times.map((t) => m.get(t) ?? null) }));
  return { kind: 'timeseries', display: opts.display ?? 'line', times, series };
}

function tableOf(result: ResultLike): TileData {
  return {
    kind: 'table',
    columns: result.columns.map((c) => ({ name: c.name, type: c.type })),
    rows: result.rows.map((r) => [...r]),
  };
}

function searchOf(result: ResultLike): TileData {
  const names = result.columns.map((c) => c.name);
  const find = (re: RegExp) => names.findIndex((n) => re.test(n));
  const time = result.columns.findIndex((c) => isTimeType(c.type));
  const severity = find(/severity|level/i);
  const service = find(/service/i);
  const bodyIndex = find(/body|message/i);
  const rest = names.map((_, i) => i).filter((i) => i !== time && i !== severity && i !== service);
  const lines: LogLine[] = result.rows.map((row) => ({
    time: time >= 0 ? timeOf(row[time]) : '',
    ...(severity >= 0 ? { severity: cellText(row[severity]) } : {}),
    ...(service >= 0 ? { service: cellText(row[service]) } : {}),
    body: bodyIndex >= 0 ? cellText(row[bodyIndex]) : rest.map((i) => cellText(row[i])).join(' '),
  }));
  return { kind: 'search', lines };
}

/** The drawing of a rendered tile's result. */
export function tileDataOf(
  rendered: Rendered,
  result: ResultLike,
  opts: { displayType?: string; range?: { from: number; to: number }; numberFormat?: NumberFormat } = {},
): TileData {
  const raw = rendered.columns.values.length === 0 && rendered.columns.groups.length === 0;
  const columns = raw && rendered.shape !== 'search' ? columnsOfRawResult(result) : rendered.columns;
  const numberFormat = opts.numberFormat ? { numberFormat: opts.numberFormat } : {};
  switch (rendered.shape) {
    case 'timeseries': {
      const stepMs = rendered.granularity ? granularityMs(rendered.granularity) : undefined;
      return {
        ...timeseriesOf(result, columns, {
          display: opts.displayType === 'stacked_bar' ? 'stacked_bar' : 'line',
          ...(opts.range ? { range: opts.range } : {}),
          ...(stepMs ? { stepMs } : {}),
        }),
        ...numberFormat,
      } as TileData;
    }
    case 'number': {
      const v = columns.values[0];
      const row = result.rows[0];
      return { kind: 'number', value: v && row ? numberOf(row[v.index]) : null, ...numberFormat };
    }
    case 'search':
      return searchOf(result);
    case 'markdown':
      return { kind: 'markdown', text: rendered.markdown ?? '' };
    case 'heatmap': {
      const range = rendered.range ?? opts.range;
      if (!range) return tableOf(result);
      return { ...heatmapOf(rendered, result, range), ...numberFormat };
    }
    case 'patterns': {
      const range = rendered.range ?? opts.range;
      if (!range || !rendered.patterns) return tableOf(result);
      return patternsOfResult(result, range, { ...rendered.patterns, timeOf });
    }
    default:
      return tableOf(result);
  }
}

function granularityMs(g: unknown): number | undefined {
  if (typeof g !== 'object' || g === null) return undefined;
  const o = g as Record<string, unknown>;
  if (typeof o.seconds === 'number') return o.seconds * 1000;
  if (typeof o.ms === 'number') return o.ms;
  return undefined;
}

/** The backtest drawing: the evaluated values, the threshold, the windows that fired and the transitions. */
/** How the scheduler compares a value with the threshold, in the words of every view ("at least 10"). */
function comparison(alert: { threshold: number; thresholdType: string; thresholdMax?: number | null | undefined }) {
  return sanitizeServerText(conditionOf(alert));
}

/** The alert's rule for the backtest panel: threshold, interval and consecutive windows. */
export function alertRuleOf(alert: {
  threshold: number;
  thresholdType: string;
  thresholdMax?: number | null | undefined;
  interval?: string | undefined;
  numConsecutiveWindows?: number | null | undefined;
}): AlertRule {
  const m = Math.max(1, Math.floor(alert.numConsecutiveWindows ?? 1));
  const interval = alert.interval ?? '';
  const windows = m > 1 ? `in ${m} consecutive ${interval} windows` : `in a ${interval} window`;
  return {
    thresholdType: alert.thresholdType,
    threshold: alert.threshold,
    ...(typeof alert.thresholdMax === 'number' ? { thresholdMax: alert.thresholdMax } : {}),
    interval,
    numConsecutiveWindows: m,
    text: `value is ${comparison(alert)} ${windows}`,
  };
}

export function backtestDataOf(
  alert: {
    threshold: number;
    thresholdType: string;
    thresholdMax?: number | null | undefined;
    interval?: string | undefined;
    numConsecutiveWindows?: number | null | undefined;
  },
  result: BacktestResult,
): TileData {
  const times = result.evaluations.map((e) => e.at);
  const groups = new Set<string>();
  for (const e of result.evaluations) for (const g of e.groups) groups.add(g.group);
  if (groups.size === 0) groups.add('');
  const series = [...groups].map((group) => ({
    name: group || 'value',
    values: result.evaluations.map((e) => e.groups.find((g) => g.group === group)?.value ?? null),
  }));
  const type = alert.thresholdType;
  const threshold: Threshold = {
    type:
      type === 'between' || type === 'not_between'
        ? type
        : type === 'below' || type === 'below_or_equal'
          ? 'below'
          : 'above',
    value: alert.threshold,
    ...(typeof alert.thresholdMax === 'number' ? { max: alert.thresholdMax } : {}),
  };
  const firedWindows: FiredWindow[] = result.fired.map((e) => ({
    start: e.windowStart,
    end: e.windowEnd,
    value: Math.max(...e.groups.filter((g) => g.state === 'ALERT').map((g) => g.value ?? Number.NEGATIVE_INFINITY)),
  }));
  const transitions: Transition[] = result.transitions
    .filter((t) => t.from !== t.to && (t.from === 'ALERT' || t.to === 'ALERT'))
    .map((t) => {
      const fired = t.to === 'ALERT' && t.windows !== undefined;
      const shown = t.value === undefined ? 'no value' : String(t.value);
      const consecutive = fired && (t.windows?.length ?? 0) > 1 ? ` in ${t.windows?.length} consecutive windows` : '';
      return {
        time: t.at,
        from: t.from === 'ALERT' ? 'ALERT' : 'OK',
        to: t.to === 'ALERT' ? 'ALERT' : 'OK',
        value: t.value ?? null,
        ...(t.group ? { series: t.group } : {}),
        ...(fired ? { rule: `${shown} is ${comparison(alert)}${consecutive}`, windows: t.windows ?? [] } : {}),
      };
    });
  const rule = alertRuleOf(alert);
  return { kind: 'timeseries', display: 'line', times, series, threshold, firedWindows, transitions, rule };
}

/**
 * A heatmap tile's rows → its drawing (pure: no `vscode`, no network). Each row holds a count, the value bounds,
 * the value bucket (`x_bucket`) and the time bucket. As HyperDX's heatmap, the time buckets drawn are those from the
 * start of the range (rounded down to a bucket) that begin before its end; a row in another bucket is not drawn.
 */
import { bucketEdge, type HeatmapScale } from '../render/heatmap';
import type { RenderResult } from '../render';
import type { ResultLike } from './data';
import type { HeatmapCell, HeatmapData } from './protocol';

type Rendered = Extract<RenderResult, { ok: true }>;

function num(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : NaN;
}

function timeMs(v: unknown): number {
  const n = num(v);
  if (Number.isFinite(n)) return n < 1e11 ? n * 1000 : n;
  return typeof v === 'string' ? Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}Z`) : NaN;
}

/** The time bucket starts HyperDX draws: from the start rounded down, while before the end (at most 20,000). */
export function heatmapTimes(range: { from: number; to: number }, stepMs: number): number[] {
  const times: number[] = [];
  if (!(stepMs > 0)) return times;
  for (let t = Math.floor(range.from / stepMs) * stepMs; t < range.to && times.length < 20_000; t += stepMs) {
    times.push(t);
  }
  return times;
}

/** The heatmap of a rendered heatmap tile's result (`rendered.heatmap` must be set). */
export function heatmapOf(rendered: Rendered, result: ResultLike, range: { from: number; to: number }): HeatmapData {
  const meta = rendered.heatmap;
  const stepMs = (rendered.granularity?.seconds ?? 0) * 1000;
  const scale: HeatmapScale = meta?.scale ?? 'log';
  const buckets = meta?.buckets ?? 80;
  const times = heatmapTimes(range, stepMs);
  const drawn = new Set(times);
  const countAt = rendered.columns.values[0]?.index ?? 0;
  const bucketAt = rendered.columns.groups[0]?.index ?? 0;
  const timeAt = rendered.columns.time?.index ?? 0;
  let lo = NaN;
  let hi = NaN;
  const byCell = new Map<string, HeatmapCell>();
  for (const row of result.rows) {
    if (meta) {
      lo = num(row[meta.lo]);
      hi = num(row[meta.hi]);
    }
    const time = timeMs(row[timeAt]);
    const bucket = num(row[bucketAt]);
    const count = num(row[countAt]);
    if (!drawn.has(time) || !Number.isInteger(bucket) || !(count > 0)) continue;
    const key = `${time}|${bucket}`;
    const had = byCell.get(key);
    // As HyperDX: of several rows for one cell (an unmerged distributed result), the first is drawn.
    if (!had) byCell.set(key, { time, bucket, from: null, to: null, count });
  }
  const cells = [...byCell.values()]
    .sort((a, b) => a.time - b.time || a.bucket - b.bucket)
    .map((c) => ({
      ...c,
      from: c.bucket >= 1 ? bucketEdge(Math.min(c.bucket, buckets + 1) - 1, lo, hi, scale) : null,
      to: c.bucket <= buckets ? bucketEdge(Math.max(c.bucket, 0), lo, hi, scale) : null,
    }));
  return {
    kind: 'heatmap',
    scale,
    times,
    stepMs,
    lo: Number.isFinite(lo) ? lo : 0,
    hi: Number.isFinite(hi) ? hi : 0,
    buckets,
    cells,
  };
}

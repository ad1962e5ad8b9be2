/** The histogram of a search (no `vscode`): its statement run, and the counts per bucket and stack read from its rows. */
import type { QueryResult } from '../api/query';
import { boundedText, timeOf } from './text';
import { rendered, type SearchRequest } from './request';

export interface HistogramModel {
  /** Bucket starts (epoch ms), ascending. */
  buckets: number[];
  /** Stack names (severities or status codes; '' when the source names none). */
  groups: string[];
  /** counts[group][bucket]. */
  counts: number[][];
  /** Events counted over the whole range. */
  total: number;
  bucketMs: number;
}

/** The histogram of a search alone. */
export async function runHistogram(
  run: (sql: string) => Promise<QueryResult>,
  req: SearchRequest,
): Promise<HistogramModel> {
  const r = rendered(req);
  return histogramOf(await run(r.histogram.sql), r.histogram);
}

export function emptyHistogram(): HistogramModel {
  return { buckets: [], groups: [], counts: [], total: 0, bucketMs: 60_000 };
}

interface HistogramShape {
  granularity: { seconds: number };
  range: { from: number; to: number };
  columns: { time?: { index: number } | undefined; values: { index: number }[]; groups: { index: number }[] };
}

/** Counts per bucket and stack out of the histogram statement's rows. */
export function histogramOf(result: QueryResult, shape: HistogramShape): HistogramModel {
  const t = shape.columns.time?.index ?? 0;
  const v = shape.columns.values[0]?.index ?? 1;
  const g = shape.columns.groups[0]?.index;
  const byGroup = new Map<string, Map<number, number>>();
  const times = new Set<number>();
  let total = 0;
  for (const row of result.rows) {
    const at = timeOf(row[t]);
    const n = Number(row[v]);
    if (!Number.isFinite(at) || !Number.isFinite(n)) continue;
    const group = g === undefined ? '' : boundedText(row[g], 100);
    times.add(at);
    const m = byGroup.get(group) ?? new Map<number, number>();
    m.set(at, (m.get(at) ?? 0) + n);
    byGroup.set(group, m);
    total += n;
  }
  const bucketMs = shape.granularity.seconds * 1000;
  const buckets: number[] = [];
  const start = Math.floor(shape.range.from / bucketMs) * bucketMs;
  for (let at = start; at <= shape.range.to && buckets.length < 2000; at += bucketMs) buckets.push(at);
  for (const at of times) if (!buckets.includes(at)) buckets.push(at);
  buckets.sort((a, b) => a - b);
  const groups = [...byGroup.keys()].sort();
  const counts = groups.map((name) => buckets.map((at) => byGroup.get(name)!.get(at) ?? 0));
  return { buckets, groups, counts, total, bucketMs };
}

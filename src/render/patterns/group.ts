/**
 * HyperDX's event patterns from sampled rows (its `useGroupedPatterns`, pure): each row's text, escape sequences
 * removed, goes through one new template miner in the order the rows came; rows are grouped by cluster ID; a
 * pattern's count is its rows × (total count ÷ rows sampled), rounded, at least 1; its trend counts its rows per
 * bucket of the range (automatic granularity of at most 24 buckets, from the start rounded down while before the
 * end), each scaled the same way; its text is the last row's text with the last template written over it, its
 * level the last row's. Patterns are ordered by count, most first (ties by cluster ID).
 */
import { autoGranularity, bucketStart, type Granularity } from '../sql';
import { TemplateMiner } from './drain';
import { reconstructTemplate, stripAnsi } from './text';

export interface SampledRow {
  /** The pattern column's text. */
  text: string;
  /** The row's time (epoch ms). */
  time: number;
  /** The severity (logs) or status code (traces), when the source has one. */
  level?: string | undefined;
}

export interface EventPattern {
  /** drain3's cluster ID. */
  id: number;
  pattern: string;
  count: number;
  /** The count as HyperDX shows it ("~12"). */
  countText: string;
  level?: string | undefined;
  /** Rows of the sample in this pattern. */
  sampled: number;
  /** The last row's text (escape sequences removed): an event of the pattern as it was. */
  sample: string;
  /** One count per trend bucket (`EventPatterns.times`), scaled as the count. */
  trend: number[];
}

export interface EventPatterns {
  patterns: EventPattern[];
  /** Rows mined. */
  sampled: number;
  /** The total count the counts are scaled to (undefined: not known, counts are the sample's). */
  total: number | undefined;
  /** total ÷ sampled (1 when either is 0 or unknown). */
  multiplier: number;
  granularity: Granularity;
  /** Starts of the trend buckets. */
  times: number[];
}

/** The trend buckets of a range: from its start rounded down, while before its end. */
export function trendTimes(range: { from: number; to: number }, g: Granularity): number[] {
  const times: number[] = [];
  for (let t = bucketStart(range.from, g); t < range.to && times.length < 10_000; t += g.seconds * 1000) times.push(t);
  return times;
}

export function groupPatterns(
  rows: readonly SampledRow[],
  total: number | undefined,
  range: { from: number; to: number },
): EventPatterns {
  const miner = new TemplateMiner();
  const mined = rows.map((r) => miner.addLogMessage(stripAnsi(r.text)));
  const multiplier = total && rows.length ? total / rows.length : 1;
  const granularity = autoGranularity(range.from, range.to, 24);
  const times = trendTimes(range, granularity);
  const groups = new Map<number, number[]>();
  mined.forEach((m, i) => {
    const list = groups.get(m.clusterId);
    if (list) list.push(i);
    else groups.set(m.clusterId, [i]);
  });
  const patterns = [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([id, indexes]): EventPattern => {
      const buckets = new Map<number, number>(times.map((t) => [t, 0]));
      for (const i of indexes) {
        const b = bucketStart(rows[i]!.time, granularity);
        buckets.set(b, (buckets.get(b) ?? 0) + 1);
      }
      const count = Math.max(Math.round(indexes.length * multiplier), 1);
      const last = indexes[indexes.length - 1]!;
      return {
        id,
        pattern: reconstructTemplate(stripAnsi(rows[last]!.text), mined[last]!.template),
        count,
        countText: `~${count}`,
        ...(rows[last]!.level !== undefined ? { level: rows[last]!.level } : {}),
        sampled: indexes.length,
        sample: stripAnsi(rows[last]!.text),
        trend: times.map((t) => Math.round((buckets.get(t) ?? 0) * multiplier)),
      };
    })
    .sort((a, b) => b.count - a.count);
  return { patterns, sampled: rows.length, total, multiplier, granularity, times };
}

/**
 * An event pattern tile's sample rows → its drawing (pure: no `vscode`, no network): the patterns mined as HyperDX
 * mines them (`./patterns`), and a line for the subtitle saying how the counts were reached.
 */
import { groupPatterns, type EventPatterns, type SampledRow } from '../render/patterns';
import type { PatternsData } from './protocol';

interface ResultLike {
  rows: readonly (readonly unknown[])[];
}

function num(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** The drawing of mined patterns, with the subtitle's line. */
export function patternsDataOf(mined: EventPatterns, samples: number): PatternsData {
  const data: PatternsData = {
    kind: 'patterns',
    times: mined.times,
    stepMs: mined.granularity.seconds * 1000,
    sampled: mined.sampled,
    ...(mined.total !== undefined ? { total: mined.total } : {}),
    patterns: mined.patterns.map((p) => ({
      pattern: p.pattern,
      count: p.count,
      countText: p.countText,
      ...(p.level !== undefined && p.level !== '' ? { level: p.level } : {}),
      trend: p.trend,
    })),
  };
  const note = samplingNote(mined, samples);
  return note ? { ...data, subtitle: note } : data;
}

/** How the counts came about, when they are not plain counts of every row. */
export function samplingNote(mined: EventPatterns, samples: number): string | undefined {
  if (mined.sampled === 0 || mined.multiplier === 1) return undefined;
  const total = mined.total ?? mined.sampled;
  const of = mined.sampled >= samples ? `a random sample of ${mined.sampled}` : `${mined.sampled}`;
  return `~ counts extrapolated from ${of} rows to ${total} in total`;
}

/** Rows of the rendered sample query (text, time, total, level) → patterns. */
export function patternsOfResult(
  result: ResultLike,
  range: { from: number; to: number },
  opts: { level: boolean; samples: number; timeOf: (v: unknown) => number },
): PatternsData {
  const rows: SampledRow[] = result.rows.map((r) => ({
    text: r[0] === null || r[0] === undefined ? '' : String(r[0]),
    time: opts.timeOf(r[1]),
    ...(opts.level ? { level: r[3] === null || r[3] === undefined ? '' : String(r[3]) } : {}),
  }));
  const total = result.rows.length > 0 ? num(result.rows[0]![2]) : undefined;
  return patternsDataOf(groupPatterns(rows, total, range), opts.samples);
}

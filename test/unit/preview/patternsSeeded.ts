/**
 * The seeded event pattern tile's data, read with plain SQL written here (not with the renderer): its rows as
 * HyperDX's sample query selects them when a range holds fewer rows than the sample (every row: the pattern column,
 * the first timestamp column, the severity) and its total count as HyperDX's count query reads it (the range aligned
 * to the 80-bucket time chart granularity, end excluded). The emulator's clock is frozen at NOW, off every bucket
 * boundary. Used by `patterns.test.ts` and by `scripts/patterns-golden.mjs`, which records the golden values.
 */
import { query } from './golden';

const MIN = 60_000;
/** The emulator's frozen clock. */
export const NOW = Date.UTC(2026, 10, 26, 12, 17, 23, 250);
/** The seeded tile's filter (Runtime dashboard, "Payment log patterns"). */
export const WHERE = "ServiceName = 'payment'";

/** Ranges whose rows fit in HyperDX's sample of 10,000, with the total count query's step (80 buckets). */
export const RANGES = [
  { name: '15 m', from: NOW - 15 * MIN, to: NOW, countStepMs: 15_000 },
  { name: '1 h', from: NOW - 60 * MIN, to: NOW, countStepMs: MIN },
  { name: '6 h', from: NOW - 360 * MIN, to: NOW, countStepMs: 5 * MIN },
] as const;

export interface SeededRow {
  text: string;
  time: number;
  level: string;
}

const at = (ms: number) => `fromUnixTimestamp64Milli(${ms})`;

/** Every row of the tile in the range, both ends included, by time, text and level. */
export async function seededRows(range: { from: number; to: number }): Promise<SeededRow[]> {
  const rows = await query(
    `SELECT Body AS text, toUnixTimestamp(TimestampTime) * 1000 AS time, SeverityText AS level FROM otel_logs
     WHERE TimestampTime >= ${at(range.from)} AND TimestampTime <= ${at(range.to)} AND ${WHERE}
     ORDER BY TimestampTime, Body, SeverityText`,
    'otel',
    NOW,
  );
  return rows.map((r) => ({ text: String(r.text), time: Number(r.time), level: String(r.level) }));
}

/** The total count: the range aligned to `stepMs` (start down, end up), end excluded. */
export async function seededTotal(range: { from: number; to: number }, stepMs: number): Promise<number> {
  const from = Math.floor(range.from / stepMs) * stepMs;
  const to = Math.ceil(range.to / stepMs) * stepMs;
  const rows = await query(
    `SELECT count() AS n FROM otel_logs WHERE TimestampTime >= ${at(from)} AND TimestampTime < ${at(to)} AND ${WHERE}`,
    'otel',
    NOW,
  );
  return Number(rows[0]?.n);
}

/**
 * Golden cells of the seeded heatmap tile ("Span duration distribution": server spans' Duration / 1e6 on a log
 * scale) and of the same tile on a linear scale, on the emulator's sample data with its clock frozen, over the
 * dashboard ranges (15 m, 1 h, 6 h, 24 h, 7 d) ending off every bucket boundary, and over an hour on boundaries.
 * The expected cells come from plain SQL written here, following HyperDX's heatmap step by step: the bounds (the 1 %
 * quantile of the non-negative values on a log scale, 0.1 % on a linear one, and the maximum) over the range as
 * picked with both ends included; on a log scale the lower bound raised to max × 1e-4; then counts per time bucket
 * (at most 245 buckets: HyperDX's steps, written out below) × value bucket (`widthBucket` into 80 between the
 * bounds, on logarithms for a log scale), drawn for the buckets from the start rounded down that begin before the
 * end. Queries run on one thread so ClickHouse's sampling quantile reads the rows in one order.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { tileDataOf, type ResultLike } from '../../../src/preview/data';
import type { HeatmapData } from '../../../src/preview/protocol';
import { renderTile, type SourceLike, type TileLike } from '../../../src/render';
import { buildState } from '../../emulator/seed';
import { engine } from './golden';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** The emulator's frozen clock: off every bucket boundary. */
const NOW = Date.UTC(2026, 10, 26, 12, 17, 23, 250);

/** Ranges and the time bucket HyperDX's heatmap picks for them (the smallest step giving at most 245 buckets). */
const RANGES = [
  { name: '15 m', from: NOW - 15 * MIN, to: NOW, step: 15 * SEC },
  { name: '1 h', from: NOW - HOUR, to: NOW, step: 15 * SEC },
  { name: '6 h', from: NOW - 6 * HOUR, to: NOW, step: 5 * MIN },
  { name: '24 h', from: NOW - DAY, to: NOW, step: 15 * MIN },
  { name: '7 d', from: NOW - 7 * DAY, to: NOW, step: HOUR },
  { name: '1 h on boundaries', from: Date.UTC(2026, 10, 26, 10), to: Date.UTC(2026, 10, 26, 11), step: 15 * SEC },
];

async function run(sql: string): Promise<ResultLike> {
  const e = await engine();
  e.ensureDatabase('otel');
  let out = '';
  await e.run(
    sql,
    'JSONCompactEachRowWithNamesAndTypes',
    'otel',
    new AbortController().signal,
    () => undefined,
    async (b) => {
      out += Buffer.from(b).toString('utf8');
      return true;
    },
    { date_time_output_format: 'unix_timestamp', output_format_json_quote_64bit_integers: '0', max_threads: '1' },
    NOW,
  );
  const [names, types, ...rows] = out
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as unknown[]);
  return {
    columns: (names ?? []).map((n, i) => ({ name: String(n), type: String(types?.[i]) })),
    rows: rows,
  };
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
/** A bound as HyperDX reads it from JSON: NaN and infinities arrive as null and read as 0. */
const bound = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The expected cells [time, bucket, count] and bounds, from plain SQL (not the renderer). */
async function expected(r: (typeof RANGES)[number], scale: 'log' | 'linear') {
  const value = 'Duration / 1e6';
  const where =
    `Timestamp >= fromUnixTimestamp64Milli(${r.from}) AND Timestamp <= fromUnixTimestamp64Milli(${r.to}) ` +
    `AND SpanKind = 'Server'`;
  const q = scale === 'log' ? 0.01 : 0.001;
  const b = await run(
    `SELECT quantileIf(${q})(${value}, ${value} >= 0), max(${value}) FROM otel_traces WHERE ${where}`,
  );
  const min = bound(b.rows[0]?.[0]);
  const hi = bound(b.rows[0]?.[1]);
  const lo = scale === 'log' ? Math.max(min, hi * 1e-4 || 1e-4) : min;
  if (!(hi > lo)) return { lo, hi, cells: [] as number[][] };
  const bucket =
    scale === 'log'
      ? `widthBucket(log(greatest(${value}, ${lo})), log(${lo}), log(${hi}), 80)`
      : `widthBucket(${value}, ${lo}, ${hi}, 80)`;
  const c = await run(
    `SELECT toUnixTimestamp(toStartOfInterval(Timestamp, INTERVAL ${r.step / SEC} SECOND)) * 1000 AS t, ${bucket} AS b, count() ` +
      `FROM otel_traces WHERE ${where} GROUP BY t, b ORDER BY t, b`,
  );
  const first = Math.floor(r.from / r.step) * r.step;
  const cells = c.rows.map((row) => row.map(Number)).filter(([t]) => (t as number) >= first && (t as number) < r.to);
  return { lo, hi, cells };
}

describe('Heatmap previews: the cells HyperDX draws (golden, on the emulator ClickHouse)', () => {
  const state = buildState('sample', 0);
  let tile: TileLike | undefined;
  let source: SourceLike | undefined;
  before(() => {
    for (const data of state.data.values()) {
      for (const d of data.dashboards.values()) {
        for (const t of d.tiles as TileLike[]) {
          if (!tile && t.config?.displayType === 'heatmap') {
            tile = t;
            source = data.sources.get(String(t.config.sourceId)) as SourceLike | undefined;
          }
        }
      }
    }
  });

  for (const scale of ['log', 'linear'] as const) {
    for (const r of RANGES) {
      it(`${scale} scale, ${r.name} (${new Date(r.from).toISOString()} → ${new Date(r.to).toISOString()})`, async () => {
        assert.ok(tile && source, 'the sample dashboards hold a heatmap tile');
        const config = tile.config as Record<string, unknown>;
        const select = (config.select as Record<string, unknown>[]).map((s) => ({ ...s, heatmapScaleType: scale }));
        const res = renderTile(
          { ...tile, config: { ...config, select } },
          { range: { from: r.from, to: r.to }, source },
        );
        assert.ok(res.ok, res.ok ? '' : res.reason);
        assert.equal(res.shape, 'heatmap');
        assert.equal((res.granularity?.seconds ?? 0) * SEC, r.step, 'time bucket');
        const data = tileDataOf(res, await run(res.sql), { displayType: 'heatmap' }) as HeatmapData;
        assert.equal(data.kind, 'heatmap');
        const want = await expected(r, scale);
        assert.ok(want.cells.length > 0, 'the range holds server spans');
        assert.ok(close(data.lo, want.lo), `lower bound ${data.lo} vs ${want.lo}`);
        assert.ok(close(data.hi, want.hi), `upper bound ${data.hi} vs ${want.hi}`);
        assert.deepEqual(
          data.cells.map((c) => [c.time, c.bucket, c.count]),
          want.cells,
        );
        const first = Math.floor(r.from / r.step) * r.step;
        assert.equal(data.times[0], first, 'first time bucket');
        assert.equal(data.times.length, Math.ceil((r.to - first) / r.step), 'time buckets drawn');
        // Each cell's value range: bucket j of 80 between the bounds (on logarithms for a log scale).
        for (const c of data.cells.filter((x) => x.bucket >= 1 && x.bucket <= 80)) {
          const edge = (k: number) =>
            scale === 'log' ? want.lo * Math.pow(want.hi / want.lo, k / 80) : want.lo + (k * (want.hi - want.lo)) / 80;
          assert.ok(
            close(c.from ?? NaN, edge(c.bucket - 1)) && close(c.to ?? NaN, edge(c.bucket)),
            `edges of ${c.bucket}`,
          );
        }
      });
    }
  }

  it('a range without matching rows draws no cells (HyperDX skips the counts when the bounds leave no room)', async () => {
    assert.ok(tile && source);
    const config = {
      ...(tile.config as Record<string, unknown>),
      where: "SpanKind = 'NoSuchKind'",
      whereLanguage: 'sql',
    };
    const res = renderTile({ ...tile, config }, { range: { from: NOW - HOUR, to: NOW }, source });
    assert.ok(res.ok);
    const data = tileDataOf(res, await run(res.sql), { displayType: 'heatmap' }) as HeatmapData;
    assert.deepEqual(data.cells, []);
    assert.equal(data.times.length, 241, 'the hour from its start rounded down to 15 s');
  });

  it('a value expression with an aggregate is refused by name, not drawn with other numbers', () => {
    assert.ok(tile && source);
    const config = { ...(tile.config as Record<string, unknown>), select: [{ valueExpression: 'avg(Duration)' }] };
    const res = renderTile({ ...tile, config }, { range: { from: NOW - HOUR, to: NOW }, source });
    assert.equal(res.ok, false);
    assert.match(res.ok ? '' : res.reason, /^heatmaps of an aggregate value expression are not previewed yet$/);
  });
});

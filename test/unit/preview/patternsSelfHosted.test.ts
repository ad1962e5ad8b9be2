/**
 * The seeded event pattern tile through the self-hosted API (the series route), against the emulator's self-hosted
 * flavor with its clock frozen: a random sample from the search API (up to its 2,000 rows) and the total from a count
 * series. Ranges whose rows fit in one search answer give exactly the golden patterns, counts, levels and trends
 * (recorded with drain3's Python source: `patterns-golden.json`); a longer one is a sample of 2,000 rows whose counts
 * are scaled to the exact total, and the subtitle says so.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SelfHostedClient } from '../../../src/api/oss';
import { RateLimiter } from '../../../src/api/rateLimiter';
import type { PatternsData } from '../../../src/preview/protocol';
import type { SourceLike, TileLike } from '../../../src/render';
import { planTile, previewBySeries, type SeriesRoute } from '../../../src/preview/series';
import { ossData } from '../../emulator/oss/seed';
import { startEmulator, type Emulator } from '../../emulator/server';
import { NOW, RANGES } from './patternsSeeded';

interface GoldenRange {
  name: string;
  times: number[];
  sampled: number;
  total: number;
  patterns: { pattern: string; count: number; level: string; trend: number[] }[];
}
const golden = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', '..', 'test', 'unit', 'preview', 'patterns-golden.json'), 'utf8'),
) as { seeded: GoldenRange[] };

describe('Event pattern tiles through the self-hosted API', () => {
  let emu: Emulator;
  let client: SelfHostedClient;
  let route: SeriesRoute;
  const bodies: { search: unknown[]; series: unknown[] } = { search: [], series: [] };

  before(async () => {
    emu = await startEmulator({ flavor: 'oss', rateLimit: false, now: NOW });
    client = new SelfHostedClient({
      connection: { baseUrl: emu.url },
      getSecret: () => emu.ossApiKey,
      limiter: new RateLimiter({ requests: 10_000, windowMs: 1000 }),
    });
    route = {
      chartSeries: async (body) => {
        bodies.series.push(body);
        return (await client.chartSeries(body)).data;
      },
      search: async (body) => {
        bodies.search.push(body);
        return (await client.search(body)).data;
      },
    };
  });
  after(async () => {
    await client?.close();
    await emu?.close();
  });

  function seededTile(): { tile: TileLike; source: SourceLike; dashboard: unknown } {
    const data = ossData(emu.state);
    const dashboard = [...data.dashboards.values()].find((d) => d.name === 'Runtime')!;
    const tile = (dashboard.tiles as TileLike[]).find((t) => t.config?.displayType === 'event_patterns')!;
    assert.ok(tile, 'the seeded event pattern tile');
    return { tile, source: data.sources.get(String(tile.config?.sourceId)) as SourceLike, dashboard };
  }

  it('asks for a random sample of the range as picked and the count over the range aligned to the count buckets', () => {
    const { tile, source } = seededTile();
    const range = RANGES[1];
    const plan = planTile(tile, { range, source });
    assert.ok(plan.ok && plan.route === 'patterns', JSON.stringify(plan));
    assert.deepEqual(plan.search, {
      sourceId: source.id,
      startTime: new Date(range.from).toISOString(),
      endTime: new Date(range.to).toISOString(),
      where: "ServiceName = 'payment'",
      whereLanguage: 'sql',
      select: 'Body AS __hdx_pattern_field, TimestampTime AS __hdx_timestamp, SeverityText AS __hdx_severity_text',
      orderBy: 'rand() DESC',
      maxResults: 2000,
    });
    // 1 h: one-minute buckets; the start rounded down, the end up and excluded (asked to the millisecond before).
    const minute = 60_000;
    assert.deepEqual(plan.count, {
      series: [
        { sourceId: source.id, aggFn: 'count', groupBy: [], where: "ServiceName = 'payment'", whereLanguage: 'sql' },
      ],
      startTime: Math.floor(range.from / minute) * minute,
      endTime: Math.ceil(range.to / minute) * minute - 1,
      granularity: '1m',
    });
  });

  for (const range of RANGES.filter((r) => r.name !== '6 h')) {
    it(`gives the golden patterns, counts, levels and trends when the range fits in one answer (${range.name})`, async () => {
      const { tile, source, dashboard } = seededTile();
      const expected = golden.seeded.find((s) => s.name === range.name)!;
      assert.ok(expected.sampled <= 2000);
      const { data, request, notes } = await previewBySeries(route, tile, {
        range,
        source,
        dashboard: dashboard as never,
      });
      assert.equal(data.kind, 'patterns', JSON.stringify(data));
      const d = data as PatternsData;
      assert.equal(d.sampled, expected.sampled);
      assert.equal(d.total, expected.total);
      assert.deepEqual(d.times, expected.times);
      const key = (p: { pattern: string; count: number; level?: string | undefined; trend: number[] }) =>
        JSON.stringify([p.pattern, p.count, p.level, p.trend]);
      assert.deepEqual(d.patterns.map(key).sort(), expected.patterns.map(key).sort());
      assert.deepEqual(
        d.patterns.map((p) => p.count),
        expected.patterns.map((p) => p.count),
      );
      assert.deepEqual(notes, [`~ counts extrapolated from ${expected.sampled} rows to ${expected.total} in total`]);
      assert.match(request ?? '', /^POST \/api\/v2\/search\n[\s\S]*\n\nPOST \/api\/v2\/charts\/series\n/);
    });
  }

  it('mines a random sample of 2,000 rows of a longer range and scales the counts to the exact total (6 h)', async () => {
    const { tile, source, dashboard } = seededTile();
    const range = RANGES[2];
    const expected = golden.seeded.find((s) => s.name === range.name)!;
    assert.ok(expected.sampled > 2000);
    const { data, notes } = await previewBySeries(route, tile, { range, source, dashboard: dashboard as never });
    const d = data as PatternsData;
    assert.equal(d.kind, 'patterns');
    assert.equal(d.sampled, 2000);
    assert.equal(d.total, expected.total);
    assert.deepEqual(notes, [`~ counts extrapolated from a random sample of 2000 rows to ${expected.total} in total`]);
    // Every pattern is one of HyperDX's (the frequent ones are all there); the counts add up to about the total.
    const known = new Set(expected.patterns.map((p) => p.pattern));
    assert.ok(
      d.patterns.every((p) => known.has(p.pattern)),
      d.patterns.map((p) => p.pattern).join('\n'),
    );
    for (const p of expected.patterns.filter((x) => x.count >= 400)) {
      assert.ok(
        d.patterns.some((q) => q.pattern === p.pattern),
        `${p.pattern} is found`,
      );
    }
    const sum = d.patterns.reduce((s, p) => s + p.count, 0);
    assert.ok(Math.abs(sum - expected.total) <= d.patterns.length, `${sum} ≈ ${expected.total}`);
  });
});

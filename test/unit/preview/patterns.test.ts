/**
 * Event patterns as HyperDX computes them, against golden values recorded with drain3's own Python source
 * (`scripts/patterns-golden.mjs` → `patterns-golden.json`): the template miner's cluster IDs and templates for
 * hand-made and seeded log lines, and the seeded pattern tile's patterns, counts, levels and trends for three ranges
 * whose rows fit in HyperDX's sample (rows and totals read with plain SQL on the emulator's data, clock frozen).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tileDataOf } from '../../../src/preview/data';
import { groupPatterns, reconstructTemplate, stripAnsi, TemplateMiner } from '../../../src/render/patterns';
import type { PatternsData } from '../../../src/preview/protocol';
import { renderTile, type SourceLike, type TileLike } from '../../../src/render';
import { buildState } from '../../emulator/seed';
import { query } from './golden';
import { NOW, RANGES, seededRows, seededTotal } from './patternsSeeded';

interface Golden {
  drain3: { version: string; commit: string };
  lines: { line: string; clusterId: number; template: string }[];
  seeded: {
    name: string;
    from: number;
    to: number;
    stepMs: number;
    times: number[];
    sampled: number;
    total: number;
    patterns: { id: number; pattern: string; count: number; level: string; sampled: number; trend: number[] }[];
  }[];
}

const golden = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', '..', 'test', 'unit', 'preview', 'patterns-golden.json'), 'utf8'),
) as Golden;

describe('Event patterns (drain3 0.9.11 as HyperDX runs it)', () => {
  it('gives every line the cluster ID and template drain3 gives it', () => {
    const miner = new TemplateMiner();
    assert.ok(golden.lines.length > 500);
    const mined = golden.lines.map((l) => miner.addLogMessage(l.line));
    assert.deepEqual(
      mined,
      golden.lines.map((l) => ({ clusterId: l.clusterId, template: l.template })),
    );
  });

  for (const range of RANGES) {
    it(`groups the seeded tile's rows as HyperDX's pattern table (${range.name})`, async () => {
      const expected = golden.seeded.find((s) => s.name === range.name)!;
      const rows = await seededRows(range);
      const total = await seededTotal(range, range.countStepMs);
      assert.equal(rows.length, expected.sampled);
      assert.equal(total, expected.total);
      const got = groupPatterns(rows, total, range);
      assert.equal(got.granularity.seconds * 1000, expected.stepMs);
      assert.deepEqual(got.times, expected.times);
      assert.deepEqual(
        got.patterns.map((p) => ({
          id: p.id,
          pattern: p.pattern,
          count: p.count,
          level: p.level,
          sampled: p.sampled,
          trend: p.trend,
        })),
        expected.patterns,
      );
      assert.ok(got.patterns.every((p) => p.countText === `~${p.count}`));
      // The rows in another order (HyperDX samples in random order) give the same patterns and counts.
      const reordered = groupPatterns([...rows].reverse(), total, range);
      const key = (p: { pattern: string; count: number }) => `${p.pattern} ${p.count}`;
      assert.deepEqual(reordered.patterns.map(key).sort(), got.patterns.map(key).sort());
    });
  }

  it("previews the seeded tile on the SQL route with HyperDX's patterns, counts, levels and trends", async () => {
    const state = buildState('sample', 0);
    const data = [...state.data.values()][0]!;
    const dashboard = [...data.dashboards.values()].find((d) => d.name === 'Runtime')!;
    const tile = (dashboard.tiles as TileLike[]).find((t) => t.name === 'Payment log patterns')!;
    const source = data.sources.get(String(tile.config?.sourceId)) as SourceLike;
    for (const range of RANGES) {
      const expected = golden.seeded.find((s) => s.name === range.name)!;
      const rendered = renderTile(tile, { range, source, dashboard: dashboard as never });
      assert.ok(rendered.ok && rendered.shape === 'patterns', JSON.stringify(rendered));
      assert.match(rendered.sql, /ORDER BY rand\(\) DESC LIMIT 10000$/);
      const rows = await query(rendered.sql, 'otel', NOW);
      const result = { columns: [], rows: rows.map((r) => Object.values(r)) };
      const drawn = tileDataOf(rendered, result, { displayType: 'event_patterns' }) as PatternsData;
      assert.equal(drawn.kind, 'patterns');
      assert.equal(drawn.sampled, expected.sampled);
      assert.equal(drawn.total, expected.total);
      assert.deepEqual(drawn.times, expected.times);
      // The rows come in random order (ORDER BY rand()): cluster IDs follow the order, the patterns do not.
      const key = (p: { pattern: string; count: number; level?: string | undefined; trend: number[] }) =>
        JSON.stringify([p.pattern, p.count, p.level, p.trend]);
      assert.deepEqual(drawn.patterns.map(key).sort(), expected.patterns.map(key).sort());
      assert.deepEqual(
        drawn.patterns.map((p) => p.count),
        expected.patterns.map((p) => p.count),
      );
      assert.ok(drawn.patterns.every((p) => p.countText === `~${p.count}`));
      // The total counts the range aligned to the count chart's buckets: more rows than were mined, so the counts
      // are extrapolated and the subtitle says so.
      assert.ok(expected.total > expected.sampled);
      assert.equal(drawn.subtitle, `~ counts extrapolated from ${expected.sampled} rows to ${expected.total} in total`);
    }
  });

  it('counts the sample as it is when the total is unknown or zero, and never below 1', () => {
    const range = { from: 0, to: 3600_000 };
    const rows = [
      { text: 'a 1', time: 10 },
      { text: 'a 2', time: 20 },
      { text: 'b', time: 30 },
    ];
    assert.deepEqual(
      groupPatterns(rows, undefined, range).patterns.map((p) => [p.pattern, p.count]),
      [
        ['a <*>', 2],
        ['b', 1],
      ],
    );
    assert.equal(groupPatterns(rows, 0, range).multiplier, 1);
    // 3 rows stand for 1: "b" would round to 0 and shows 1.
    assert.deepEqual(
      groupPatterns(rows, 1, range).patterns.map((p) => p.count),
      [1, 1],
    );
  });

  it("removes escape sequences as strip-ansi 6 and rebuilds a pattern as HyperDX's reconstructTemplate", () => {
    assert.equal(stripAnsi('\u001b[31mERROR\u001b[0m disk full'), 'ERROR disk full');
    assert.equal(stripAnsi('\u001b]0;title\u0007text'), 'text');
    assert.equal(reconstructTemplate('hello world', ''), 'hello world');
    assert.equal(
      reconstructTemplate('{"hostname":"foo","pid":12345,"time":1700000000}', 'hostname foo pid <*> time <*>'),
      '{"hostname":"foo","pid":<*>,"time":<*>}',
    );
    assert.equal(
      reconstructTemplate('level=info msg=hello user_id=42', 'level info msg hello user id <*>'),
      'level=info msg=hello user_id=<*>',
    );
    assert.equal(reconstructTemplate('alpha beta gamma delta', 'alpha beta'), 'alpha beta gamma delta');
    assert.equal(reconstructTemplate('[INFO] hello world', 'INFO hello world'), '[INFO] hello world');
    assert.equal(
      reconstructTemplate('Error:\n  message: "failed"\n  code: 500', 'Error message failed code <*>'),
      'Error: message: "failed" code: <*>',
    );
  });
});

/**
 * Production exceptions at the code (golden, embedded ClickHouse): the one statement over the emulator's sample data
 * on a frozen clock, its groups placed on the sample workspace's lines by their top in-workspace frame — each line's
 * count equal to plain SQL written here (span events counted per span name, logged exceptions counted apart).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { TraceSourceLike } from '../../../src/codeModel/aggregate';
import { exceptionAggregateSql, readExceptionAggregate } from '../../../src/codeModel/exceptionAggregate';
import { exceptionSites } from '../../../src/codeModel/exceptionSites';
import type { LogSourceLike } from '../../../src/codeModel/logCounts';
import { indexWorkspace, mapPath } from '../../../src/codeModel/pathMapping';
import { buildState } from '../../emulator/seed';
import { query } from '../preview/golden';

const NOW = Date.UTC(2026, 10, 26, 12, 17, 23, 250);
const RANGE = { from: NOW - 24 * 3_600_000, to: NOW };
const FIXTURES = path.resolve(__dirname, '../../../../test/fixtures/codeWorkspace');

function files(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? files(dir, p) : [p];
  });
}

const WORKSPACE = indexWorkspace(files(FIXTURES));
const toWorkspace = (file: string): string | undefined => {
  const m = mapPath(file, WORKSPACE);
  return m.kind === 'mapped' ? m.path : undefined;
};

function sources(): { traces: TraceSourceLike; logs: LogSourceLike } {
  const data = [...buildState('sample', 0).data.values()][0];
  const all = [...(data?.sources.values() ?? [])] as { kind?: string }[];
  return {
    traces: all.find((s) => s.kind === 'trace') as TraceSourceLike,
    logs: all.find((s) => s.kind === 'log') as LogSourceLike,
  };
}

const within = (ts: string) =>
  `${ts} >= fromUnixTimestamp64Milli(${RANGE.from}) AND ${ts} < fromUnixTimestamp64Milli(${RANGE.to})`;

/** Each marked line, and the span names (and whether logs) whose exceptions it counts. */
const LINES: [string, number, string[], boolean][] = [
  ['src/checkout/cart.ts', 17, ['CartService.removeItem'], false],
  ['src/checkout/cart.ts', 36, ['applyCoupon'], false],
  ['app/payments/charge.py', 14, ['Charger.refund'], false],
  ['app/payments/charge.py', 19, ['Charger.charge'], true],
  ['src/main/java/com/shop/inventory/StockService.java', 10, ['StockService.reserve'], false],
];

describe('Production exceptions at the code (golden, embedded ClickHouse)', () => {
  it('marks each line with the count plain SQL gives, from one statement over spans and logs', async () => {
    const { traces, logs } = sources();
    const st = exceptionAggregateSql(traces, logs, { range: RANGE });
    assert.ok(st.ok, st.ok ? '' : st.reason);
    assert.equal(st.logs, true);
    const db = String(traces.from?.databaseName);
    const agg = readExceptionAggregate(await query(st.sql, db, NOW));
    assert.ok(agg.groups.length > 0);
    assert.equal(agg.cut, 0);
    const sites = exceptionSites(agg.groups, toWorkspace);

    const perSpan = new Map(
      (
        await query(
          `SELECT SpanName AS name, sum(arrayCount(n -> n = 'exception', Events.Name)) AS events
           FROM otel_traces WHERE ServiceName LIKE 'code-%' AND ${within('Timestamp')} GROUP BY SpanName`,
          db,
          NOW,
        )
      ).map((r) => [String(r.name), Number(r.events)]),
    );
    const [logged] = await query(
      `SELECT count() AS n FROM otel_logs
       WHERE LogAttributes['exception.stacktrace'] LIKE '%/usr/src/app/app/payments/charge.py", line 19,%'
         AND ${within('TimestampTime')}`,
      db,
      NOW,
    );
    const marked = [...sites.values()].flat().map((s) => [s.path, s.line]);
    assert.deepEqual(marked.sort(), LINES.map(([p, l]) => [p, l]).sort(), 'only the lines that threw are marked');
    for (const [file, line, spanNames, withLogs] of LINES) {
      const site = sites.get(file)?.find((s) => s.line === line);
      assert.ok(site, `${file}:${line} is marked`);
      const spans = spanNames.reduce((n, s) => n + (perSpan.get(s) ?? 0), 0);
      const logs = withLogs ? Number(logged?.n) : 0;
      assert.ok(spans > 0, `${spanNames.join(', ')} recorded exceptions in the range`);
      assert.equal(site.spanCount, spans, `${file}:${line} span events`);
      assert.equal(site.logCount, logs, `${file}:${line} logged exceptions`);
      assert.equal(site.count, spans + logs);
      assert.ok(site.first <= site.last && site.first >= RANGE.from && site.last < RANGE.to);
    }
    const coupon = sites.get('src/checkout/cart.ts')?.find((s) => s.line === 36);
    assert.equal(coupon?.groups.length, 1, 'messages that differ make one group');
    assert.match(coupon?.groups[0]?.traceId ?? '', /^[0-9a-f]{32}$/);
  });

  it('reads span events alone when there is no log source, and says why there is no statement', () => {
    const { traces, logs } = sources();
    const st = exceptionAggregateSql(traces, undefined, { range: RANGE });
    assert.ok(st.ok && !st.logs && !st.sql.includes('otel_logs'));
    assert.deepEqual(exceptionAggregateSql(logs as TraceSourceLike, undefined, { range: RANGE }), {
      ok: false,
      reason: 'the source is not a trace source',
    });
    assert.deepEqual(exceptionAggregateSql(traces, logs, { range: { from: 5, to: 5 } }), {
      ok: false,
      reason: 'the time range is empty or not whole milliseconds',
    });
  });

  it('keeps the top groups and says the cut', async () => {
    const { traces, logs } = sources();
    const st = exceptionAggregateSql(traces, logs, { range: RANGE, limit: 2 });
    assert.ok(st.ok);
    const agg = readExceptionAggregate(await query(st.sql, String(traces.from?.databaseName), NOW));
    assert.equal(agg.groups.length, 2);
    assert.ok(agg.cut > 0);
    assert.ok(agg.cutCount > 0);
    assert.ok((agg.groups[0]?.count ?? 0) >= (agg.groups[1]?.count ?? 0));
  });
});

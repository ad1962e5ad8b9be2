/**
 * Golden figures of the code aggregate on the emulator's embedded ClickHouse: spans with code attributes of both
 * generations (and some without) are written into this test's own table; the statement's figures must equal those
 * of plain SQL written here in another way (and the calls and errors those counted here in JavaScript from the
 * generator's formula), unweighted and weighted by the sample rate, with the cut said. The emulator's sample data
 * is read on a frozen clock.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeAggregateSql, readAggregate, type TraceSourceLike } from '../../../src/codeModel/aggregate';
import { buildState } from '../../emulator/seed';
import { query } from '../preview/golden';

const DB = 'code_golden';
const T0 = Date.UTC(2026, 0, 2, 0, 0, 0);
const N = 4000;
/** Rows 100 … 3699 (row i is at T0 + i s; the end is excluded). */
const RANGE = { from: T0 + 100_000, to: T0 + 3_700_000 };
const HUGE = 'x'.repeat(5000);

const SOURCE: TraceSourceLike = {
  kind: 'trace',
  from: { databaseName: DB, tableName: 'otel_traces' },
  timestampValueExpression: 'Timestamp',
  durationExpression: 'Duration',
  durationPrecision: 9,
  statusCodeExpression: 'StatusCode',
  eventAttributesExpression: 'SpanAttributes',
  serviceNameExpression: 'ServiceName',
};

/** Row i's code location as the generator writes it (see `fill`): [file, function, namespace] or undefined. */
function groupOf(i: number): [string, string, string] | undefined {
  switch (i % 5) {
    case 0:
      return ['/app/src/main/java/com/example/pay/ChargeService.java', 'com.example.pay.ChargeService.charge', ''];
    case 1:
      return ['', 'refund', 'com.example.pay.ChargeService'];
    case 2:
      return ['/app/src/pay/charge.ts', 'chargeCard', ''];
    case 3:
      return undefined;
    default:
      return ['/app/src/gen.ts', i % 370 === 4 ? HUGE.slice(0, 1024) : `generated${i % 37}`, ''];
  }
}
const isError = (i: number): boolean => i % 13 === 0 || i % 17 === 0;
const weightOf = (i: number): number => Math.max(i % 4, 1);

let filled: Promise<unknown> | undefined;
function fill(): Promise<unknown> {
  filled ??= (async () => {
    await query('TRUNCATE TABLE otel_traces', DB);
    await query(
      `INSERT INTO otel_traces (Timestamp, TraceId, SpanId, SpanName, SpanKind, ServiceName, SpanAttributes, Duration, StatusCode)
       SELECT fromUnixTimestamp64Milli(toInt64(${T0} + 1000 * number)), hex(number), hex(number), 'op', 'Server',
              if(number % 11 = 0, 'billing', 'checkout'),
              multiIf(
                number % 5 = 0, map('code.function.name', 'com.example.pay.ChargeService.charge',
                                    'code.file.path', '/app/src/main/java/com/example/pay/ChargeService.java',
                                    'code.line.number', '57', 'code.function', 'legacyName', 'SampleRate', toString(number % 4)),
                number % 5 = 1, map('code.function.name', '', 'code.namespace', 'com.example.pay.ChargeService',
                                    'code.function', 'refund', 'code.lineno', '80', 'SampleRate', toString(number % 4)),
                number % 5 = 2, map('code.function', 'chargeCard', 'code.filepath', '/app/src/pay/charge.ts',
                                    'code.lineno', if(number % 2 = 0, '44', '42'), 'SampleRate', toString(number % 4)),
                number % 5 = 3, map('http.route', '/pay', 'SampleRate', '9'),
                map('code.function', if(number % 370 = 4, repeat('x', 5000), concat('generated', toString(number % 37))),
                    'code.filepath', '/app/src/gen.ts', 'SampleRate', toString(number % 4))),
              (1 + (number * 7919) % 1000) * 1000000 + number,
              multiIf(number % 13 = 0, 'Error', number % 17 = 0, 'STATUS_CODE_ERROR', 'Ok')
       FROM numbers(${N})`,
      DB,
    );
  })();
  return filled;
}

/** The same figures in plain SQL, written without the statement's expressions. */
function plainSql(weighted: boolean, services?: string): string {
  const w = `if(toUInt64OrZero(SpanAttributes['SampleRate']) = 0, 1, toUInt64OrZero(SpanAttributes['SampleRate']))`;
  return `
    SELECT file, fn, ns,
           ${weighted ? `sum(${w})` : 'count()'} AS calls,
           ${weighted ? `sum(if(StatusCode = 'Error' OR StatusCode = 'STATUS_CODE_ERROR', ${w}, 0))` : `sum(StatusCode = 'Error' OR StatusCode = 'STATUS_CODE_ERROR')`} AS errors,
           ${weighted ? `quantileTDigestWeighted(0.95)(Duration / 1000000, toUInt32(${w}))` : 'quantileExactInclusive(0.95)(Duration / 1000000)'} AS p95,
           ifNull(min(nullIf(toUInt32OrZero(arrayFirst(x -> x != '', [SpanAttributes['code.line.number'], SpanAttributes['code.lineno']])), 0)), 0) AS line
    FROM (
      SELECT *,
             left(arrayFirst(x -> x != '', [SpanAttributes['code.file.path'], SpanAttributes['code.filepath']]), 1024) AS file,
             left(arrayFirst(x -> x != '', [SpanAttributes['code.function.name'], SpanAttributes['code.function']]), 1024) AS fn,
             left(SpanAttributes['code.namespace'], 1024) AS ns
      FROM otel_traces
      WHERE Timestamp >= toDateTime64('2026-01-02 00:01:40', 9, 'UTC') AND Timestamp < toDateTime64('2026-01-02 01:01:40', 9, 'UTC')
        ${services ? `AND ServiceName = '${services}'` : ''}
    )
    WHERE file != '' OR fn != ''
    GROUP BY file, fn, ns`;
}

type Key = string;
const key = (file: string, fn: string, ns: string): Key => JSON.stringify([file, fn, ns]);

/** Calls and errors per group, counted here from the generator's formula. */
function counted(weighted: boolean, onlyBilling = false): Map<Key, { calls: number; errors: number }> {
  const out = new Map<Key, { calls: number; errors: number }>();
  for (let i = 100; i < 3700; i++) {
    const g = groupOf(i);
    if (!g || (onlyBilling && i % 11 !== 0)) continue;
    const k = key(...g);
    const cur = out.get(k) ?? { calls: 0, errors: 0 };
    const w = weighted ? weightOf(i) : 1;
    cur.calls += w;
    if (isError(i)) cur.errors += w;
    out.set(k, cur);
  }
  return out;
}

async function run(source: TraceSourceLike, limit?: number, services?: string[]) {
  const st = codeAggregateSql(source, { range: RANGE, limit, services });
  assert.ok(st.ok, st.ok ? '' : st.reason);
  return { st, agg: readAggregate(await query(st.sql, DB)) };
}

describe('Code aggregate (golden, embedded ClickHouse)', () => {
  for (const weighted of [false, true]) {
    it(`equals plain SQL and the generator's counts${weighted ? ', weighted by SampleRate' : ''}`, async () => {
      await fill();
      const source = weighted ? { ...SOURCE, sampleRateExpression: 'SampleRate' } : SOURCE;
      const { st, agg } = await run(source);
      assert.equal(st.weighted, weighted);
      assert.equal(st.quantile.function, weighted ? 'quantileTDigestWeighted' : 'quantile');
      const plain = await query(plainSql(weighted), DB);
      assert.equal(agg.rows.length, plain.length);
      assert.equal(agg.groups, plain.length);
      assert.equal(agg.cut, 0);
      assert.equal(agg.cutCalls, 0);
      const expected = counted(weighted);
      assert.equal(expected.size, plain.length);
      for (const p of plain) {
        const k = key(String(p.file), String(p.fn), String(p.ns));
        const row = agg.rows.find((r) => key(r.file, r.function, r.namespace) === k);
        assert.ok(row, `group ${k.slice(0, 120)}`);
        assert.equal(row.calls, Number(p.calls), k);
        assert.equal(row.errors, Number(p.errors), k);
        // quantile (≤ 8,192 spans: every one kept) interpolates as quantileExactInclusive does, in another float order.
        assert.ok(
          Math.abs((row.p95Ms ?? NaN) - Number(p.p95)) <= 1e-9 * Number(p.p95),
          `${k}: ${row.p95Ms} ≠ ${p.p95}`,
        );
        assert.equal(row.line, Number(p.line), k);
        assert.deepEqual({ calls: row.calls, errors: row.errors }, expected.get(k), k);
      }
      // Sorted by calls, most first; both generations read; the stable key wins over the old one.
      assert.deepEqual(
        agg.rows.map((r) => r.calls),
        [...agg.rows.map((r) => r.calls)].sort((a, b) => b - a),
      );
      assert.ok(agg.rows.some((r) => r.function === 'refund' && r.namespace === 'com.example.pay.ChargeService'));
      assert.ok(!agg.rows.some((r) => r.function === 'legacyName'));
      assert.equal(agg.rows.find((r) => r.function === 'chargeCard')?.line, 42);
      assert.ok(agg.rows.some((r) => r.function.length === 1024));
    });
  }

  it('keeps the top groups by calls and says what it cut', async () => {
    await fill();
    const { agg: all } = await run(SOURCE);
    const { agg } = await run(SOURCE, 5);
    assert.deepEqual(agg.rows, all.rows.slice(0, 5));
    assert.equal(agg.groups, all.rows.length);
    assert.equal(agg.cut, all.rows.length - 5);
    assert.equal(
      agg.cutCalls,
      all.rows.slice(5).reduce((s, r) => s + r.calls, 0),
    );
  });

  it('reads only the services asked for', async () => {
    await fill();
    const { agg } = await run(SOURCE, undefined, ['billing']);
    const plain = await query(plainSql(false, 'billing'), DB);
    const expected = counted(false, true);
    assert.equal(agg.rows.length, plain.length);
    for (const r of agg.rows) {
      assert.deepEqual({ calls: r.calls, errors: r.errors }, expected.get(key(r.file, r.function, r.namespace)));
    }
  });

  it("runs on the emulator's sample traces on a frozen clock, matching a plain count", async () => {
    const state = buildState('sample', 0);
    const data = [...state.data.values()][0];
    const source = [...(data?.sources.values() ?? [])].find(
      (s) => (s as { kind?: string }).kind === 'trace',
    ) as TraceSourceLike;
    const now = Date.UTC(2026, 10, 26, 12, 17, 23, 250);
    const st = codeAggregateSql(source, { range: { from: now - 3_600_000, to: now } });
    assert.ok(st.ok);
    const db = String(source.from?.databaseName);
    const agg = readAggregate(await query(st.sql, db, now));
    const [plain] = await query(
      `SELECT count() AS n FROM otel_traces
       WHERE Timestamp >= fromUnixTimestamp64Milli(${now - 3_600_000}) AND Timestamp < fromUnixTimestamp64Milli(${now})
         AND (SpanAttributes['code.function.name'] != '' OR SpanAttributes['code.function'] != ''
              OR SpanAttributes['code.file.path'] != '' OR SpanAttributes['code.filepath'] != '')`,
      db,
      now,
    );
    assert.equal(agg.rows.reduce((s, r) => s + r.calls, 0) + agg.cutCalls, Number(plain?.n));
  });

  it('says why there is no statement', () => {
    const range = RANGE;
    const cases: [TraceSourceLike, string][] = [
      [{ ...SOURCE, kind: 'log' }, 'the source is not a trace source'],
      [{ ...SOURCE, from: { databaseName: DB, tableName: '' } }, 'the source names no table'],
      [{ ...SOURCE, timestampValueExpression: ' ' }, 'the source has no timestamp expression'],
      [{ ...SOURCE, durationExpression: undefined }, 'the source has no duration expression'],
    ];
    for (const [source, reason] of cases) assert.deepEqual(codeAggregateSql(source, { range }), { ok: false, reason });
    assert.equal(codeAggregateSql(SOURCE, { range: { from: 5, to: 5 } }).ok, false);
    assert.equal(codeAggregateSql(SOURCE, { range: { from: 0, to: Number.NaN } }).ok, false);
  });

  it('quotes service names and bounds the limit', () => {
    const st = codeAggregateSql(SOURCE, { range: RANGE, services: ["o'brien\\"], limit: 10 ** 9 });
    assert.ok(st.ok);
    assert.match(st.sql, /ServiceName IN \('o\\'brien\\\\'\)/);
    assert.match(st.sql, /LIMIT 10000$/);
  });
});

/**
 * Golden figures of the on-demand detail statement on the emulator's embedded ClickHouse: spans of this test's own
 * table, a function's calls and errors per time bucket as counted here in JavaScript from the generator's formula
 * (unweighted and weighted by the sample rate), its slowest and latest failing spans as plain SQL gives them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bucketSeconds, codeDetailSql, codeSearchCondition, type CodeGroup } from '../../../src/codeModel/detail';
import { readDetail } from '../../../src/codeModel/detailRead';
import type { TraceSourceLike } from '../../../src/codeModel/aggregate';
import { query } from '../preview/golden';

const DB = 'code_detail_golden';
const T0 = Date.UTC(2026, 0, 2, 0, 0, 0);
const N = 3000;
/** Row i is at T0 + 2 i s; rows 150 … 2849 lie in the range (the end is excluded). */
const RANGE = { from: T0 + 300_000, to: T0 + 5_700_000 };
const CHARGE: CodeGroup = { file: '/app/pay/charge.py', function: 'charge', namespace: 'Charger' };
const SOURCE: TraceSourceLike = {
  kind: 'trace',
  from: { databaseName: DB, tableName: 'otel_traces' },
  timestampValueExpression: 'Timestamp',
  durationExpression: 'Duration',
  durationPrecision: 9,
  statusCodeExpression: 'StatusCode',
  eventAttributesExpression: 'SpanAttributes',
  traceIdExpression: 'TraceId',
  spanIdExpression: 'SpanId',
  statusMessageExpression: 'StatusMessage',
};
const isCharge = (i: number) => i % 3 !== 2;
const isError = (i: number) => i % 7 === 0;
const weightOf = (i: number) => Math.max(i % 5, 1);

let filled: Promise<unknown> | undefined;
function fill(): Promise<unknown> {
  filled ??= (async () => {
    await query('TRUNCATE TABLE otel_traces', DB);
    await query(
      `INSERT INTO otel_traces (Timestamp, TraceId, SpanId, SpanName, ServiceName, SpanAttributes, Duration, StatusCode, StatusMessage)
       SELECT fromUnixTimestamp64Milli(toInt64(${T0} + 2000 * number)), lower(hex(number + 1000000)), hex(number), 'op', 'pay',
              if(number % 3 = 2, map('code.function', 'refund', 'code.namespace', 'Charger'),
                 if(number % 2 = 0,
                    map('code.function.name', 'charge', 'code.namespace', 'Charger', 'code.file.path', '/app/pay/charge.py', 'SampleRate', toString(number % 5)),
                    map('code.function', 'charge', 'code.namespace', 'Charger', 'code.filepath', '/app/pay/charge.py', 'SampleRate', toString(number % 5)))),
              ((number * 7919) % 997 + 1) * 1000000, if(number % 7 = 0, 'Error', 'Ok'), if(number % 7 = 0, concat('declined ', toString(number)), '')
       FROM numbers(${N})`,
      DB,
    );
  })();
  return filled;
}

describe('Code detail over time (golden, embedded ClickHouse)', () => {
  for (const weighted of [false, true]) {
    it(`gives each bucket's calls and errors as counted from the spans${weighted ? ', weighted' : ''}`, async () => {
      await fill();
      const source = weighted ? { ...SOURCE, sampleRateExpression: "SpanAttributes['SampleRate']" } : SOURCE;
      const st = codeDetailSql(source, { range: RANGE, groups: [CHARGE] });
      assert.ok(st.ok, st.ok ? '' : st.reason);
      assert.equal(st.stepSeconds, bucketSeconds(RANGE.to - RANGE.from));
      assert.equal(st.stepSeconds, 300, '90 minutes in 5-minute buckets');
      const detail = readDetail(await query(st.sql, DB), RANGE, st.stepSeconds);
      const want = new Map<number, { calls: number; errors: number }>();
      for (let at = Math.floor(RANGE.from / 300_000) * 300_000; at < RANGE.to; at += 300_000) {
        want.set(at, { calls: 0, errors: 0 });
      }
      for (let i = 150; i < 2850; i++) {
        if (!isCharge(i)) continue;
        const at = Math.floor((T0 + 2000 * i) / 300_000) * 300_000;
        const b = want.get(at)!;
        const w = weighted ? weightOf(i) : 1;
        b.calls += w;
        if (isError(i)) b.errors += w;
      }
      assert.deepEqual(
        detail.buckets,
        [...want].map(([at, v]) => ({ at, ...v })),
      );
    });
  }

  it('gives the slowest and the latest failing spans, with their trace IDs, as plain SQL does', async () => {
    await fill();
    const st = codeDetailSql(SOURCE, { range: RANGE, groups: [CHARGE] });
    assert.ok(st.ok);
    const detail = readDetail(await query(st.sql, DB), RANGE, st.stepSeconds);
    const where = `number >= 150 AND number < 2850 AND number % 3 != 2`;
    const slow = await query(
      `SELECT lower(hex(number + 1000000)) AS t, ((number * 7919) % 997 + 1) AS ms FROM numbers(${N}) WHERE ${where}
       ORDER BY ms DESC, number DESC LIMIT 5`,
      DB,
    );
    assert.deepEqual(
      detail.slowest.map((e) => [e.traceId, e.durationMs]),
      slow.map((r) => [r.t, Number(r.ms)]),
    );
    const failing = await query(
      `SELECT lower(hex(number + 1000000)) AS t FROM numbers(${N}) WHERE ${where} AND number % 7 = 0
       ORDER BY number DESC LIMIT 5`,
      DB,
    );
    assert.deepEqual(
      detail.failing.map((e) => e.traceId),
      failing.map((r) => r.t),
    );
    assert.ok(detail.failing.every((e) => e.failed && e.status === 'Error' && e.message.startsWith('declined ')));
  });

  it('selects the same spans in the condition it gives a search', async () => {
    await fill();
    const condition = codeSearchCondition(SOURCE, [CHARGE])!;
    const [r] = await query(
      `SELECT count() AS n FROM otel_traces WHERE ${condition}
         AND Timestamp >= fromUnixTimestamp64Milli(${RANGE.from}) AND Timestamp < fromUnixTimestamp64Milli(${RANGE.to})`,
      DB,
    );
    assert.equal(Number(r!.n), 1800);
  });

  it('says why there is no statement', () => {
    assert.deepEqual(codeDetailSql(SOURCE, { range: RANGE, groups: [] }), { ok: false, reason: 'no function to show' });
    assert.equal(codeDetailSql({ ...SOURCE, kind: 'log' }, { range: RANGE, groups: [CHARGE] }).ok, false);
    assert.equal(codeDetailSql(SOURCE, { range: { from: 5, to: 5 }, groups: [CHARGE] }).ok, false);
    assert.equal(bucketSeconds(24 * 3_600_000), 3600);
    assert.equal(bucketSeconds(7 * 24 * 3_600_000), 6 * 3600);
    assert.equal(bucketSeconds(3_600_000), 300);
  });
});

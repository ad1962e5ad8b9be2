/** Backtest evaluator on synthetic series with known crossings, and its query run on the embedded ClickHouse. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  backtestQuery,
  evaluateBacktest,
  evaluationTimes,
  exceedsThreshold,
  pointsFromRows,
  type BacktestAlert,
  type BacktestPoint,
} from '../../../src/preview/backtest';
import { gauge, METRIC_SOURCE, query, rows, SOURCE, T0 } from './golden';

const MIN = 60_000;
const W = 5 * MIN;
/** One point per 5-minute window starting at T0, value by window (null = no row). */
function series(values: (number | null)[], group = ''): BacktestPoint[] {
  return values.flatMap((v, i) => (v === null ? [] : [{ bucket: T0 + i * W, value: v, group }]));
}
const range = (windows: number) => ({ from: T0, to: T0 + windows * W });
const states = (alert: BacktestAlert, values: (number | null)[]) =>
  evaluateBacktest(alert, series(values), range(values.length)).evaluations.map((e) => e.state);

describe('Alert backtest evaluator', () => {
  it('above fires at or over the threshold (>=), with transitions and their times', () => {
    const alert = { interval: '5m', threshold: 10, thresholdType: 'above' };
    const r = evaluateBacktest(alert, series([5, 10, 12, 3, 11]), range(5));
    assert.deepEqual(
      r.evaluations.map((e) => e.state),
      ['OK', 'ALERT', 'ALERT', 'OK', 'ALERT'],
    );
    assert.deepEqual(
      r.evaluations.map((e) => e.at),
      [1, 2, 3, 4, 5].map((k) => T0 + k * W),
    );
    assert.deepEqual(
      r.transitions.map((t) => [t.at, t.from, t.to, t.value]),
      [
        [T0 + 2 * W, 'OK', 'ALERT', 10],
        [T0 + 4 * W, 'ALERT', 'OK', 3],
        [T0 + 5 * W, 'OK', 'ALERT', 11],
      ],
    );
    assert.equal(r.fired.length, 3);
    assert.equal(r.lastFiredAt, T0 + 5 * W);
    assert.equal(r.lastState, 'ALERT');
  });

  it('above_exclusive is strict (>)', () => {
    assert.deepEqual(states({ interval: '5m', threshold: 10, thresholdType: 'above_exclusive' }, [10, 10.5]), [
      'OK',
      'ALERT',
    ]);
  });

  it('below is strict (<), below_or_equal is not', () => {
    assert.deepEqual(states({ interval: '5m', threshold: 5, thresholdType: 'below' }, [5, 4, 6]), [
      'OK',
      'ALERT',
      'OK',
    ]);
    assert.deepEqual(states({ interval: '5m', threshold: 5, thresholdType: 'below_or_equal' }, [5, 4, 6]), [
      'ALERT',
      'ALERT',
      'OK',
    ]);
  });

  it('between includes both bounds; not_between fires strictly outside', () => {
    const values = [9, 10, 20, 21, 15];
    assert.deepEqual(states({ interval: '5m', threshold: 10, thresholdMax: 20, thresholdType: 'between' }, values), [
      'OK',
      'ALERT',
      'ALERT',
      'OK',
      'ALERT',
    ]);
    assert.deepEqual(
      states({ interval: '5m', threshold: 10, thresholdMax: 20, thresholdType: 'not_between' }, values),
      ['ALERT', 'OK', 'OK', 'ALERT', 'OK'],
    );
    assert.throws(() => exceedsThreshold({ threshold: 1, thresholdType: 'between' }, 1), /thresholdMax is required/);
  });

  it('equal and not_equal compare exactly', () => {
    assert.deepEqual(states({ interval: '5m', threshold: 3, thresholdType: 'equal' }, [3, 3.0001]), ['ALERT', 'OK']);
    assert.deepEqual(states({ interval: '5m', threshold: 3, thresholdType: 'not_equal' }, [3, 3.0001]), [
      'OK',
      'ALERT',
    ]);
  });

  it('an empty window counts as 0: it fires a "below" alert and leaves an "above" alert OK', () => {
    assert.deepEqual(states({ interval: '5m', threshold: 1, thresholdType: 'below' }, [4, null, 2]), [
      'OK',
      'ALERT',
      'OK',
    ]);
    const r = evaluateBacktest(
      { interval: '5m', threshold: 1, thresholdType: 'above' },
      series([4, null, 2]),
      range(3),
    );
    assert.deepEqual(
      r.evaluations.map((e) => [e.state, e.groups[0]?.value]),
      [
        ['ALERT', 4],
        ['OK', 0],
        ['ALERT', 2],
      ],
    );
    assert.deepEqual(states({ interval: '5m', threshold: 1, thresholdType: 'above' }, [null, null]), ['OK', 'OK']);
  });

  it('NULL values (no data) are skipped, not taken as 0', () => {
    const points: BacktestPoint[] = [{ bucket: T0, value: null }];
    const r = evaluateBacktest({ interval: '5m', threshold: 1, thresholdType: 'below' }, points, range(1));
    assert.equal(r.evaluations[0]?.state, 'OK');
  });

  it('an offset shifts the evaluation times; a window spans two buckets and the last one decides', () => {
    const alert = { interval: '5m', threshold: 10, thresholdType: 'above', scheduleOffsetMinutes: 2 };
    assert.deepEqual(
      evaluationTimes(alert, { from: T0, to: T0 + 30 * MIN }),
      [7, 12, 17, 22, 27].map((m) => T0 + m * MIN),
    );
    // Window [2, 7): bucket 0 holds 12 (crosses), bucket 5 holds 3 (does not) → OK.
    // Window [7, 12): bucket 5 holds 15 (crosses), bucket 10 is empty → the crossing stands (ALERT).
    const points: BacktestPoint[] = [
      { window: T0 + 2 * MIN, bucket: T0, value: 12 },
      { window: T0 + 2 * MIN, bucket: T0 + 5 * MIN, value: 3 },
      { window: T0 + 7 * MIN, bucket: T0 + 5 * MIN, value: 15 },
    ];
    const r = evaluateBacktest(alert, points, { from: T0, to: T0 + 12 * MIN });
    assert.deepEqual(
      r.evaluations.map((e) => [e.at, e.state]),
      [
        [T0 + 7 * MIN, 'OK'],
        [T0 + 12 * MIN, 'ALERT'],
      ],
    );
  });

  it('an offset of the interval or more is taken modulo the interval', () => {
    assert.deepEqual(
      evaluationTimes(
        { interval: '5m', threshold: 0, thresholdType: 'above', scheduleOffsetMinutes: 7 },
        { from: T0, to: T0 + 10 * MIN },
      ),
      [T0 + 7 * MIN],
    );
  });

  it('a start time anchors the windows and nothing is evaluated before it (the offset is ignored)', () => {
    const alert = {
      interval: '5m',
      threshold: 0,
      thresholdType: 'above',
      scheduleStartAt: new Date(T0 + 3 * MIN).toISOString(),
      scheduleOffsetMinutes: 1,
    };
    assert.deepEqual(
      evaluationTimes(alert, { from: T0 - 60 * MIN, to: T0 + 20 * MIN }),
      [8, 13, 18].map((m) => T0 + m * MIN),
    );
  });

  it('numConsecutiveWindows holds the alert PENDING until enough windows crossed in a row', () => {
    assert.deepEqual(
      states(
        { interval: '5m', threshold: 10, thresholdType: 'above', numConsecutiveWindows: 2 },
        [12, 12, 3, 12, 12, 12],
      ),
      ['PENDING', 'ALERT', 'OK', 'PENDING', 'ALERT', 'ALERT'],
    );
  });

  it('group-by: each group has its own state; a firing group that disappears resolves', () => {
    const alert = { interval: '5m', threshold: 10, thresholdType: 'above' };
    const points = [...series([12, null, 4], 'svc:a'), ...series([1, 2, 11], 'svc:b')];
    const r = evaluateBacktest(alert, points, range(3));
    assert.deepEqual(
      r.evaluations.map((e) => e.groups.map((g) => `${g.group}=${g.state}`)),
      [
        ['svc:a=ALERT', 'svc:b=OK'],
        ['svc:a=OK', 'svc:b=OK'],
        ['svc:a=OK', 'svc:b=ALERT'],
      ],
    );
    assert.deepEqual(
      r.transitions.map((t) => [t.at - T0, t.group, t.from, t.to]),
      [
        [W, 'svc:a', 'OK', 'ALERT'],
        [2 * W, 'svc:a', 'ALERT', 'OK'],
        [3 * W, 'svc:b', 'OK', 'ALERT'],
      ],
    );
    assert.deepEqual(
      r.fired.map((e) => e.at - T0),
      [W, 3 * W],
    );
  });

  it('numConsecutiveWindows counts only the windows just before: a group seen now and then stays PENDING', () => {
    // Below 5: a group missing from a window is not resolved (0 is below too), so nothing is recorded for it there.
    const alert = { interval: '5m', threshold: 5, thresholdType: 'below', numConsecutiveWindows: 3 };
    const points = [
      ...series([1, null, 1, null, 1, null, 1], 'g:sporadic'),
      ...series([1, 1, 1, 1, 20, 20, 20], 'g:steady'),
    ];
    const r = evaluateBacktest(alert, points, range(7), { grouped: true });
    const stateOf = (group: string) =>
      r.evaluations.map((e) => e.groups.find((g) => g.group === group)?.state ?? '-').join(' ');
    // Its crossings are never in three windows in a row, however many it has.
    assert.equal(stateOf('g:sporadic'), 'PENDING - PENDING - PENDING - PENDING');
    assert.equal(stateOf('g:steady'), 'PENDING PENDING ALERT ALERT OK OK OK');
    // The firing names the windows that decided it: the two before and its own.
    assert.deepEqual(
      r.transitions.filter((t) => t.to === 'ALERT').map((t) => [t.group, t.at, t.windows]),
      [['g:steady', T0 + 3 * W, [T0 + W, T0 + 2 * W, T0 + 3 * W]]],
    );
  });

  it('a window is evaluated at the first whole minute at or after its end (the scheduler runs on the minute)', () => {
    // A start time with seconds: windows end at hh:mm:30 and are evaluated 30 s later.
    const alert = {
      interval: '5m',
      threshold: 1,
      thresholdType: 'above',
      scheduleStartAt: new Date(T0 + 30_000).toISOString(),
    };
    const ends = evaluationTimes(alert, { from: T0, to: T0 + 10 * MIN + 30_000 });
    assert.deepEqual(ends, [T0 + 5 * MIN + 30_000]);
    assert.deepEqual(evaluationTimes(alert, { from: T0, to: T0 + 11 * MIN }), [
      T0 + 5 * MIN + 30_000,
      T0 + 10 * MIN + 30_000,
    ]);
  });

  it('a 1-hour interval evaluates once per hour', () => {
    const alert = { interval: '1h', threshold: 1, thresholdType: 'above' };
    assert.equal(evaluationTimes(alert, { from: T0, to: T0 + 24 * 60 * MIN }).length, 24);
  });
});

describe('Alert backtest query on ClickHouse', () => {
  const data = rows();
  /** Errors in [from, to), counted here from the generator's rows. */
  const errorsBetween = (from: number, to: number) =>
    data.filter((x) => x.severity === 'error' && x.ts >= from && x.ts < to).length;

  it('a saved search alert: the query gives each window its count, and the evaluation matches a direct count', async () => {
    const alert = { interval: '5m', threshold: 5, thresholdType: 'above' };
    const r0 = { from: T0, to: T0 + 60 * MIN };
    const q = backtestQuery(
      alert,
      { kind: 'savedSearch', savedSearch: { where: "SeverityText = 'error'", whereLanguage: 'sql' } },
      { source: SOURCE, range: r0 },
    );
    assert.ok(q.ok, q.ok ? '' : q.reason);
    assert.equal(q.evaluations.length, 12);
    const result = evaluateBacktest(alert, pointsFromRows(await query(q.sql), q.columns), r0, { grouped: q.grouped });
    const expected = q.evaluations.map((at) => (errorsBetween(at - 5 * MIN, at) >= 5 ? 'ALERT' : 'OK'));
    assert.deepEqual(
      result.evaluations.map((e) => e.state),
      expected,
    );
    assert.deepEqual(
      result.evaluations.map((e) => e.groups[0]?.value),
      q.evaluations.map((at) => errorsBetween(at - 5 * MIN, at)),
    );
  });

  it('a saved search alert counts only the rows its pinned filters keep, as the scheduler adds them', async () => {
    const alert = { interval: '5m', threshold: 5, thresholdType: 'above' };
    const r0 = { from: T0, to: T0 + 60 * MIN };
    const savedSearch = {
      where: "SeverityText = 'error'",
      whereLanguage: 'sql',
      filters: [
        { type: 'sql', condition: "ServiceName IN ('api', 'web')" },
        { type: 'lucene', condition: 'LogAttributes.status:200' },
        { type: 'sql_ast', operator: '<', left: "toFloat64(LogAttributes['duration'])", right: '40' },
      ],
    };
    const q = backtestQuery(alert, { kind: 'savedSearch', savedSearch }, { source: SOURCE, range: r0 });
    assert.ok(q.ok, q.ok ? '' : q.reason);
    const result = evaluateBacktest(alert, pointsFromRows(await query(q.sql), q.columns), r0, { grouped: q.grouped });
    const kept = (at: number) =>
      data.filter(
        (x) =>
          x.severity === 'error' &&
          (x.service === 'api' || x.service === 'web') &&
          x.status === '200' &&
          x.duration < 40 &&
          x.ts >= at - 5 * MIN &&
          x.ts < at,
      ).length;
    assert.deepEqual(
      result.evaluations.map((e) => e.groups[0]?.value),
      q.evaluations.map(kept),
    );
    assert.ok(q.evaluations.some((at) => kept(at) > 0 && kept(at) < errorsBetween(at - 5 * MIN, at)));
    const bad = backtestQuery(
      alert,
      { kind: 'savedSearch', savedSearch: { ...savedSearch, filters: [{ condition: 'x = 1' }] } },
      { source: SOURCE, range: r0 },
    );
    assert.ok(!bad.ok);
    assert.match(bad.reason, /filter 1 is not one the scheduler reads/);
  });

  it('with an offset each row carries its window, and partial buckets are evaluated as the scheduler does', async () => {
    const alert = { interval: '5m', threshold: 3, thresholdType: 'above', scheduleOffsetMinutes: 2 };
    const r0 = { from: T0, to: T0 + 60 * MIN };
    const q = backtestQuery(
      alert,
      { kind: 'savedSearch', savedSearch: { where: 'SeverityText:error', whereLanguage: 'lucene' } },
      { source: SOURCE, range: r0 },
    );
    assert.ok(q.ok, q.ok ? '' : q.reason);
    assert.ok(q.columns.window, 'window column');
    assert.match(
      q.sql,
      /toDateTime\(120 \+ intDiv\(toInt64\(toUnixTimestamp\(toDateTime\(TimestampTime\)\)\) - 120, 300\) \* 300\) AS `__backtest_window`/,
    );
    const result = evaluateBacktest(alert, pointsFromRows(await query(q.sql), q.columns), r0, { grouped: q.grouped });
    // The last partial bucket of each window, [5k, 5k + 2 min), decides: errors in it ≥ 3?
    const expected = q.evaluations.map((at) => {
      const lastBucket = Math.floor((at - 1) / (5 * MIN)) * 5 * MIN;
      const n = errorsBetween(lastBucket, at);
      const firstN = errorsBetween(at - 5 * MIN, lastBucket);
      return n > 0 ? (n >= 3 ? 'ALERT' : 'OK') : firstN >= 3 ? 'ALERT' : 'OK';
    });
    assert.deepEqual(
      result.evaluations.map((e) => e.state),
      expected,
    );
    // Each whole window holds 5 errors (it would cross 3), but its last partial bucket holds 2: the scheduler says OK.
    assert.ok(q.evaluations.every((at) => errorsBetween(at - 5 * MIN, at) === 5));
    assert.ok(result.evaluations.every((e) => e.state === 'OK' && e.groups[0]?.value === 2));
  });

  it('a tile alert with group-by: one state per service', async () => {
    const alert = { interval: '15m', threshold: 6, thresholdType: 'above' };
    const r0 = { from: T0, to: T0 + 60 * MIN };
    const tile = {
      config: {
        displayType: 'line',
        sourceId: 'src-logs',
        select: [
          { aggFn: 'count', where: "SeverityText = 'error' AND LogAttributes['duration'] < '5'", whereLanguage: 'sql' },
        ],
        groupBy: 'ServiceName',
      },
    };
    const q = backtestQuery(alert, { kind: 'tile', tile }, { source: SOURCE, range: r0 });
    assert.ok(q.ok, q.ok ? '' : q.reason);
    assert.ok(q.grouped);
    const result = evaluateBacktest(alert, pointsFromRows(await query(q.sql), q.columns), r0, { grouped: q.grouped });
    for (const e of result.evaluations) {
      for (const g of e.groups) {
        const svc = g.group.replace('ServiceName:', '');
        const n = data.filter(
          (x) =>
            x.service === svc &&
            x.severity === 'error' &&
            String(x.duration) < '5' &&
            x.ts >= e.windowStart &&
            x.ts < e.windowEnd,
        ).length;
        assert.equal(g.value, n, `${g.group} at ${e.at}`);
        assert.equal(g.state, n >= 6 ? 'ALERT' : 'OK');
      }
    }
  });

  it('a gauge metric tile alert: each window is the average over hosts of their last reading in it', async () => {
    const alert = { interval: '5m', threshold: 55, thresholdType: 'above' };
    const r0 = { from: T0, to: T0 + 60 * MIN };
    const tile = {
      config: {
        displayType: 'line',
        sourceId: METRIC_SOURCE.id,
        select: [{ aggFn: 'avg', metricName: 'cpu', metricType: 'gauge', valueExpression: 'Value', where: '' }],
      },
    };
    const q = backtestQuery(alert, { kind: 'tile', tile }, { source: METRIC_SOURCE, range: r0 });
    assert.ok(q.ok, q.ok ? '' : q.reason);
    assert.equal(q.evaluations.length, 12);
    assert.match(q.sql, /last_value\(Value\) AS LastValue/);
    assert.match(q.sql, /toStartOfInterval\(toDateTime\(TimeUnix\), INTERVAL 5 minute\)/);
    const result = evaluateBacktest(alert, pointsFromRows(await query(q.sql), q.columns), r0, { grouped: q.grouped });
    // Expected from the generator's readings: per host the last reading in [start, end), then their average.
    const readings = gauge();
    const expected = q.evaluations.map((end) => {
      const last = ['a', 'b'].map((h) => {
        const inWindow = readings.filter((x) => x.host === h && x.ts >= end - 5 * MIN && x.ts < end);
        return inWindow[inWindow.length - 1]!.value;
      });
      return (last[0]! + last[1]!) / 2;
    });
    assert.deepEqual(
      result.evaluations.map((e) => e.groups[0]?.value),
      expected,
    );
    // Host a's last reading is 4 or 9, host b's 100 + (5k + 4) % 7: windows fire where the average reaches 55.
    assert.deepEqual(
      result.evaluations.map((e) => e.state),
      expected.map((v) => (v >= 55 ? 'ALERT' : 'OK')),
    );
    assert.ok(expected.some((v) => v >= 55) && expected.some((v) => v < 55), `values ${expected.join(', ')}`);
  });

  it('a sum metric tile alert: each window is the counter increase in it, as one query per window sees it', async () => {
    const alert = { interval: '5m', threshold: 70, thresholdType: 'below' };
    const r0 = { from: T0, to: T0 + 60 * MIN };
    // Host b reports nothing in minutes 5–14: its next reading (minute 15) has no previous one in its window's query.
    const where = "Attributes['host'] = 'a' OR toMinute(TimeUnix) NOT BETWEEN 5 AND 14";
    const tile = {
      config: {
        displayType: 'line',
        sourceId: METRIC_SOURCE.id,
        select: [
          {
            aggFn: 'sum',
            metricName: 'requests',
            metricType: 'sum',
            valueExpression: 'Value',
            where,
            whereLanguage: 'sql',
          },
        ],
      },
    };
    const q = backtestQuery(alert, { kind: 'tile', tile }, { source: METRIC_SOURCE, range: r0 });
    assert.ok(q.ok, q.ok ? '' : q.reason);
    assert.equal(q.evaluations.length, 12);
    const result = evaluateBacktest(alert, pointsFromRows(await query(q.sql), q.columns), r0, { grouped: q.grouped });
    // The scheduler's query of the window [s, e) reads from s − 5 min: a reading's increase is counted only when
    // the same host's previous reading is in that span. Host a reads 10 × minute, host b 5 × minute.
    const readings = Array.from({ length: 60 }, (_, m) => [
      { m, ts: T0 + m * MIN + 30_000, host: 'a', value: 10 * m },
      { m, ts: T0 + m * MIN + 30_000, host: 'b', value: 5 * m },
    ])
      .flat()
      .filter((x) => x.host === 'a' || x.m < 5 || x.m > 14);
    const expected = q.evaluations.map((end) => {
      const start = end - 5 * MIN;
      let total = 0;
      for (const h of ['a', 'b']) {
        const seen = readings.filter((x) => x.host === h && x.ts >= start - 5 * MIN && x.ts < end);
        seen.forEach((x, i) => {
          const prev = seen[i - 1];
          if (x.ts >= start && prev) total += Math.max(x.value - prev.value, 0);
        });
      }
      return total;
    });
    // Window 0 has no reading before minute 0; windows 1–2 only host a; window 3 host b's increases after minute 15.
    assert.deepEqual(expected, [60, 50, 50, 70, 75, 75, 75, 75, 75, 75, 75, 75]);
    assert.deepEqual(
      result.evaluations.map((e) => e.groups[0]?.value),
      expected,
    );
    assert.deepEqual(
      result.evaluations.map((e) => e.state),
      ['ALERT', 'ALERT', 'ALERT', 'OK', 'OK', 'OK', 'OK', 'OK', 'OK', 'OK', 'OK', 'OK'],
    );
  });

  // Off the interval grid (offset 2 min, 5-minute windows [w, w + 5 min)): the scheduler queries each window on its
  // own, in 5-minute buckets aligned to the epoch, and keeps the bucket that starts inside the window (b = w + 3 min).
  const offGrid = { interval: '5m', threshold: 1000, thresholdType: 'above', scheduleOffsetMinutes: 2 };
  const offRange = { from: T0, to: T0 + 60 * MIN };
  const metricTile = (item: Record<string, unknown>) => ({
    config: { displayType: 'line', sourceId: METRIC_SOURCE.id, select: [{ valueExpression: 'Value', ...item }] },
  });

  it('a gauge metric alert off the interval grid: each window is the last reading per host in its bucket, up to the window end', async () => {
    const tile = metricTile({ aggFn: 'avg', metricName: 'cpu', metricType: 'gauge' });
    const q = backtestQuery(offGrid, { kind: 'tile', tile }, { source: METRIC_SOURCE, range: offRange });
    assert.ok(q.ok, q.ok ? '' : q.reason);
    assert.equal(q.evaluations.length, 11);
    const result = evaluateBacktest(offGrid, pointsFromRows(await query(q.sql), q.columns), offRange, {
      grouped: q.grouped,
    });
    const readings = gauge();
    const expected = q.evaluations.map((end) => {
      const b = end - 2 * MIN; // the bucket that starts in [end − 5 min, end)
      const last = ['a', 'b'].map((h) => readings.filter((x) => x.host === h && x.ts >= b && x.ts < end).pop());
      const values = last.filter((x) => x !== undefined).map((x) => x.value);
      return values.reduce((a, v) => a + v, 0) / values.length;
    });
    assert.deepEqual(
      result.evaluations.map((e) => e.groups[0]?.value),
      expected,
    );
    // A window's first bucket (starting before it) has no rows in its query: the value 0 is evaluated first.
    assert.ok(result.evaluations.every((e) => e.state === 'OK'));
  });

  it('a sum metric alert off the interval grid: each window is the increase over its bucket, previous readings looked for two buckets back', async () => {
    const alert = { ...offGrid, threshold: 70, thresholdType: 'below' };
    const where = "Attributes['host'] = 'a' OR toMinute(TimeUnix) NOT BETWEEN 5 AND 14";
    const tile = metricTile({ aggFn: 'sum', metricName: 'requests', metricType: 'sum', where, whereLanguage: 'sql' });
    const q = backtestQuery(alert, { kind: 'tile', tile }, { source: METRIC_SOURCE, range: offRange });
    assert.ok(q.ok, q.ok ? '' : q.reason);
    const result = evaluateBacktest(alert, pointsFromRows(await query(q.sql), q.columns), offRange, {
      grouped: q.grouped,
    });
    const readings = Array.from({ length: 60 }, (_, m) => [
      { m, ts: T0 + m * MIN + 30_000, host: 'a', value: 10 * m },
      { m, ts: T0 + m * MIN + 30_000, host: 'b', value: 5 * m },
    ])
      .flat()
      .filter((x) => x.host === 'a' || x.m < 5 || x.m > 14);
    // The window [w, W) reads [floor(w) − 5 min, floor(W) + 5 min) and keeps the bucket b = floor(W).
    const expected = q.evaluations.map((end) => {
      const b = end - 2 * MIN;
      let total = 0;
      for (const h of ['a', 'b']) {
        const seen = readings.filter((x) => x.host === h && x.ts >= b - 10 * MIN && x.ts < b + 5 * MIN);
        seen.forEach((x, i) => {
          const prev = seen[i - 1];
          if (x.ts >= b && prev) total += Math.max(x.value - prev.value, 0);
        });
      }
      return total;
    });
    assert.deepEqual(expected, [50, 50, 70, 75, 75, 75, 75, 75, 75, 75, 75]);
    assert.deepEqual(
      result.evaluations.map((e) => e.groups[0]?.value),
      expected,
    );
  });

  it('raw SQL tile alerts say they are not backtested yet', () => {
    const q = backtestQuery(
      { interval: '5m', threshold: 1, thresholdType: 'above' },
      { kind: 'tile', tile: { config: { displayType: 'line', configType: 'sql', sqlTemplate: 'SELECT 1' } } },
      { source: SOURCE, range: { from: T0, to: T0 + 60 * MIN } },
    );
    assert.deepEqual(q, { ok: false, reason: 'alerts on raw SQL tiles ("line") are not backtested yet', notes: [] });
  });
});

/**
 * What the backtest panel receives: the series of each transition, the rule that decided each firing, and the alert's
 * rule (threshold, interval, consecutive windows) beside the count.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluateBacktest, type BacktestPoint } from '../../../src/preview/backtest';
import { alertRuleOf, backtestDataOf } from '../../../src/preview/data';

const T0 = Date.UTC(2026, 0, 1);
const W = 5 * 60_000;
const series = (values: (number | null)[], group: string): BacktestPoint[] =>
  values.flatMap((v, i) => (v === null ? [] : [{ bucket: T0 + i * W, value: v, group }]));

describe('Backtest panel data', () => {
  it('names the series of each transition and the rule that decided each firing', () => {
    const alert = { interval: '5m', threshold: 10, thresholdType: 'above', numConsecutiveWindows: 2 };
    const points = [...series([12, 15, 3, 11, 11], 'svc:api'), ...series([1, 20, 20, 20, 2], 'svc:web')];
    const result = evaluateBacktest(alert, points, { from: T0, to: T0 + 5 * W }, { grouped: true });
    const data = backtestDataOf(alert, result);
    assert.equal(data.kind, 'timeseries');
    if (data.kind !== 'timeseries') return;
    assert.deepEqual(
      data.transitions?.map((t) => [
        t.time - T0,
        t.series,
        t.from,
        t.to,
        t.value,
        t.rule,
        t.windows?.map((w) => w - T0),
      ]),
      [
        [2 * W, 'svc:api', 'OK', 'ALERT', 15, '15 is at least 10 in 2 consecutive windows', [W, 2 * W]],
        [3 * W, 'svc:api', 'ALERT', 'OK', 3, undefined, undefined],
        [3 * W, 'svc:web', 'OK', 'ALERT', 20, '20 is at least 10 in 2 consecutive windows', [2 * W, 3 * W]],
        [5 * W, 'svc:api', 'OK', 'ALERT', 11, '11 is at least 10 in 2 consecutive windows', [4 * W, 5 * W]],
        [5 * W, 'svc:web', 'ALERT', 'OK', 2, undefined, undefined],
      ],
    );
    assert.deepEqual(data.rule, {
      thresholdType: 'above',
      threshold: 10,
      interval: '5m',
      numConsecutiveWindows: 2,
      text: 'value is at least 10 in 2 consecutive 5m windows',
    });
  });

  it('says the rule of every threshold type in words', () => {
    const text = (thresholdType: string, extra: Record<string, unknown> = {}) =>
      alertRuleOf({ threshold: 3, thresholdType, interval: '1h', ...extra }).text;
    assert.equal(text('above'), 'value is at least 3 in a 1h window');
    assert.equal(text('above_exclusive'), 'value is above 3 in a 1h window');
    assert.equal(text('below'), 'value is below 3 in a 1h window');
    assert.equal(text('below_or_equal'), 'value is at most 3 in a 1h window');
    assert.equal(text('equal'), 'value is equal to 3 in a 1h window');
    assert.equal(text('not_equal'), 'value is not equal to 3 in a 1h window');
    assert.equal(text('between', { thresholdMax: 9 }), 'value is between 3 and 9 in a 1h window');
    assert.equal(
      text('not_between', { thresholdMax: 9, numConsecutiveWindows: 3 }),
      'value is outside 3 to 9 in 3 consecutive 1h windows',
    );
  });
});

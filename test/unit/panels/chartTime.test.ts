import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axisTimeLabels, formatTime, formatTimeZoned, zoneLabel } from '../../../src/panels/chartTime';

const T = Date.UTC(2026, 10, 26, 12, 2, 9); // 2026-11-26 12:02:09 UTC

describe('chart times', () => {
  it('one format, in the zone given, with the zone named', () => {
    assert.equal(formatTime(T, false, 0), '2026-11-26 12:02');
    assert.equal(formatTime(T, true, 0), '2026-11-26 12:02:09');
    assert.equal(formatTimeZoned(T, false, 0), '2026-11-26 12:02 UTC');
    assert.equal(formatTimeZoned(T, false, 60), '2026-11-26 13:02 UTC+01:00');
    assert.equal(formatTimeZoned(T, false, -330), '2026-11-26 06:32 UTC−05:30');
    assert.equal(formatTime(Date.UTC(2026, 11, 31, 23, 30), false, 60), '2027-01-01 00:30');
    assert.equal(zoneLabel(345), 'UTC+05:45');
  });

  it('axis ticks: the time, with the date on the first tick and where the day changes', () => {
    const hour = 3_600_000;
    const ticks = [0, 1, 2, 3].map((i) => Date.UTC(2026, 10, 26, 22) + i * hour);
    assert.deepEqual(
      axisTimeLabels(ticks, hour, () => 0),
      ['11-26 22:00', '23:00', '11-27 00:00', '01:00'],
    );
    assert.deepEqual(
      axisTimeLabels(ticks, hour, () => 60),
      ['11-26 23:00', '11-27 00:00', '01:00', '02:00'],
    );
    assert.deepEqual(
      axisTimeLabels([T], 86_400_000, () => 0),
      ['2026-11-26'],
    );
    assert.deepEqual(
      axisTimeLabels([T, T + 10_000], 10_000, () => 0),
      ['11-26 12:02:09', '12:02:19'],
    );
  });
});

/** The window a trace is read in around a row's time, and the state a restored trace panel kept. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTraceRestore, rangeArg, rowTime, TRACE_WINDOW_MS, windowAround } from '../../../src/traces/window';

const T = Date.UTC(2026, 10, 29, 10, 15, 30, 123);

describe('rowTime', () => {
  it('reads ClickHouse date texts as UTC unless they name their zone', () => {
    assert.equal(rowTime('2026-11-29 10:15:30.123456789'), T);
    assert.equal(rowTime('2026-11-29 10:15:30.123'), T);
    assert.equal(rowTime('2026-11-29T10:15:30.123Z'), T);
    assert.equal(rowTime('2026-11-29T12:15:30.123+02:00'), T);
    assert.equal(rowTime('2026-11-29 12:15:30.123 +0200'), T);
    assert.equal(rowTime('2026-11-29 10:15:30'), T - 123);
    assert.equal(rowTime('2026-11-29'), Date.UTC(2026, 10, 29));
  });

  it('tells epoch seconds, milliseconds, microseconds and nanoseconds apart by size', () => {
    assert.equal(rowTime(Math.floor(T / 1000)), T - 123);
    assert.equal(rowTime(T), T);
    assert.equal(rowTime(T * 1000), T);
    assert.equal(rowTime(`${T}000000`), T);
  });

  it('knows no time in anything else', () => {
    for (const v of [undefined, null, '', 'yesterday', '0af7651916cd43dd8448eb211c80319c', {}, -5, NaN, '2026-13-45']) {
      assert.equal(rowTime(v), undefined, String(v));
    }
  });
});

describe('windowAround and rangeArg', () => {
  it('is an hour either side of the time, or nothing', () => {
    assert.deepEqual(windowAround('2026-11-29 10:15:30.123'), { from: T - TRACE_WINDOW_MS, to: T + TRACE_WINDOW_MS });
    assert.equal(windowAround('not a time'), undefined);
  });

  it('takes a range of two finite numbers, from before to', () => {
    assert.deepEqual(rangeArg({ from: 1, to: 2 }), { from: 1, to: 2 });
    assert.equal(rangeArg({ from: 2, to: 1 }), undefined);
    assert.equal(rangeArg({ from: '1', to: 2 }), undefined);
    assert.equal(rangeArg(undefined), undefined);
  });
});

describe('parseTraceRestore', () => {
  it('keeps what names a trace, drops the rest', () => {
    assert.deepEqual(
      parseTraceRestore({
        connectionId: 'c',
        serviceId: 's',
        sourceId: 'src',
        traceId: 't',
        range: { from: 1, to: 2 },
        extra: '<b>',
      }),
      { connectionId: 'c', serviceId: 's', sourceId: 'src', traceId: 't', range: { from: 1, to: 2 } },
    );
    assert.deepEqual(parseTraceRestore({ connectionId: 'c', serviceId: 's', traceId: 't', range: 'x' }), {
      connectionId: 'c',
      serviceId: 's',
      traceId: 't',
    });
    assert.equal(parseTraceRestore({ connectionId: 'c', traceId: 't' }), undefined);
    assert.equal(parseTraceRestore('state'), undefined);
  });
});

/**
 * The trace panel's messages: the waterfall's rows (offsets from the trace's start, service by index, flags for
 * errors, orphans and duplicates), log lines linked to their span's row, and one span's details.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTraceTree, type TraceModel, type TraceSpan } from '../../../src/render';
import { spanDetails, traceMessage } from '../../../src/traces/model';
import { ROW_DUPLICATE, ROW_ERROR, ROW_EXCEPTION, ROW_ORPHAN } from '../../../src/traces/protocol';

const span = (spanId: string, parentSpanId: string, startMs: number, service: string, extra: Partial<TraceSpan> = {}) =>
  ({
    spanId,
    parentSpanId,
    name: spanId,
    service,
    kind: 'Internal',
    startMs,
    durationMs: 5,
    statusCode: 'Unset',
    statusMessage: '',
    attributes: { a: '1' },
    resource: {},
    events: [],
    ...extra,
  }) as TraceSpan;

const model: TraceModel = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  sourceId: 's',
  sourceName: 'Traces',
  tree: buildTraceTree([
    span('root', '', 1000, 'web'),
    span('child', 'root', 1002, 'api', { statusCode: 'Error' }),
    span('lost', 'gone', 1001, 'api'),
    span('child', 'root', 1003, 'api'),
  ]),
  logs: [
    { timeMs: 1004, spanId: 'child', severity: 'error', service: 'api', body: 'failed' },
    { timeMs: 1005, spanId: 'elsewhere', severity: 'info', service: 'api', body: 'other' },
  ],
  notes: [],
};

describe('traceMessage', () => {
  it('gives the rows in tree order with offsets, services and flags, and links each log line to its span', () => {
    const m = traceMessage(model, 'title');
    assert.deepEqual(m.services, ['api', 'web']);
    assert.deepEqual(
      m.rows.map((r) => [r.spanId, r.depth, r.offsetMs, m.services[r.service], r.flags]),
      [
        ['root', 0, 0, 'web', 0],
        ['child', 1, 2, 'api', ROW_ERROR],
        ['child', 1, 3, 'api', ROW_DUPLICATE],
        ['lost', 0, 1, 'api', ROW_ORPHAN],
      ],
    );
    assert.deepEqual(
      m.logs.map((l) => [l.offsetMs, l.row]),
      [
        [4, 1],
        [5, -1],
      ],
    );
    assert.equal(m.durationMs, 8);
  });

  it('flags a span that recorded an exception event', () => {
    const thrown = {
      ...model,
      tree: buildTraceTree([
        span('root', '', 0, 'web', {
          events: [{ timeMs: 1, name: 'exception', attributes: { 'exception.type': 'E' } }],
        }),
      ]),
    };
    assert.equal(traceMessage(thrown, 't').rows[0]!.flags, ROW_ERROR | ROW_EXCEPTION);
  });

  it("gives a row's span details, and nothing for a row that does not exist", () => {
    const d = spanDetails(model, 3)!;
    assert.equal(d.spanId, 'lost');
    assert.equal(d.parentSpanId, 'gone');
    assert.deepEqual(d.attributes, [['a', '1']]);
    assert.equal(spanDetails(model, 99), undefined);
  });
});

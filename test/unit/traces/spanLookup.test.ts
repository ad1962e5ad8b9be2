/** A span opened by its ID: the statement that finds its trace, and its row in the waterfall. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeSpanId, renderSpanLookup, rowOfSpan } from '../../../src/traces/spanLookup';

const SOURCE = {
  kind: 'trace',
  from: { databaseName: 'default', tableName: 'otel_traces' },
  timestampValueExpression: 'Timestamp',
  traceIdExpression: 'TraceId',
  spanIdExpression: 'SpanId',
};

describe('span lookup', () => {
  it('reads one row of the span in the window, the ID quoted', () => {
    const sql = renderSpanLookup(SOURCE, '00f067aa0ba902b7', { from: 1000, to: 2000.5 });
    assert.equal(
      sql,
      [
        'SELECT toString(TraceId) AS trace_id, Timestamp AS ts',
        'FROM `default`.`otel_traces`',
        "WHERE SpanId = '00f067aa0ba902b7'",
        '  AND Timestamp >= fromUnixTimestamp64Milli(toInt64(1000))',
        '  AND Timestamp <= fromUnixTimestamp64Milli(toInt64(2001))',
        'LIMIT 1',
      ].join('\n'),
    );
    assert.equal(
      renderSpanLookup({ ...SOURCE, spanIdExpression: '' }, '00f067aa0ba902b7', { from: 0, to: 1 }),
      undefined,
    );
  });

  it('takes 16 hexadecimal digits only, in lower case', () => {
    assert.equal(normalizeSpanId(' 00F067AA0BA902B7 '), '00f067aa0ba902b7');
    assert.equal(normalizeSpanId("00f067aa0ba902b7' OR 1=1"), undefined);
    assert.equal(normalizeSpanId('4bf92f3577b34da6a3ce929d0e0e4736'), undefined);
  });

  it('finds the first row of a span in the waterfall', () => {
    const tree = {
      spans: [{ spanId: 'a' }, { spanId: 'b' }, { spanId: 'b' }],
      rows: [{ span: 0 }, { span: 2 }, { span: 1 }],
    };
    assert.equal(rowOfSpan(tree, 'b'), 1);
    assert.equal(rowOfSpan(tree, 'c'), -1);
  });
});

/**
 * A trace's statements: what they read of the sources' expressions and their bounds, and, on the emulator's embedded
 * ClickHouse (chdb) with its showcase traces, that `readTrace` gives the spans, nesting, exception and logs that
 * plain SQL written here finds.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cleanText,
  readTrace,
  renderTraceLogs,
  renderTraceSpans,
  spansFromRows,
  TRACE_MAX_SPANS,
} from '../../../src/render';
import { SHOWCASE } from '../../emulator/clickhouse/traces';
import { query } from '../preview/golden';

const NOW = Date.parse('2026-03-02T10:20:30.000Z');
const DB = 'otel';

/** The sample service's trace and log sources, as the emulator seeds them. */
const TRACES = {
  id: 'traces',
  name: 'Traces',
  kind: 'trace',
  from: { databaseName: DB, tableName: 'otel_traces' },
  timestampValueExpression: 'Timestamp',
  durationExpression: 'Duration',
  durationPrecision: 9,
  traceIdExpression: 'TraceId',
  spanIdExpression: 'SpanId',
  parentSpanIdExpression: 'ParentSpanId',
  spanNameExpression: 'SpanName',
  spanKindExpression: 'SpanKind',
  statusCodeExpression: 'StatusCode',
  statusMessageExpression: 'StatusMessage',
  serviceNameExpression: 'ServiceName',
  resourceAttributesExpression: 'ResourceAttributes',
  eventAttributesExpression: 'SpanAttributes',
  spanEventsValueExpression: 'Events',
  logSourceId: 'logs',
};
const LOGS = {
  id: 'logs',
  name: 'Logs',
  kind: 'log',
  from: { databaseName: DB, tableName: 'otel_logs' },
  timestampValueExpression: 'TimestampTime',
  displayedTimestampValueExpression: 'Timestamp',
  serviceNameExpression: 'ServiceName',
  severityTextExpression: 'SeverityText',
  bodyExpression: 'Body',
  traceIdExpression: 'TraceId',
  spanIdExpression: 'SpanId',
};

const run = async (sql: string) => ({ rows: (await query(sql, DB, NOW)).map((r) => Object.values(r)) });

describe('renderTraceSpans / renderTraceLogs', () => {
  it('reads the source expressions, the trace ID as a literal, oldest first, one row past the bound', () => {
    const r = renderTraceSpans(TRACES, "4bf92f3577b34da6a3ce929d0e0e4736' OR 1=1 --");
    assert.ok(r.ok);
    assert.match(r.sql, /FROM `otel`\.`otel_traces`/);
    assert.match(r.sql, /WHERE TraceId = '4bf92f3577b34da6a3ce929d0e0e4736\\' OR 1=1 --'/);
    assert.match(r.sql, /toFloat64\(Duration\) \/ 1000000 AS duration_ms/);
    assert.match(r.sql, /arraySlice\(Events\.Attributes, 1, 100\)/);
    assert.match(r.sql, /ORDER BY Timestamp ASC\nLIMIT 100001$/);
    assert.equal(r.maxRows, TRACE_MAX_SPANS + 1);
    const ms = renderTraceSpans({ ...TRACES, durationPrecision: 3 }, SHOWCASE.refund);
    assert.ok(ms.ok);
    assert.match(ms.sql, /toFloat64\(Duration\) \/ 1 AS duration_ms/);
  });

  it('says what a source lacks instead of rendering', () => {
    assert.deepEqual(renderTraceSpans(LOGS, SHOWCASE.refund), {
      ok: false,
      reason: 'The source is not a trace source.',
    });
    const r = renderTraceSpans({ ...TRACES, parentSpanIdExpression: '' }, SHOWCASE.refund);
    assert.equal(r.ok, false);
    assert.match((r as { reason: string }).reason, /parentSpanIdExpression/);
    assert.equal(renderTraceLogs({ ...LOGS, traceIdExpression: undefined }, SHOWCASE.refund).ok, false);
  });

  it('reads nanosecond starts exactly and strips control and ANSI characters from server text', () => {
    const [s] = spansFromRows([
      [
        '1795904159009999999',
        'a',
        '',
        'x\u001b[31mred\u0007\u202e',
        'svc',
        'Internal',
        1.5,
        'Error',
        '',
        {},
        {},
        [],
        [],
        [],
      ],
    ]);
    assert.equal(s!.startMs, 1795904159009 + 0.999999, 'the nanoseconds past 2^53 are kept');
    assert.equal(s!.name, 'xred');
    assert.equal(cleanText('at a\n\tat b'), 'at a\n\tat b', 'stack traces keep their lines');
  });
});

describe('readTrace on the showcase traces (chdb)', () => {
  it('the failing refund trace: spans, nesting, the exception and the logs equal plain SQL', async () => {
    const model = await readTrace(run, TRACES, [TRACES, LOGS], SHOWCASE.refund);
    const plain = await query(
      `SELECT SpanId, ParentSpanId, SpanName, ServiceName, StatusCode, Duration / 1e6 AS ms, Events.Name AS events,
              Events.Attributes AS attrs
       FROM otel_traces WHERE TraceId = '${SHOWCASE.refund}' ORDER BY Timestamp`,
      DB,
      NOW,
    );
    const { tree } = model;
    assert.equal(tree.rows.length, plain.length);
    assert.ok(plain.length > 1);
    for (const p of plain) {
      const row = tree.rows.find((r) => tree.spans[r.span]!.spanId === p.SpanId)!;
      const s = tree.spans[row.span]!;
      assert.equal(s.name, p.SpanName);
      assert.equal(s.service, p.ServiceName);
      assert.equal(s.durationMs, p.ms);
      const parent = row.parent >= 0 ? tree.spans[tree.rows[row.parent]!.span]!.spanId : '';
      assert.equal(parent, p.ParentSpanId, `parent of ${String(p.SpanId)}`);
      assert.equal(row.error, p.StatusCode === 'Error' || (p.events as string[]).includes('exception'));
    }
    const failed = plain.find((p) => (p.events as string[]).includes('exception'))!;
    const attrs = (failed.attrs as Record<string, string>[])[(failed.events as string[]).indexOf('exception')]!;
    const span = tree.spans.find((s) => s.spanId === failed.SpanId)!;
    const event = span.events.find((e) => e.name === 'exception')!;
    assert.equal(event.attributes['exception.type'], attrs['exception.type']);
    assert.equal(event.attributes['exception.stacktrace'], attrs['exception.stacktrace']);
    assert.match(event.attributes['exception.stacktrace']!, /\n\tat /);

    const logs = await query(
      `SELECT SpanId, Body FROM otel_logs WHERE TraceId = '${SHOWCASE.refund}' ORDER BY Timestamp`,
      DB,
      NOW,
    );
    assert.ok(logs.length > 0);
    assert.deepEqual(
      model.logs.map((l) => [l.spanId, l.body]),
      logs.map((l) => [l.SpanId, l.Body]),
    );
    assert.deepEqual(model.notes, []);
  });

  it('the orphan trace: the span whose parent was never exported is marked', async () => {
    const { tree } = await readTrace(run, TRACES, [TRACES, LOGS], SHOWCASE.orphan);
    const orphans = tree.rows.filter((r) => r.orphan).map((r) => tree.spans[r.span]!.parentSpanId);
    assert.deepEqual(orphans, [SHOWCASE.missingParent]);
  });

  it('the 10,000-span trace: every span, one root', async () => {
    const { tree } = await readTrace(run, TRACES, [TRACES, LOGS], SHOWCASE.bulk);
    assert.equal(tree.rows.length, SHOWCASE.bulkSpans);
    assert.equal(tree.rows.filter((r) => r.depth === 0).length, 1);
    assert.equal(tree.rows[0]!.descendants, SHOWCASE.bulkSpans - 1);
  });
});

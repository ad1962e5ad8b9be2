/**
 * The trace tree the waterfall and the Get Trace tool show: nesting by parent span ID with children by start, orphans
 * (parent missing) and loops of parents at the top level and marked, duplicate span IDs, errors (status or exception
 * event), and 100,000 spans (a chain 100,000 deep builds without recursion; more spans are cut and counted).
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTraceTree, TRACE_MAX_SPANS, traceTreeText, type TraceSpan } from '../../../src/render';

function span(spanId: string, parentSpanId: string, startMs: number, extra: Partial<TraceSpan> = {}): TraceSpan {
  return {
    spanId,
    parentSpanId,
    name: `op ${spanId}`,
    service: 'svc',
    kind: 'Internal',
    startMs,
    durationMs: 10,
    statusCode: 'Unset',
    statusMessage: '',
    attributes: {},
    resource: {},
    events: [],
    ...extra,
  };
}

/** Each row as "  id" (two spaces a level) with its marks. */
function shape(spans: TraceSpan[]): string[] {
  const tree = buildTraceTree(spans);
  return tree.rows.map((r) => {
    const s = tree.spans[r.span]!;
    const marks = [r.orphan && 'orphan', r.cycle && 'cycle', r.duplicate && 'dup', r.error && 'error'].filter(Boolean);
    return `${'  '.repeat(r.depth)}${s.spanId}${marks.length ? ` (${marks.join(',')})` : ''}`;
  });
}

describe('buildTraceTree', () => {
  it('nests spans by parent span ID, children by start, and counts each subtree', () => {
    const spans = [span('c', 'a', 5), span('a', '', 0), span('b', 'a', 2), span('d', 'b', 3)];
    assert.deepEqual(shape(spans), ['a', '  b', '    d', '  c']);
    const tree = buildTraceTree(spans);
    assert.deepEqual(
      tree.rows.map((r) => [r.parent, r.descendants]),
      [
        [-1, 3],
        [0, 1],
        [1, 0],
        [0, 0],
      ],
    );
    assert.equal(tree.startMs, 0);
    assert.equal(tree.endMs, 15);
  });

  it('puts an orphan (its parent is not in the trace) at the top level, marked, with its own children', () => {
    const spans = [span('root', '', 0), span('o', 'missing', 1), span('oc', 'o', 2), span('k', 'root', 3)];
    assert.deepEqual(shape(spans), ['root', '  k', 'o (orphan)', '  oc']);
    assert.equal(buildTraceTree(spans).orphans, 1);
  });

  it('breaks loops of parents: the earliest span of a loop starts a marked subtree; a self-parent too', () => {
    const spans = [span('root', '', 0), span('x', 'y', 1), span('y', 'x', 2), span('s', 's', 3)];
    assert.deepEqual(shape(spans), ['root', 's (orphan)', 'x (orphan,cycle)', '  y']);
    const tree = buildTraceTree(spans);
    assert.equal(tree.rows.length, 4, 'every span has one row');
  });

  it('keeps both spans of a duplicate span ID; the first one holds the children', () => {
    const spans = [span('a', '', 0), span('b', 'a', 1), span('b', 'a', 2), span('c', 'b', 3)];
    assert.deepEqual(shape(spans), ['a', '  b', '    c', '  b (dup)']);
  });

  it('marks errors: status Error (or code 2) and spans with an exception event', () => {
    const spans = [
      span('a', '', 0, { statusCode: 'Error' }),
      span('b', 'a', 1, { statusCode: 'STATUS_CODE_ERROR' }),
      span('c', 'a', 2, { events: [{ timeMs: 3, name: 'exception', attributes: { 'exception.type': 'E' } }] }),
      span('d', 'a', 3, { statusCode: 'Ok' }),
    ];
    assert.deepEqual(shape(spans), ['a (error)', '  b (error)', '  c (error)', '  d']);
    assert.equal(buildTraceTree(spans).errors, 3);
  });

  it('builds a chain of 100,000 spans without recursion, and cuts spans past the bound', () => {
    const chain = Array.from({ length: TRACE_MAX_SPANS + 5 }, (_, i) => span(`s${i}`, i === 0 ? '' : `s${i - 1}`, i));
    const tree = buildTraceTree(chain);
    assert.equal(tree.rows.length, TRACE_MAX_SPANS);
    assert.equal(tree.cut, 5);
    assert.equal(tree.rows.at(-1)!.depth, TRACE_MAX_SPANS - 1);
    assert.equal(tree.rows[0]!.descendants, TRACE_MAX_SPANS - 1);
  });
});

describe('traceTreeText', () => {
  it('shows failed spans first, then the longest, each with its ancestors, in tree order and on one line each', () => {
    const spans = [
      span('root', '', 0, { durationMs: 100 }),
      span('fast', 'root', 1, { durationMs: 1 }),
      span('slow', 'root', 2, { durationMs: 90 }),
      span('deep', 'fast', 3, {
        durationMs: 0.5,
        name: 'fails\nhere',
        statusCode: 'Error',
        events: [
          { timeMs: 3, name: 'exception', attributes: { 'exception.type': 'java.lang.E', 'exception.message': 'bad' } },
        ],
      }),
    ];
    const text = traceTreeText(buildTraceTree(spans), 3);
    const lines = text.split('\n');
    assert.equal(lines.length, 3, text);
    assert.match(lines[0]!, /^- op root \[svc\] 100 ms/);
    assert.match(lines[0]!, /\(\+1 spans below not shown\)$/);
    assert.match(lines[1]!, /^ {2}- op fast \[svc\] 1\.0 ms/);
    assert.match(lines[2]!, /^ {4}- fails here \[svc\] .*ERROR java\.lang\.E: bad/);
    assert.doesNotMatch(
      text,
      /slow/,
      'the bound leaves out the longest span once the failed one and its ancestors fill it',
    );
  });
});

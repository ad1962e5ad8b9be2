/** Span IDs in a row's details open the span in its trace; the Patterns tab follows the live tail, bounded. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QueryResult } from '../../../src/api/query';
import { rowDetails } from '../../../src/search/details';
import { runSearch, type SearchRequest } from '../../../src/search/model';
import { PanelPatterns, PATTERNS_TAIL_MS } from '../../../src/search/panelPatterns';
import type { PatternsView, ToPage } from '../../../src/search/protocol';
import { rowEffect } from '../../../src/search/rowActions';

const SOURCE = {
  kind: 'log',
  from: { databaseName: 'default', tableName: 'otel_logs' },
  timestampValueExpression: 'TimestampTime',
  defaultTableSelectExpression: 'Timestamp, ServiceName, SeverityText, Body',
  severityTextExpression: 'SeverityText',
  bodyExpression: 'Body',
  implicitColumnExpression: 'Body',
  traceIdExpression: 'TraceId',
  spanIdExpression: 'SpanId',
};

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('Search: a span ID in a row’s details', () => {
  const req = (): SearchRequest => ({ source: SOURCE, condition: '', language: 'lucene', range: { from: 0, to: 1 } });

  it('is marked and opens its trace with the span selected', () => {
    const fields = rowDetails(['TraceId', 'SpanId', 'Body'], [TRACE, SPAN, 'x']);
    const details = rowEffect({ type: 'details', index: 0 }, fields, req());
    const shown = details?.kind === 'details' && details.message.type === 'details' ? details.message.fields : [];
    assert.deepEqual(
      shown.map((f) => [f.trace, f.span ?? false]),
      [
        [true, false],
        [false, true],
        [false, false],
      ],
    );
    assert.deepEqual(rowEffect({ type: 'openTrace', index: 0, field: 1 }, fields, req()), {
      kind: 'openTrace',
      traceId: TRACE,
      spanId: SPAN,
    });
  });

  it('is not a link when the row has no trace ID', () => {
    const fields = rowDetails(['TraceId', 'SpanId'], ['', SPAN]);
    const details = rowEffect({ type: 'details', index: 0 }, fields, req());
    const shown = details?.kind === 'details' && details.message.type === 'details' ? details.message.fields : [];
    assert.deepEqual(
      shown.map((f) => f.span ?? false),
      [false, false],
    );
  });
});

const result = (rows: unknown[][]): QueryResult => ({
  columns: [
    { name: 'b', type: '' },
    { name: 't', type: '' },
    { name: 's', type: '' },
  ],
  rows,
  bytes: 0,
  elapsedMs: 0,
  firstByteMs: 0,
});

describe('Search: the Patterns tab and the live tail', () => {
  function setUp() {
    let now = Date.UTC(2026, 10, 29, 12, 0, 0);
    const request: SearchRequest = {
      source: SOURCE,
      condition: '',
      language: 'lucene',
      range: { from: now - 3_600_000, to: now },
    };
    const rows: unknown[][] = [['user 1 logged in', '2026-11-29 11:30:00', 'info']];
    const sqls: string[] = [];
    const posted: PatternsView[] = [];
    const patterns = new PanelPatterns({
      request: () => request,
      run: async (sql) => {
        sqls.push(sql);
        return result([...rows]);
      },
      total: () => rows.length,
      post: (m: ToPage) => {
        if (m.type === 'patterns') posted.push(m.patterns);
      },
      now: () => now,
    });
    return {
      patterns,
      sqls,
      posted,
      rows,
      tick: (ms: number) => (now += ms),
    };
  }
  const shown = (v: PatternsView | undefined) => v?.rows.map((r) => `${r.countText} ${r.pattern}`);

  it('mines the appended rows again while the tab shows, at most every 15 s, the old patterns shown meanwhile', async () => {
    const s = setUp();
    await s.patterns.show('patterns');
    assert.equal(s.sqls.length, 1);
    assert.deepEqual(shown(s.patterns.view), ['1 user 1 logged in']);
    s.rows.push(['disk full on sda', '2026-11-29 12:00:03', 'error']);
    s.tick(5_000);
    await s.patterns.appended(1);
    assert.equal(s.sqls.length, 1, 'not within 15 s of the last run');
    s.tick(PATTERNS_TAIL_MS);
    await s.patterns.appended(0);
    assert.equal(s.sqls.length, 2, 'the rows appended earlier are mined once the 15 s are over');
    assert.deepEqual(shown(s.patterns.view)?.sort(), ['1 disk full on sda', '1 user 1 logged in']);
    assert.ok(
      s.posted.slice(1).every((v) => !v.loading),
      'a refresh keeps the patterns shown until the new ones come',
    );
    s.tick(PATTERNS_TAIL_MS);
    await s.patterns.appended(0);
    assert.equal(s.sqls.length, 2, 'nothing new appended: nothing run');
  });

  it('runs nothing while the tab is hidden, and mines the appended rows when it is shown', async () => {
    const s = setUp();
    await s.patterns.show('patterns');
    await s.patterns.show('events');
    for (let i = 0; i < 10; i++) {
      s.rows.push([`job ${i} done`, '2026-11-29 12:00:03', 'info']);
      s.tick(5_000);
      await s.patterns.appended(1);
    }
    assert.equal(s.sqls.length, 1, 'hidden: no statement on any tick');
    await s.patterns.show('patterns');
    assert.equal(s.sqls.length, 2, 'shown: mined again once');
    assert.ok(shown(s.patterns.view)?.includes('10 job <*> done'), JSON.stringify(s.patterns.view));
    await s.patterns.show('events');
    await s.patterns.show('patterns');
    assert.equal(s.sqls.length, 2, 'nothing appended since: the patterns kept');
  });
});

describe('Search: a span ID column in the rows', () => {
  it('is known to the view when the rows show the source’s span ID column, and not otherwise', async () => {
    const req: SearchRequest = { source: SOURCE, condition: '', language: 'lucene', range: { from: 0, to: 1 } };
    const result = (names: string[]): QueryResult =>
      ({ columns: names.map((name) => ({ name, type: 'String' })), rows: [names.map(() => 'x')] }) as QueryResult;
    const shown = await runSearch(async () => result(['Timestamp', 'TraceId', 'SpanId', 'Body']), req, false);
    assert.deepEqual([shown.traceIdColumn, shown.spanIdColumn], [1, 2]);
    const hidden = await runSearch(async () => result(['Timestamp', 'Body']), req, false);
    assert.deepEqual([hidden.traceIdColumn, hidden.spanIdColumn], [-1, -1]);
  });
});

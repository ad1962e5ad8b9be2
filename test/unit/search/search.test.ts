import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QueryResult } from '../../../src/api/query';
import { appendCondition, fieldCondition, rowDetails } from '../../../src/search/details';
import { boundedText, fullRow, histogramOf, MAP_KEYS, type SearchRequest } from '../../../src/search/model';
import { rowEffect } from '../../../src/search/rowActions';
import { LiveTail } from '../../../src/search/tail';

const result = (columns: string[], rows: unknown[][]): QueryResult => ({
  columns: columns.map((name) => ({ name, type: '' })),
  rows,
  bytes: 0,
  elapsedMs: 0,
  firstByteMs: 0,
});

const SOURCE = {
  kind: 'log',
  from: { databaseName: 'default', tableName: 'otel_logs' },
  timestampValueExpression: 'TimestampTime',
  displayedTimestampValueExpression: 'Timestamp',
  defaultTableSelectExpression: 'Timestamp, ServiceName, SeverityText, Body',
  severityTextExpression: 'SeverityText',
  implicitColumnExpression: 'Body',
};

describe('Search: hostile and huge data stays bounded', () => {
  it('cuts a 1 MB body and strips ANSI and control characters, keeping tabs and newlines', () => {
    const body = `\u001b[31mred\u001b[0m\u0007 a\tb\nc\u202e${'x'.repeat(1024 * 1024)}`;
    const text = boundedText(body, 500);
    assert.equal(text.length, 501);
    assert.ok(text.startsWith('red a\tb\nc'));
    assert.ok(text.endsWith('…'));
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(text, /[\u0000-\u0008\u001b\u007f\u202e]/);
  });

  it('shows at most MAP_KEYS keys of a map with 10,000 keys and says how many are left out', () => {
    const map = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, `v${i}`]));
    const fields = rowDetails(['Body', 'LogAttributes'], ['hello', map]);
    assert.equal(fields.length, 1 + MAP_KEYS + 1);
    assert.deepEqual(fields[0], { name: 'Body', column: 'Body', value: 'hello' });
    assert.equal(fields[1]!.column, 'LogAttributes');
    assert.equal(fields.at(-1)!.more, 10_000 - MAP_KEYS);
    assert.equal(boundedText(map, 100).length <= 101, true);
  });
});

describe('Search: add to search', () => {
  it('writes field:value in Lucene and field = value in SQL, negated too, ANDed on the condition', () => {
    assert.equal(fieldCondition({ column: 'SeverityText' }, 'error', 'lucene', false), 'SeverityText:"error"');
    assert.equal(
      fieldCondition({ column: 'LogAttributes', key: 'http.method' }, 'a"b', 'lucene', true),
      '-LogAttributes.http.method:"a\\"b"',
    );
    assert.equal(
      fieldCondition({ column: 'LogAttributes', key: "it's" }, 'x', 'sql', false),
      "LogAttributes['it\\'s'] = 'x'",
    );
    assert.equal(fieldCondition({ column: 'ServiceName' }, 'api', 'sql', true), "ServiceName != 'api'");
    assert.equal(appendCondition('', 'a:"b"', 'lucene'), 'a:"b"');
    assert.equal(appendCondition('x OR y', 'a:"b"', 'lucene'), '(x OR y) a:"b"');
    assert.equal(appendCondition('x = 1 OR y = 2', "a = 'b'", 'sql'), "(x = 1 OR y = 2) AND a = 'b'");
  });
});

describe('Search: histogram and details statements', () => {
  it('counts per bucket and severity, empty buckets included', () => {
    const h = histogramOf(
      result(
        ['t', 'count', 'sev'],
        [
          ['2026-11-26 12:00:00', '3', 'info'],
          ['2026-11-26 12:02:00', 2, 'error'],
          ['2026-11-26 12:02:00', 1, 'info'],
        ],
      ),
      {
        granularity: { seconds: 60 },
        range: { from: Date.UTC(2026, 10, 26, 12, 0), to: Date.UTC(2026, 10, 26, 12, 3) },
        columns: { time: { index: 0 }, values: [{ index: 1 }], groups: [{ index: 2 }] },
      },
    );
    assert.equal(h.total, 6);
    assert.deepEqual(h.groups, ['error', 'info']);
    assert.equal(h.buckets.length, 4);
    assert.deepEqual(h.counts, [
      [0, 0, 2, 0],
      [3, 0, 1, 0],
    ]);
  });

  it('finds a row again by its plain columns (a long body is left out of the statement)', async () => {
    const seen: string[] = [];
    const row = await fullRow(
      async (sql) => {
        seen.push(sql);
        return result(['Timestamp', 'TraceId'], [['2026-11-26 12:00:00.1', 'abc']]);
      },
      SOURCE,
      ['Timestamp', 'ServiceName', 'round(x)', 'Body'],
      ['2026-11-26 12:00:00.1', "o'k", 3, 'y'.repeat(5000)],
    );
    assert.deepEqual(seen, [
      "SELECT * FROM `default`.`otel_logs` WHERE Timestamp = '2026-11-26 12:00:00.1' AND ServiceName = 'o\\'k' LIMIT 1",
    ]);
    assert.deepEqual(row, { columns: ['Timestamp', 'TraceId'], row: ['2026-11-26 12:00:00.1', 'abc'] });
  });
});

describe('Search: live tail', () => {
  it('runs with the range end moved to now, prepends only new rows, and waits while paused', async () => {
    const sqls: string[] = [];
    const got: { rows: unknown[][]; range: { from: number; to: number } }[] = [];
    let now = Date.UTC(2026, 10, 26, 12, 0, 10);
    const req = {
      source: SOURCE,
      condition: '',
      language: 'lucene' as const,
      range: { from: Date.UTC(2026, 10, 26, 11, 0, 0), to: Date.UTC(2026, 10, 26, 12, 0, 0) },
    };
    const tail = new LiveTail({
      request: () => req,
      now: () => now,
      run: async (sql) => {
        sqls.push(sql);
        return sql.includes('count()')
          ? result(['t', 'c', 's'], [])
          : result(['Timestamp'], [['2026-11-26 12:00:09'], ['2026-11-26 12:00:00']]);
      },
      onRows: (model, range) => got.push({ rows: model.raw, range }),
    });
    tail.reset([['2026-11-26 12:00:00']], req.range.to);
    assert.equal(await tail.tick(), true);
    assert.equal(sqls.length, 2, 'rows since the last run, then the histogram');
    assert.match(sqls[0]!, /TimestampTime >= fromUnixTimestamp64Milli\(1795694400000\)|1795694400/);
    assert.deepEqual(got[0]!.rows, [['2026-11-26 12:00:09']], 'the row already shown is not prepended again');
    assert.deepEqual(got[0]!.range, { from: now - 3_600_000, to: now });
    tail.paused = true;
    now += 5000;
    assert.equal(await tail.tick(), false);
    assert.equal(sqls.length, 2, 'no request while paused');
  });

  it('drops a run that was in flight when a new search started or the tail was stopped', async () => {
    const got: { from: number; to: number }[] = [];
    let release: () => void = () => undefined;
    const req = {
      source: SOURCE,
      condition: '',
      language: 'lucene' as const,
      range: { from: Date.UTC(2026, 10, 26, 11, 0, 0), to: Date.UTC(2026, 10, 26, 12, 0, 0) },
    };
    const tail = new LiveTail({
      request: () => req,
      now: () => Date.UTC(2026, 10, 26, 12, 0, 10),
      run: async (sql) => {
        if (!sql.includes('count()')) await new Promise<void>((resolve) => (release = resolve));
        return sql.includes('count()') ? result(['t', 'c', 's'], []) : result(['Timestamp'], [['2026-11-26 12:00:09']]);
      },
      onRows: (_model, range) => got.push(range),
    });
    for (const interrupt of [
      () => tail.reset([], Date.UTC(2026, 10, 26, 11, 30, 0)), // a new search (a brushed range)
      () => tail.stop(),
    ]) {
      const run = tail.tick();
      await new Promise((resolve) => setImmediate(resolve));
      interrupt();
      release();
      assert.equal(await run, false);
    }
    assert.deepEqual(got, [], 'nothing delivered: the panel keeps the new search and its range');
  });
});

describe('Search: a row’s buttons', () => {
  it('marks the trace ID field, adds a map key as a column, and changes the condition', () => {
    const req: SearchRequest = {
      source: { ...SOURCE, traceIdExpression: 'TraceId' },
      condition: 'SeverityText:error',
      language: 'lucene',
      range: { from: 0, to: 1 },
    };
    const fields = rowDetails(['TraceId', 'LogAttributes'], ['abc', { 'http.method': 'GET' }]);
    const details = rowEffect({ type: 'details', index: 0 }, fields, req);
    assert.equal(details?.kind, 'details');
    const shown = details?.kind === 'details' && details.message.type === 'details' ? details.message.fields : [];
    assert.deepEqual(
      shown.map((f) => f.trace),
      [true, false],
    );
    assert.deepEqual(rowEffect({ type: 'openTrace', index: 0, field: 0 }, fields, req), {
      kind: 'openTrace',
      traceId: 'abc',
    });
    assert.deepEqual(rowEffect({ type: 'showColumn', index: 0, field: 1 }, fields, req), { kind: 'search' });
    assert.equal(req.select, "Timestamp, ServiceName, SeverityText, Body, LogAttributes['http.method']");
    assert.equal(rowEffect({ type: 'showColumn', index: 0, field: 1 }, fields, req), undefined, 'shown once');
    assert.deepEqual(rowEffect({ type: 'addToSearch', index: 0, field: 1, negate: true }, fields, req), {
      kind: 'search',
    });
    assert.equal(req.condition, '(SeverityText:error) -LogAttributes.http.method:"GET"');
  });
});

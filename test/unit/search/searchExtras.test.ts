/**
 * Save as Saved Search, the Patterns tab and completion of the search panel, as pure functions: the saved search's
 * fields, the patterns of sampled rows (the pattern tiles' miner), and the completion statements, words and cache.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QueryResult } from '../../../src/api/query';
import { groupPatterns } from '../../../src/render/patterns';
import { CompletionCache, COMPLETION_TTL_MS } from '../../../src/search/completion';
import {
  fieldTarget,
  fieldValuesSql,
  mapColumns,
  mapKeysOf,
  mapKeysSql,
  valuesOf,
} from '../../../src/search/completionSql';
import { fieldNames, valueCondition, valueContext } from '../../../src/search/fieldNames';
import { patternsSql, patternsView, sampledRows } from '../../../src/search/patterns';
import type { SearchRequest } from '../../../src/search/request';
import { savedSearchFields, savedSearchName } from '../../../src/search/saveAs';

const result = (rows: unknown[][]): QueryResult => ({
  columns: [],
  rows,
  bytes: 0,
  elapsedMs: 0,
  firstByteMs: 0,
});

const COLUMNS = {
  Timestamp: 'DateTime64(9)',
  TimestampTime: 'DateTime',
  ServiceName: 'LowCardinality(String)',
  SeverityText: 'LowCardinality(String)',
  Body: 'String',
  LogAttributes: 'Map(LowCardinality(String), String)',
  ResourceAttributes: 'Map(LowCardinality(String), String)',
};

const request = (extra: Partial<SearchRequest> = {}): SearchRequest => ({
  source: {
    id: 'src1',
    name: 'Logs',
    kind: 'log',
    from: { databaseName: 'default', tableName: 'otel_logs' },
    timestampValueExpression: 'TimestampTime',
    displayedTimestampValueExpression: 'Timestamp',
    defaultTableSelectExpression: 'Timestamp, ServiceName, SeverityText, Body',
    severityTextExpression: 'SeverityText',
    bodyExpression: 'Body',
  },
  condition: 'SeverityText:error',
  language: 'lucene',
  range: { from: Date.UTC(2026, 0, 1, 10), to: Date.UTC(2026, 0, 1, 11) },
  columns: COLUMNS,
  ...extra,
});

describe('Search: Save as Saved Search', () => {
  it("takes the search's source, condition, language, columns and order", () => {
    const fields = savedSearchFields(
      request({
        select: "Timestamp, Body, LogAttributes['http.method']",
        orderBy: 'Timestamp ASC',
        language: 'lucene',
      }),
    );
    assert.deepEqual(fields, {
      sourceId: 'src1',
      select: "Timestamp, Body, LogAttributes['http.method']",
      where: 'SeverityText:error',
      whereLanguage: 'lucene',
      orderBy: 'Timestamp ASC',
    });
  });

  it("leaves the columns and order empty (the source's default) when they are the source's", () => {
    const fields = savedSearchFields(
      request({
        select: ' Timestamp, ServiceName, SeverityText, Body ',
        condition: "ServiceName = 'x'",
        language: 'sql',
      }),
    );
    assert.equal(fields.select, '');
    assert.equal(fields.orderBy, '');
    assert.equal(fields.whereLanguage, 'sql');
    assert.equal(fields.where, "ServiceName = 'x'");
  });

  it('names it after the source and condition, cut to 100 characters', () => {
    assert.equal(savedSearchName(request()), 'Logs: SeverityText:error');
    assert.equal(savedSearchName(request({ condition: '' })), 'Logs events');
    const long = savedSearchName(request({ condition: `Body:"${'x'.repeat(300)}"` }));
    assert.equal(long.length, 100);
    assert.ok(long.endsWith('…'));
  });
});

describe('Search: the Patterns tab', () => {
  it("samples 10,000 random rows of the search's condition and range: body, timestamp, severity", () => {
    const { sql, level } = patternsSql(request());
    assert.equal(level, true);
    assert.match(
      sql,
      /^SELECT Body AS __hdx_pattern_field, TimestampTime AS __hdx_timestamp, SeverityText AS __hdx_severity_text FROM/,
    );
    assert.match(sql, /ORDER BY rand\(\) DESC LIMIT 10000$/);
    assert.match(sql, /SeverityText/i);
    assert.match(sql, /TimestampTime >= /);
  });

  it("mines the rows with the pattern tiles' miner, counts scaled to the total, a sample of each", () => {
    const rows = [
      ['user 1 logged in', '2026-01-01 10:00:01', 'info'],
      ['user 2 logged in', '2026-01-01 10:00:02', 'info'],
      ['user 3 logged in', '2026-01-01 10:10:02', 'info'],
      ['\u001b[31mdisk full\u001b[0m', '2026-01-01 10:20:00', 'error'],
    ];
    const sampled = sampledRows(rows, true);
    const range = request().range;
    const mined = groupPatterns(sampled, 8, range);
    const view = patternsView(sampled, 8, range);
    assert.deepEqual(
      view.rows.map((r) => [r.pattern, r.count, r.countText, r.level]),
      mined.patterns.map((p) => [p.pattern, p.count, p.countText, p.level]),
    );
    assert.deepEqual(
      view.rows.map((r) => [r.pattern, r.count, r.sample]),
      [
        ['user <*> logged in', 6, 'user 3 logged in'],
        ['disk full', 2, 'disk full'],
      ],
    );
    assert.match(view.note ?? '', /extrapolated from a random sample of 4 rows to 8/);
    // Exact counts (every row sampled) are shown as they are.
    assert.deepEqual(
      patternsView(sampled, 4, range).rows.map((r) => r.countText),
      ['3', '1'],
    );
  });
});

describe('Search: completion', () => {
  it('reads the map keys of the newest rows of the range in one bounded statement', () => {
    assert.deepEqual(mapColumns(COLUMNS), ['LogAttributes', 'ResourceAttributes']);
    const sql = mapKeysSql(request())!;
    assert.match(
      sql,
      /^SELECT DISTINCT tupleElement\(p, 1\) AS c, tupleElement\(p, 2\) AS k FROM \(SELECT `LogAttributes` AS __m0, `ResourceAttributes` AS __m1 FROM/,
    );
    assert.match(sql, /LIMIT 10000\) ARRAY JOIN arrayConcat\(/);
    assert.match(sql, /ORDER BY c, k LIMIT 2000$/);
    assert.doesNotMatch(sql, /SeverityText/, 'the condition is not applied');
    assert.equal(mapKeysSql(request({ columns: { Body: 'String' } })), undefined);
    assert.deepEqual(
      mapKeysOf([
        ['LogAttributes', 'http.method'],
        ['LogAttributes', ''],
        ['LogAttributes', `x${'y'.repeat(300)}`],
        ['ResourceAttributes', 'service.name'],
      ]),
      [
        ['LogAttributes', 'http.method'],
        ['ResourceAttributes', 'service.name'],
      ],
    );
  });

  it('maps a field of either language to its column and key, and reads its most frequent values', () => {
    assert.deepEqual(fieldTarget('ServiceName', COLUMNS), { column: 'ServiceName' });
    assert.deepEqual(fieldTarget('LogAttributes.http.method', COLUMNS), {
      column: 'LogAttributes',
      key: 'http.method',
    });
    assert.deepEqual(fieldTarget("LogAttributes['it\\'s']", COLUMNS), { column: 'LogAttributes', key: "it's" });
    assert.equal(fieldTarget('Nope.x', COLUMNS), undefined);
    assert.equal(fieldTarget("Body['x']", COLUMNS), undefined, 'not a map');
    const sql = fieldValuesSql(request(), { column: 'LogAttributes', key: "it's" });
    assert.match(
      sql,
      /^SELECT toString\(__v\) AS v, count\(\) AS n FROM \(SELECT `LogAttributes`\['it\\'s'\] AS __v FROM/,
    );
    assert.match(sql, /GROUP BY v ORDER BY n DESC, v LIMIT 100$/);
    assert.deepEqual(valuesOf([['GET'], ['a\nb'], [1], ['POST']]), ['GET', 'POST']);
  });

  it('offers columns and map keys in the language of the condition, and values as conditions', () => {
    const keys: [string, string][] = [
      ['LogAttributes', 'http.method'],
      ['LogAttributes', 'has space'],
    ];
    assert.deepEqual(fieldNames(['Body'], keys, 'lucene'), ['Body', 'LogAttributes.http.method']);
    assert.deepEqual(fieldNames(['Body'], keys, 'sql'), [
      'Body',
      "LogAttributes['http.method']",
      "LogAttributes['has space']",
    ]);
    assert.equal(valueCondition('LogAttributes.http.method', 'G"T', 'lucene'), 'LogAttributes.http.method:"G\\"T"');
    assert.equal(valueCondition("LogAttributes['k']", "it's", 'sql'), "LogAttributes['k'] = 'it\\'s'");
    assert.deepEqual(valueContext('a AND LogAttributes.http.method:G', 'lucene'), {
      head: 'a AND ',
      field: 'LogAttributes.http.method',
      partial: 'G',
    });
    assert.deepEqual(valueContext("x = 1 AND LogAttributes['k'] = 'P", 'sql'), {
      head: 'x = 1 AND ',
      field: "LogAttributes['k']",
      partial: 'P',
    });
    assert.equal(valueContext('ServiceName', 'lucene'), undefined);
  });

  it('reads keys and values once per source and field, forgets failures and keeps them a few minutes', async () => {
    let now = 0;
    const cache = new CompletionCache(() => now);
    const sent: string[] = [];
    let fail = true;
    const run = async (sql: string): Promise<QueryResult> => {
      sent.push(sql);
      if (fail) throw new Error('429');
      return sql.includes('DISTINCT') ? result([['LogAttributes', 'k']]) : result([['v1'], ['v2']]);
    };
    const req = request();
    assert.deepEqual(await cache.keys('a', run, req), [], 'a failure offers nothing');
    fail = false;
    assert.deepEqual(await cache.keys('a', run, req), [['LogAttributes', 'k']], 'and is tried again');
    assert.deepEqual(await cache.keys('a', run, req), [['LogAttributes', 'k']]);
    assert.equal(sent.length, 2);
    assert.deepEqual(await cache.values('a', 'LogAttributes.k', run, req), ['v1', 'v2']);
    assert.deepEqual(await cache.values('a', "LogAttributes['k']", run, req), ['v1', 'v2'], 'the same field in SQL');
    assert.deepEqual(await cache.values('a', 'Unknown', run, req), [], 'not a field of the table: nothing sent');
    assert.equal(sent.length, 3);
    await cache.keys('b', run, req);
    assert.equal(sent.length, 4, 'another source reads its own');
    now += COMPLETION_TTL_MS + 1;
    await cache.keys('a', run, req);
    assert.equal(sent.length, 5, 'read again after a few minutes');
  });
});

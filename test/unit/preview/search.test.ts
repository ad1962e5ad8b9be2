/**
 * Search golden tests: on the emulator's embedded ClickHouse (chdb) with its sample data frozen at a fixed "now",
 * the rows and histogram counts of `renderSearch` — the search page's two statements, through the same Lucene
 * translation as the previews — equal plain SQL written here for each condition of the corpus (searchCases.ts):
 * free text, field:value, quoted phrases, wildcards, ranges, negation, AND/OR/groups, map attributes, span event
 * arrays, dates as numbers, missing keys, SQL conditions, over logs and traces.
 */
import * as assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  columnsFromDescribe,
  defaultSearchOrder,
  describeSourceSql,
  renderSearch,
  sortingKeySql,
  type SearchStatements,
} from '../../../src/render';
import { SHOWCASE } from '../../emulator/clickhouse/traces';
import { DATABASE as GOLDEN_DB, query } from './golden';
import { searchCases, type SearchCase } from './searchCases';

/** The frozen clock: the sample data ends here. */
const NOW = Date.parse('2026-03-02T10:20:30.000Z');
const FROM = NOW - 30 * 60_000;
const DB = 'otel';

/** The sample service's log and trace sources (as the emulator seeds them). */
const SOURCES = {
  logs: {
    id: 'logs',
    kind: 'log',
    from: { databaseName: DB, tableName: 'otel_logs' },
    timestampValueExpression: 'TimestampTime',
    displayedTimestampValueExpression: 'Timestamp',
    defaultTableSelectExpression: 'Timestamp, ServiceName, SeverityText, Body',
    severityTextExpression: 'SeverityText',
    bodyExpression: 'Body',
    implicitColumnExpression: 'Body',
  },
  traces: {
    id: 'traces',
    kind: 'trace',
    from: { databaseName: DB, tableName: 'otel_traces' },
    timestampValueExpression: 'Timestamp',
    defaultTableSelectExpression: 'Timestamp, ServiceName, StatusCode, round(Duration / 1e6), SpanName',
    statusCodeExpression: 'StatusCode',
    spanNameExpression: 'SpanName',
    implicitColumnExpression: 'SpanName',
  },
} as const;

/** What the hand-written SQL says about one source: its table, time filter, columns, order and stacking column. */
const HAND = {
  logs: {
    table: 'otel_logs',
    range: `TimestampTime >= toDateTime(${FROM / 1000}) AND TimestampTime <= toDateTime(${NOW / 1000})`,
    columns: 'Timestamp, ServiceName, SeverityText, Body',
    order: 'TimestampTime DESC, Timestamp DESC',
    time: 'toUnixTimestamp(TimestampTime)',
    group: 'SeverityText',
  },
  traces: {
    table: 'otel_traces',
    range: `Timestamp >= toDateTime64(${FROM / 1000}, 9) AND Timestamp <= toDateTime64(${NOW / 1000}, 9)`,
    columns: 'Timestamp, ServiceName, StatusCode, round(Duration / 1e6), SpanName',
    order: 'Timestamp DESC',
    time: 'toUnixTimestamp(Timestamp)',
    group: 'StatusCode',
  },
};

const columnTypes: Record<string, Record<string, string>> = {};

function render(c: SearchCase): SearchStatements {
  const r = renderSearch({
    source: SOURCES[c.source],
    condition: c.condition,
    language: c.language ?? 'lucene',
    range: { from: FROM, to: NOW },
    columns: columnTypes[c.source],
  });
  assert.ok(r.ok, r.ok ? '' : `${c.condition}: ${r.reason}`);
  return r;
}

/** Histogram rows as "bucket|group" → count. */
function bars(rows: Record<string, unknown>[], at: (r: Record<string, unknown>) => [unknown, unknown, unknown]) {
  const out = new Map<string, number>();
  for (const row of rows) {
    const [t, g, n] = at(row);
    out.set(`${Number(t)}|${String(g)}`, Number(n));
  }
  return out;
}

describe('search: rows and histogram equal hand-written SQL on the frozen sample data', () => {
  before(async () => {
    for (const key of ['logs', 'traces'] as const) {
      const rows = await query(describeSourceSql(SOURCES[key]) as string, DB, NOW);
      columnTypes[key] = columnsFromDescribe(rows);
    }
  });

  const cases = searchCases(NOW / 1000);

  it('has a corpus of at least 40 conditions over logs and traces', () => {
    assert.ok(cases.length >= 40, `${cases.length} cases`);
    assert.ok(cases.filter((c) => c.source === 'logs').length >= 20);
    assert.ok(cases.filter((c) => c.source === 'traces').length >= 20);
  });

  for (const c of cases) {
    it(`${c.source}: ${c.condition || '(every row)'}${c.language === 'sql' ? ' [SQL]' : ''}`, async () => {
      const r = render(c);
      const h = HAND[c.source];
      const where = `${h.range} AND (${c.sql})`;

      const [{ n: total }] = (await query(`SELECT count() AS n FROM ${h.table} WHERE ${where}`, DB, NOW)) as [
        { n: number },
      ];
      assert.ok(Number(total) >= c.atLeast, `${c.condition}: ${total} rows by hand, expected at least ${c.atLeast}`);
      if (c.exactly !== undefined) assert.equal(Number(total), c.exactly);

      const rows = await query(r.rows.sql, DB, NOW);
      const expectedRows = await query(
        `SELECT ${h.columns} FROM ${h.table} WHERE ${where} ORDER BY ${h.order} LIMIT 200`,
        DB,
        NOW,
      );
      assert.equal(rows.length, Math.min(200, Number(total)));
      assert.deepEqual(rows.map(Object.values), expectedRows.map(Object.values), `rows of ${c.condition}`);

      // 30 minutes in at most 80 buckets: 30 seconds each, as the search page's histogram picks.
      assert.equal(r.histogram.granularity.sql, '30 second');
      assert.equal(r.histogram.groupBy, h.group);
      const { time, values, groups } = r.histogram.columns;
      const got = bars(await query(r.histogram.sql, DB, NOW), (row) => {
        const v = Object.values(row);
        return [v[time?.index ?? -1], v[groups[0]?.index ?? -1], v[values[0]?.index ?? -1]];
      });
      const want = bars(
        await query(
          `SELECT intDiv(${h.time}, 30) * 30 AS t, ${h.group} AS g, count() AS n FROM ${h.table} WHERE ${where} GROUP BY t, g`,
          DB,
          NOW,
        ),
        (row) => [row.t, row.g, row.n],
      );
      assert.deepEqual([...got].sort(), [...want].sort(), `histogram of ${c.condition}`);
      assert.equal(
        [...got.values()].reduce((a, b) => a + b, 0),
        Number(total),
        'the histogram counts every row the search finds',
      );
    });
  }

  it('names what cannot be searched instead of rendering something else', () => {
    const whole = renderSearch({
      source: SOURCES.traces,
      condition: 'Events.Attributes:exception',
      language: 'lucene',
      range: { from: FROM, to: NOW },
      columns: columnTypes.traces,
    });
    assert.equal(whole.ok, false);
    assert.match(whole.ok ? '' : whole.reason, /Events\.Attributes needs the key of its elements/);
    const metric = renderSearch({
      source: { kind: 'metric', from: { databaseName: DB, tableName: '' } },
      condition: '',
      language: 'lucene',
      range: { from: FROM, to: NOW },
    });
    assert.equal(metric.ok, false);
  });

  it('orders rows newest first by the source order, else its timestamp columns', () => {
    const logs = render({ source: 'logs', condition: '', sql: '1', atLeast: 0 });
    assert.match(logs.rows.sql, /ORDER BY \(TimestampTime, Timestamp\) DESC LIMIT 200$/);
    assert.deepEqual(logs.rows.columns, ['Timestamp', 'ServiceName', 'SeverityText', 'Body']);
    const traces = render({ source: 'traces', condition: `TraceId:${SHOWCASE.refund}`, sql: '1', atLeast: 0 });
    assert.match(traces.rows.sql, /ORDER BY Timestamp DESC LIMIT 200$/);
    // The table's sorting key adds its time expressions first, as the search page's default order does.
    assert.equal(
      defaultSearchOrder(SOURCES.traces, 'ServiceName, SpanName, toDateTime(Timestamp)'),
      '(toDateTime(Timestamp), Timestamp) DESC',
    );
    assert.equal(defaultSearchOrder({ ...SOURCES.logs, orderByExpression: 'Timestamp ASC' }), 'Timestamp ASC');
  });

  it("reads the table's sorting key from system.tables (a table of the sample schema)", async () => {
    const source = { ...SOURCES.traces, from: { databaseName: GOLDEN_DB, tableName: 'otel_traces' } };
    const [row] = await query(sortingKeySql(source) as string, GOLDEN_DB);
    assert.equal(row?.sorting_key, 'ServiceName, SpanName, toDateTime(Timestamp)');
    assert.equal(defaultSearchOrder(source, String(row?.sorting_key)), '(toDateTime(Timestamp), Timestamp) DESC');
  });
});

/**
 * Golden SQL: each tile kind and aggregation renders to a fixed statement, and that statement runs on the
 * emulator's embedded ClickHouse over a deterministic table with the numbers computed here independently.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  columnsFromDescribe,
  describeSourceSql,
  renderTile,
  renderWindowedQuery,
  type RenderResult,
} from '../../../src/render';
import { gauge, query, rows, SOURCE, T0, type Row } from './golden';
import { GOLDEN_SQL } from './goldenSql';
import { CASES, HOUR, RANGE } from './renderCases';

type Rows = Record<string, unknown>[];
const all = rows();
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const first = (r: Rows) => Object.values(r[0] ?? {})[0];
const byBucket = (xs: Row[], sizeMs: number) => {
  const m = new Map<number, Row[]>();
  for (const x of xs) {
    const b = Math.floor(x.ts / sizeMs) * sizeMs;
    m.set(b, [...(m.get(b) ?? []), x]);
  }
  return m;
};

/** The answer a user should see for each case, computed from the generator's rows (or a hand-written query). */
const EXPECT: Record<string, (r: Rows, res: RenderResult & { ok: true }) => Promise<void> | void> = {
  'line count per 5 minutes': (r) => {
    assert.deepEqual(
      r.map((x) => [Number(x.__hdx_time_bucket) * 1000, x['count()']]),
      [...byBucket(all, 300_000)].map(([b, xs]) => [b, xs.length]),
    );
  },
  'line count with automatic granularity (1 h → 1 minute)': (r, res) => {
    assert.equal(res.granularity?.sql, '1 minute');
    assert.equal(r.length, 60);
    assert.ok(r.every((x) => x['count()'] === 10));
  },
  'stacked bar count of errors by service': (r) => {
    const expected = new Map<string, number>();
    for (const x of all.filter((x) => x.severity === 'error')) {
      const k = `${Math.floor(x.ts / 900_000) * 900}|${x.service}`;
      expected.set(k, (expected.get(k) ?? 0) + 1);
    }
    const got = new Map(r.map((x) => [`${String(x.__hdx_time_bucket)}|${String(x.ServiceName)}`, Object.values(x)[0]]));
    assert.deepEqual(got, expected);
  },
  'line sum by user, top 3 series': (r) => {
    // Rank: the largest per-bucket sum of each user; top 3 (ties by name).
    const per = new Map<string, Map<number, number>>();
    for (const x of all) {
      const b = Math.floor(x.ts / 1_800_000);
      const m = per.get(x.user) ?? new Map<number, number>();
      m.set(b, (m.get(b) ?? 0) + x.duration);
      per.set(x.user, m);
    }
    const ranked = [...per]
      .map(([u, m]) => [u, Math.max(...m.values())] as const)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const top = ranked
      .slice(0, 3)
      .map(([u]) => u)
      .sort();
    const users = [...new Set(r.map((x) => String(Object.values(x)[1])))].sort();
    assert.deepEqual(users, top);
    for (const x of r) {
      const [value, user, bucket] = Object.values(x);
      assert.equal(value, per.get(String(user))?.get(Number(bucket) / 1800));
    }
  },
  'number sum': (r) => assert.equal(first(r), sum(all.map((x) => x.duration))),
  'number avg': (r) => assert.equal(first(r), sum(all.map((x) => x.duration)) / all.length),
  'number min': (r) => assert.equal(first(r), Math.min(...all.map((x) => x.duration))),
  'number max': (r) => assert.equal(first(r), Math.max(...all.map((x) => x.duration))),
  'number count_distinct': (r) => assert.equal(first(r), new Set(all.map((x) => x.user)).size),
  'number quantile 0.5': async (r) =>
    assert.equal(first(r), first(await query('SELECT quantile(0.5)(toFloat64(number % 50)) FROM numbers(600)'))),
  'number quantile 0.9': async (r) =>
    assert.equal(first(r), first(await query('SELECT quantile(0.9)(toFloat64(number % 50)) FROM numbers(600)'))),
  'number quantile 0.95': async (r) =>
    assert.equal(first(r), first(await query('SELECT quantile(0.95)(toFloat64(number % 50)) FROM numbers(600)'))),
  'number quantile 0.99': async (r) =>
    assert.equal(first(r), first(await query('SELECT quantile(0.99)(toFloat64(number % 50)) FROM numbers(600)'))),
  // last_value and any take some row of the range (ClickHouse defines no order): the value must be one of them.
  'number last_value': (r) => assert.ok(all.some((x) => x.duration === first(r))),
  'number any': (r) => assert.ok(['api', 'web', 'db'].includes(String(first(r)))),
  'number none (raw aggregate expression)': (r) => assert.equal(first(r), all.length * 2),
  'number count with SQL series filter': (r) =>
    assert.equal(first(r), all.filter((x) => x.severity === 'error').length),
  'number avg with Lucene series filter on a map attribute': (r) => {
    const xs = all.filter((x) => x.status.includes('500'));
    assert.equal(first(r), sum(xs.map((x) => x.duration)) / xs.length);
  },
  'number count of a bare Lucene term (implicit column)': (r) =>
    assert.equal(first(r), all.filter((x) => x.body.split(' ').includes('timeout')).length),
  'number count of a Lucene range': (r) =>
    assert.equal(first(r), all.filter((x) => x.severityNumber >= 10 && x.severityNumber <= 20).length),
  'table count and avg by service': (r) => {
    const expected = ['api', 'db', 'web'].map((s) => {
      const xs = all.filter((x) => x.service === s);
      return { n: xs.length, avg_duration: sum(xs.map((x) => x.duration)) / xs.length, ServiceName: s };
    });
    assert.deepEqual(r, expected);
  },
  'table ratio (asRatio)': (r) => assert.equal(first(r), all.filter((x) => x.severity === 'error').length / all.length),
  'pie count by status': (r) => {
    const got = Object.fromEntries(r.map((x) => [String(Object.values(x)[1]), Object.values(x)[0]]));
    const expected: Record<string, number> = {};
    for (const x of all) expected[x.status] = (expected[x.status] ?? 0) + 1;
    assert.deepEqual(got, expected);
  },
  'search api lines': (r) => {
    const expected = all
      .filter((x) => x.service === 'api')
      .sort((a, b) => b.ts - a.ts)
      .slice(0, 5);
    assert.deepEqual(
      r,
      expected.map((x) => ({ TimestampTime: String(x.ts / 1000), ServiceName: 'api', Body: x.body })),
    );
  },
  'raw SQL line with time macros and $__filters': (r, res) => {
    assert.equal(res.granularity?.seconds, 600);
    assert.deepEqual(
      r.map((x) => [Number(x.ts) * 1000, x.c]),
      [...byBucket(all, 600_000)].map(([b, xs]) => [b, xs.length]),
    );
  },
  'raw SQL number with query parameters': (r) => assert.equal(first(r), all.filter((x) => x.ts < T0 + 600_000).length),
  'dashboard filter and saved search on a line tile': (r) => {
    assert.deepEqual(
      r.map((x) => x['count()']),
      [all.filter((x) => x.service === 'api' && x.severity === 'error').length],
    );
  },
  'dashboard filter scoped to another source is not applied': (r) => assert.equal(first(r), all.length),
  "gauge metric line: average of the hosts' last values per 5 minutes": (r) => {
    const g = gauge();
    const expected = Array.from({ length: 12 }, (_, k) => {
      const last = (host: string) => g.filter((x) => x.host === host && x.minute === k * 5 + 4)[0]?.value ?? NaN;
      return [T0 / 1000 + k * 300, (last('a') + last('b')) / 2];
    });
    assert.deepEqual(
      r.map((x) => [Number(x.__hdx_time_bucket), Object.values(x)[0]]),
      expected,
    );
  },
  'sum metric line: counter increase per 5 minutes (delta period)': (r) => {
    // Per host the increase between readings (the first reading counts 0): a +10, b +5 per minute.
    const expected = Array.from({ length: 12 }, (_, k) => [
      T0 / 1000 + k * 300,
      k === 0 ? 4 * 10 + 4 * 5 : 5 * 10 + 5 * 5,
    ]);
    assert.deepEqual(
      r.map((x) => [Number(x.__hdx_time_bucket), x.Value]),
      expected,
    );
  },
  'gauge metric line grouped by host: max per minute': (r) => {
    const got = r
      .map((x) => `${String(Object.values(x)[2])}|${String(Object.values(x)[1])}|${String(Object.values(x)[0])}`)
      .sort();
    const expected = gauge()
      .map((x) => `${(x.ts - 30_000) / 1000}|${x.host}|${x.value}`)
      .sort();
    assert.deepEqual(got, expected);
  },
};

describe('Tile preview SQL (golden, executed on ClickHouse)', () => {
  for (const c of CASES) {
    it(`${c.name}: renders the golden SQL and computes the expected numbers`, async () => {
      const res = renderTile(c.tile, c.opts);
      assert.ok(res.ok, res.ok ? '' : res.reason);
      assert.equal(res.sql, GOLDEN_SQL[c.name], 'golden SQL');
      const check = EXPECT[c.name];
      assert.ok(check, `no expectation for ${c.name}`);
      await check(await query(res.sql), res);
    });
  }

  it('every case has a golden statement and an expectation', () => {
    assert.deepEqual(Object.keys(GOLDEN_SQL).sort(), CASES.map((c) => c.name).sort());
    assert.deepEqual(Object.keys(EXPECT).sort(), CASES.map((c) => c.name).sort());
  });

  it('markdown tiles render no SQL and carry their text', () => {
    const res = renderTile({ config: { displayType: 'markdown', markdown: '# Hi' } }, { range: RANGE });
    assert.deepEqual(res, {
      ok: true,
      sql: '',
      shape: 'markdown',
      columns: { values: [], groups: [] },
      markdown: '# Hi',
      notes: [],
    });
  });

  it('says exactly which part cannot be previewed, and renders nothing then', () => {
    const opts = { range: RANGE, source: SOURCE };
    const cases: [Record<string, unknown>, string, typeof opts & Record<string, unknown>][] = [
      [
        {
          displayType: 'line',
          sourceId: 'src-logs',
          select: [{ aggFn: 'count' }, { aggFn: 'count' }],
          formulas: [{ expression: 'A / B' }],
        },
        'formulas are not previewed yet',
        opts,
      ],
      [
        { displayType: 'heatmap', sourceId: 'src-logs', select: [{ valueExpression: 'avg(Duration)' }] },
        'heatmaps of an aggregate value expression are not previewed yet',
        opts,
      ],
      [
        { displayType: 'event_patterns', sourceId: 'src-logs' },
        'the source has no body expression for the patterns (bodyExpression)',
        { ...opts, source: { ...SOURCE, kind: 'trace', implicitColumnExpression: '' } },
      ],
      [
        {
          displayType: 'line',
          sourceId: 'm',
          select: [
            { aggFn: 'quantile', level: 0.9, valueExpression: 'Value', metricName: 'x', metricType: 'histogram' },
          ],
        },
        'histogram metric series are not previewed yet (gauge and sum only)',
        { ...opts, source: { ...SOURCE, id: 'm', kind: 'metric' } },
      ],
      [
        {
          displayType: 'line',
          sourceId: 'm',
          select: [
            { aggFn: 'avg', valueExpression: 'Value', metricName: 'x', metricType: 'gauge' },
            { aggFn: 'max', valueExpression: 'Value', metricName: 'y', metricType: 'gauge' },
          ],
        },
        'the metric source has no gauge table',
        { ...opts, source: { ...SOURCE, id: 'm', kind: 'metric' } },
      ],
      [
        {
          displayType: 'number',
          sourceId: 'src-logs',
          select: [{ aggFn: 'count', where: 'ServiceName:(api', whereLanguage: 'lucene' }],
        },
        'series 1 filter: the Lucene search "ServiceName:(api" cannot be parsed',
        opts,
      ],
      [
        {
          displayType: 'table',
          configType: 'sql',
          connectionId: 'c',
          sqlTemplate: 'SELECT $__timeInterval(TimestampTime) FROM t',
        },
        '{intervalSeconds:Int64} is only passed to line and stacked bar tiles',
        opts,
      ],
      [
        { displayType: 'line', configType: 'sql', connectionId: 'c', sqlTemplate: 'SELECT {other:String}' },
        'the query parameter {other:String} is not one ClickStack passes to raw SQL tiles',
        opts,
      ],
      [
        { displayType: 'line', configType: 'sql', connectionId: 'c', sqlTemplate: 'SELECT * FROM $__sourceTable' },
        '$__sourceTable needs the tile to have a source with a table',
        { range: RANGE } as typeof opts,
      ],
      [
        { displayType: 'line', configType: 'sql', connectionId: 'c', sqlTemplate: 'SELECT $__nope()' },
        '$__nope is not a macro ClickStack knows',
        opts,
      ],
    ];
    for (const [config, reason, o] of cases) {
      const res = renderTile({ config }, o);
      assert.equal(res.ok, false, JSON.stringify(config));
      assert.ok(!res.ok && res.reason.startsWith(reason), `${!res.ok ? res.reason : ''} should start with ${reason}`);
    }
  });

  it('raw SQL: a dashboard variable without a selection matches everything; with one it is not previewed yet', async () => {
    const tile = {
      config: {
        displayType: 'number',
        configType: 'sql',
        connectionId: 'c',
        sqlTemplate:
          'SELECT count() AS c FROM `preview_golden`.`otel_logs` WHERE $__filter(ServiceName, $Service) AND $__timeFilter(TimestampTime)',
      },
    };
    const filters = [{ name: 'Service', expression: 'ServiceName', isVariableEnabled: true }];
    const none = renderTile(tile, { range: RANGE, dashboard: { filters } });
    assert.ok(none.ok, none.ok ? '' : none.reason);
    assert.equal(
      none.sql,
      'SELECT count() AS c FROM `preview_golden`.`otel_logs` WHERE 1=1 AND TimestampTime >= toDateTime(fromUnixTimestamp64Milli(1767225600000)) AND TimestampTime <= toDateTime(fromUnixTimestamp64Milli(1767229200000))',
    );
    assert.equal((await query(none.sql))[0]?.c, rows().length);
    const chosen = renderTile(tile, {
      range: RANGE,
      dashboard: { filters, savedFilterValues: [{ type: 'variable', name: 'Service', values: ['api'] }] },
    });
    assert.deepEqual(chosen, {
      ok: false,
      reason: '$__filter: dashboard variables with selected values are not previewed yet',
      notes: [],
    });
    const bare = renderTile(
      { config: { ...tile.config, sqlTemplate: "SELECT count() FROM t WHERE ServiceName = '$Service'" } },
      { range: RANGE, dashboard: { filters } },
    );
    assert.deepEqual(bare, {
      ok: false,
      reason: 'dashboard variable references ($Service) in raw SQL are not previewed yet',
      notes: [],
    });
  });

  it('a series filter without a language is read as ClickStack reads it (Lucene in the series, SQL in WHERE), with a note', () => {
    const res = renderTile(
      {
        config: { displayType: 'number', sourceId: 'src-logs', select: [{ aggFn: 'count', where: 'ServiceName:api' }] },
      },
      { range: RANGE, source: SOURCE },
    );
    assert.ok(res.ok);
    assert.match(res.sql, /^SELECT countIf\(\(\(ServiceName ILIKE '%api%'\)\)\) FROM .* AND \(ServiceName:api\)$/);
    assert.deepEqual(res.notes, [
      'series 1 filter has no whereLanguage: ClickStack reads it as Lucene in the series and as SQL in the WHERE clause',
    ]);
  });

  it('column types from DESCRIBE drive the Lucene field mapping (numbers compare as numbers, maps by key)', async () => {
    const sql = describeSourceSql(SOURCE);
    assert.equal(sql, 'DESCRIBE TABLE `preview_golden`.`otel_logs`');
    const columns = columnsFromDescribe(await query(sql as string));
    assert.equal(columns.LogAttributes, 'Map(LowCardinality(String), String)');
    const res = renderTile(
      {
        config: {
          displayType: 'number',
          sourceId: 'src-logs',
          select: [{ aggFn: 'count', where: 'SeverityNumber:17 LogAttributes.user:"u3"', whereLanguage: 'lucene' }],
        },
      },
      { range: RANGE, source: SOURCE, columns },
    );
    assert.ok(res.ok, res.ok ? '' : res.reason);
    assert.match(
      res.sql,
      /\(`SeverityNumber` = CAST\('17', 'Float64'\)\) AND \(`LogAttributes`\['user'\] = 'u3' AND indexHint\(mapContains\(`LogAttributes`, 'user'\)\)\)/,
    );
    const r = await query(res.sql);
    assert.equal(first(r), all.filter((x) => x.severityNumber === 17 && x.user === 'u3').length);
  });

  it('a saved search alert counts matching rows per window, the window end excluded', async () => {
    const res = renderWindowedQuery(
      { kind: 'savedSearch', savedSearch: { where: 'SeverityText:error', whereLanguage: 'lucene' } },
      { range: { from: T0, to: T0 + HOUR }, granularity: '5 minute', source: SOURCE },
    );
    assert.ok(res.ok, res.ok ? '' : res.reason);
    assert.equal(
      res.sql,
      "SELECT count(),toStartOfInterval(toDateTime(TimestampTime), INTERVAL 5 minute) AS `__hdx_time_bucket` FROM `preview_golden`.`otel_logs` WHERE (TimestampTime >= fromUnixTimestamp64Milli(1767225600000) AND TimestampTime < fromUnixTimestamp64Milli(1767229200000)) AND (((SeverityText ILIKE '%error%'))) GROUP BY toStartOfInterval(toDateTime(TimestampTime), INTERVAL 5 minute) AS `__hdx_time_bucket` ORDER BY toStartOfInterval(toDateTime(TimestampTime), INTERVAL 5 minute) AS `__hdx_time_bucket`",
    );
    const r = await query(res.sql);
    assert.deepEqual(
      r.map((x) => x['count()']),
      [
        ...byBucket(
          all.filter((x) => x.severity === 'error'),
          300_000,
        ).values(),
      ].map((xs) => xs.length),
    );
  });
});

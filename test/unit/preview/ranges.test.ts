/**
 * Golden numbers of every tile kind over the dashboard ranges (15 m, 1 h, 6 h, 24 h, 7 d), each ending off a bucket
 * boundary: the rendered SQL runs on the emulator's embedded ClickHouse (chdb) over eight days of generated rows, and
 * the answer is compared with values computed here from the generator's rows, following HyperDX's rules step by step:
 * time charts bucket by the automatic granularity of up to 80 buckets and read the range aligned to it (start rounded
 * down, end rounded up, end excluded); number, table and pie tiles read the range as picked (both ends included);
 * metric series take the last gauge reading per host and bucket, and the clamped increase of a cumulative counter
 * (reset every 100 minutes) summed per host and bucket, the counter read one bucket beyond each end only on time
 * charts; metric number tiles bucket by the renderer's own automatic granularity (60 buckets) and keep the buckets
 * that start in the range.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { renderTile, type RenderOptions, type RenderResult, type TileLike } from '../../../src/render';
import { ClickHouseEngine } from '../../emulator/clickhouse/engine';

const DATABASE = 'preview_ranges';
const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Start of the generated data (a Thursday, 00:00 UTC). */
const B = Date.UTC(2026, 0, 1);
/** The "now" the ranges end at: off every bucket boundary. */
const NOW = B + 7 * DAY + 12 * HOUR + 17 * MIN + 23 * SEC + 250;
const LOG_STEP = 7 * SEC;
const LOGS = Math.floor((8 * DAY) / LOG_STEP);
const MINUTES = 8 * 24 * 60;

/** Range, and the bucket size a dashboard's time chart picks for it (at most 80 buckets: HyperDX's steps). */
const RANGES: { name: string; ms: number; bucket: number }[] = [
  { name: '15 m', ms: 15 * MIN, bucket: 15 * SEC },
  { name: '1 h', ms: HOUR, bucket: MIN },
  { name: '6 h', ms: 6 * HOUR, bucket: 5 * MIN },
  { name: '24 h', ms: DAY, bucket: 30 * MIN },
  { name: '7 d', ms: 7 * DAY, bucket: 6 * HOUR },
];
/** The renderer's own automatic granularity (60 buckets), used by metric number, table and pie tiles. */
const RENDER_BUCKET: Record<string, number> = {
  '15 m': 15 * SEC,
  '1 h': MIN,
  '6 h': 15 * MIN,
  '24 h': 30 * MIN,
  '7 d': 6 * HOUR,
};

interface Log {
  ts: number;
  service: string;
  severity: string;
  duration: number;
}
const logs: Log[] = Array.from({ length: LOGS }, (_, i) => ({
  ts: B + LOG_STEP * i,
  service: ['api', 'web', 'db'][i % 3] as string,
  severity: i % 10 === 0 ? 'error' : 'info',
  duration: i % 50,
}));

interface Reading {
  ts: number;
  host: string;
  value: number;
}
/** Gauge "cpu": one reading per host per minute (at :30), constant within each 6-hour block (so the last one is known). */
const gauge: Reading[] = Array.from({ length: MINUTES }, (_, m) => {
  const block = Math.floor(m / 360);
  return [
    { ts: B + m * MIN + 30 * SEC, host: 'a', value: 1.1 * (block % 10) },
    { ts: B + m * MIN + 30 * SEC, host: 'b', value: 100 + (block % 7) / 3 },
  ];
}).flat();
/** Cumulative counter "requests": host a rises by 10.5 a minute and resets every 100 minutes, host b rises by 3. */
const counter: Reading[] = Array.from({ length: MINUTES }, (_, m) => [
  { ts: B + m * MIN + 30 * SEC, host: 'a', value: 10.5 * (m % 100) },
  { ts: B + m * MIN + 30 * SEC, host: 'b', value: 3 * m },
]).flat();

const LOG_SOURCE = {
  id: 'src-logs',
  kind: 'log',
  name: 'Logs',
  from: { databaseName: DATABASE, tableName: 'otel_logs' },
  timestampValueExpression: 'TimestampTime',
  implicitColumnExpression: 'Body',
};
const METRIC_SOURCE = {
  id: 'src-metrics',
  kind: 'metric',
  name: 'Metrics',
  from: { databaseName: DATABASE, tableName: '' },
  timestampValueExpression: 'TimeUnix',
  metricTables: { gauge: 'otel_metrics_gauge', sum: 'otel_metrics_sum' },
};

let engine: ClickHouseEngine;

async function run(sql: string): Promise<Record<string, unknown>[]> {
  let out = '';
  await engine.run(
    sql,
    'JSONEachRow',
    DATABASE,
    new AbortController().signal,
    () => undefined,
    async (b) => {
      out += Buffer.from(b).toString('utf8');
      return true;
    },
    { date_time_output_format: 'unix_timestamp', output_format_json_quote_64bit_integers: '0' },
  );
  return out
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
const floorTo = (t: number, size: number) => Math.floor(t / size) * size;
const ceilTo = (t: number, size: number) => Math.ceil(t / size) * size;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const avg = (xs: number[]) => sum(xs) / xs.length;

function groupBy<T>(xs: readonly T[], key: (x: T) => string | number): Map<string | number, T[]> {
  const m = new Map<string | number, T[]>();
  for (const x of xs) {
    const k = key(x);
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return m;
}

/** The clamped increase of each reading over the previous one of its host among `seen` (none for the first). */
function increases(seen: readonly Reading[]): (Reading & { rate: number })[] {
  const out: (Reading & { rate: number })[] = [];
  for (const [, list] of groupBy(seen, (r) => r.host)) {
    const sorted = [...list].sort((x, y) => x.ts - y.ts);
    sorted.forEach((r, i) =>
      out.push({ ...r, rate: i === 0 ? 0 : Math.max(r.value - (sorted[i - 1] as Reading).value, 0) }),
    );
  }
  return out;
}

/** The per-bucket last gauge reading per host, then the tile's aggregation over hosts. */
function gaugeBuckets(from: number, to: number, endIncluded: boolean, size: number) {
  const seen = gauge.filter((r) => r.ts >= from && (endIncluded ? r.ts <= to : r.ts < to));
  const perHostBucket = new Map<string, { host: string; bucket: number; ts: number; value: number }>();
  for (const r of seen) {
    const k = `${r.host}|${floorTo(r.ts, size)}`;
    const had = perHostBucket.get(k);
    if (!had || had.ts < r.ts) {
      perHostBucket.set(k, { host: r.host, bucket: floorTo(r.ts, size), ts: r.ts, value: r.value });
    }
  }
  return { rows: [...perHostBucket.values()] };
}

type Rows = Record<string, unknown>[];
interface Kind {
  name: string;
  tile: TileLike;
  source: typeof LOG_SOURCE | typeof METRIC_SOURCE;
  /** The expected rows, as [key, values…] tuples in a stable order, from the generator's rows. */
  expected(range: { from: number; to: number; name: string; bucket: number }): (string | number | null)[][];
  /** The rendered rows in the same form. */
  actual(rows: Rows, res: RenderResult & { ok: true }): (string | number | null)[][];
}

const t = (x: unknown) => Number(x) * 1000;
const num = (x: unknown) => (x === null || x === undefined ? null : Number(x));
const byKey = (a: (string | number | null)[], b: (string | number | null)[]) =>
  String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0;
const builder = (
  displayType: string,
  select: unknown[],
  extra: Record<string, unknown> = {},
  sourceId = 'src-logs',
) => ({
  name: displayType,
  config: { displayType, sourceId, select, ...extra },
});
const dur = "LogAttributes['duration']";

/** A time chart's aligned range: [start rounded down, end rounded up), as HyperDX reads it. */
const aligned = (r: { from: number; to: number; bucket: number }) => ({
  from: floorTo(r.from, r.bucket),
  to: ceilTo(r.to, r.bucket),
});

const KINDS: Kind[] = [
  {
    name: 'line: count per bucket',
    tile: builder('line', [{ aggFn: 'count' }]),
    source: LOG_SOURCE,
    expected: (r) => {
      const a = aligned(r);
      const rows = logs.filter((x) => x.ts >= a.from && x.ts < a.to);
      return [...groupBy(rows, (x) => floorTo(x.ts, r.bucket))].map(([b, xs]) => [Number(b), xs.length]);
    },
    actual: (rows) => rows.map((x) => [t(x.__hdx_time_bucket), num(x['count()'])]),
  },
  {
    name: 'stacked bar: average duration by service per bucket',
    tile: builder('stacked_bar', [{ aggFn: 'avg', valueExpression: dur }], { groupBy: 'ServiceName' }),
    source: LOG_SOURCE,
    expected: (r) => {
      const a = aligned(r);
      const rows = logs.filter((x) => x.ts >= a.from && x.ts < a.to);
      return [...groupBy(rows, (x) => `${floorTo(x.ts, r.bucket)}|${x.service}`)]
        .map(([k, xs]) => [String(k), avg(xs.map((x) => x.duration))])
        .sort(byKey);
    },
    actual: (rows) =>
      rows.map((x) => [`${t(x.__hdx_time_bucket)}|${String(x.ServiceName)}`, num(Object.values(x)[0])]).sort(byKey),
  },
  {
    name: 'number: sum of durations over the range (both ends included)',
    tile: builder('number', [{ aggFn: 'sum', valueExpression: dur }]),
    source: LOG_SOURCE,
    expected: (r) => [[sum(logs.filter((x) => x.ts >= r.from && x.ts <= r.to).map((x) => x.duration))]],
    actual: (rows) => rows.map((x) => [num(Object.values(x)[0])]),
  },
  {
    name: 'table: count and maximum by service',
    tile: builder(
      'table',
      [
        { aggFn: 'count', alias: 'n' },
        { aggFn: 'max', valueExpression: dur, alias: 'longest' },
      ],
      { groupBy: 'ServiceName' },
    ),
    source: LOG_SOURCE,
    expected: (r) =>
      [
        ...groupBy(
          logs.filter((x) => x.ts >= r.from && x.ts <= r.to),
          (x) => x.service,
        ),
      ]
        .map(([s, xs]) => [String(s), xs.length, Math.max(...xs.map((x) => x.duration))])
        .sort(byKey),
    actual: (rows) => rows.map((x) => [String(x.ServiceName), num(x.n), num(x.longest)]),
  },
  {
    name: 'pie: errors by service',
    tile: builder('pie', [{ aggFn: 'count', where: "SeverityText = 'error'", whereLanguage: 'sql' }], {
      groupBy: 'ServiceName',
    }),
    source: LOG_SOURCE,
    expected: (r) =>
      [
        ...groupBy(
          logs.filter((x) => x.severity === 'error' && x.ts >= r.from && x.ts <= r.to),
          (x) => x.service,
        ),
      ]
        .map(([s, xs]) => [String(s), xs.length])
        .sort(byKey),
    actual: (rows) => rows.map((x) => [String(x.ServiceName), num(Object.values(x)[0])]).sort(byKey),
  },
  {
    name: 'search: the newest 200 rows of the range',
    tile: {
      name: 'search',
      config: { displayType: 'search', sourceId: 'src-logs', select: 'TimestampTime, ServiceName' },
    },
    source: LOG_SOURCE,
    expected: (r) =>
      logs
        .filter((x) => x.ts >= r.from && x.ts <= r.to)
        .slice(-200)
        .reverse()
        .map((x) => [x.ts, x.service]),
    actual: (rows) => rows.map((x) => [t(x.TimestampTime), String(x.ServiceName)]),
  },
  {
    name: 'raw SQL line: count per bucket with the time macros',
    tile: {
      name: 'raw',
      config: {
        displayType: 'line',
        configType: 'sql',
        sourceId: 'src-logs',
        sqlTemplate:
          'SELECT $__timeInterval(TimestampTime) AS ts, count() AS c FROM $__sourceTable WHERE $__timeFilter(TimestampTime) GROUP BY ts ORDER BY ts',
      },
    },
    source: LOG_SOURCE,
    // The macro's filter includes its end: the aligned end's bucket shows when a row falls exactly on it.
    expected: (r) => {
      const a = aligned(r);
      const rows = logs.filter((x) => x.ts >= a.from && x.ts <= a.to);
      return [...groupBy(rows, (x) => floorTo(x.ts, r.bucket))].map(([b, xs]) => [Number(b), xs.length]);
    },
    actual: (rows) => rows.map((x) => [t(x.ts), num(x.c)]),
  },
  {
    name: 'gauge metric line: average over hosts of the last reading per bucket',
    tile: builder(
      'line',
      [{ aggFn: 'avg', metricType: 'gauge', metricName: 'cpu', valueExpression: 'Value' }],
      {},
      'src-metrics',
    ),
    source: METRIC_SOURCE,
    expected: (r) => {
      const a = aligned(r);
      const { rows } = gaugeBuckets(a.from, a.to, false, r.bucket);
      return [...groupBy(rows, (x) => x.bucket)].map(([b, xs]) => [Number(b), avg(xs.map((x) => x.value))]);
    },
    actual: (rows) => rows.map((x) => [t(x.__hdx_time_bucket), num(Object.values(x)[0])]),
  },
  {
    name: 'sum metric line: counter increases per bucket (resets clamped), read one bucket beyond each end',
    tile: builder(
      'line',
      [{ aggFn: 'sum', metricType: 'sum', metricName: 'requests', valueExpression: 'Value' }],
      {},
      'src-metrics',
    ),
    source: METRIC_SOURCE,
    expected: (r) => {
      const a = aligned(r);
      const seen = counter.filter((x) => x.ts >= a.from - r.bucket && x.ts < a.to + r.bucket);
      const kept = increases(seen).filter((x) => x.ts >= a.from && x.ts < a.to);
      return [...groupBy(kept, (x) => floorTo(x.ts, r.bucket))]
        .map(([b, xs]) => [Number(b), sum(xs.map((x) => x.rate))])
        .sort((x, y) => Number(x[0]) - Number(y[0]));
    },
    actual: (rows) => rows.map((x) => [t(x.__hdx_time_bucket), num(x.Value)]),
  },
  {
    name: 'sum metric number: counter increase over the range, read as picked, buckets that start in it',
    tile: builder(
      'number',
      [{ aggFn: 'sum', metricType: 'sum', metricName: 'requests', valueExpression: 'Value' }],
      {},
      'src-metrics',
    ),
    source: METRIC_SOURCE,
    expected: (r) => {
      const size = RENDER_BUCKET[r.name] as number;
      const seen = counter.filter((x) => x.ts >= r.from && x.ts <= r.to);
      const kept = increases(seen).filter((x) => floorTo(x.ts, size) >= r.from);
      return [[sum(kept.map((x) => x.rate))]];
    },
    actual: (rows) => rows.map((x) => [num(x.Value)]),
  },
  {
    name: 'sum metric table: counter increase by host',
    tile: builder(
      'table',
      [{ aggFn: 'sum', metricType: 'sum', metricName: 'requests', valueExpression: 'Value' }],
      { groupBy: "Attributes['host']" },
      'src-metrics',
    ),
    source: METRIC_SOURCE,
    expected: (r) => {
      const size = RENDER_BUCKET[r.name] as number;
      const seen = counter.filter((x) => x.ts >= r.from && x.ts <= r.to);
      const kept = increases(seen).filter((x) => floorTo(x.ts, size) >= r.from);
      return [...groupBy(kept, (x) => x.host)].map(([h, xs]) => [String(h), sum(xs.map((x) => x.rate))]).sort(byKey);
    },
    actual: (rows) => rows.map((x) => [String(Object.values(x)[1]), num(x.Value)]),
  },
  {
    name: 'gauge metric pie: maximum last reading by host',
    tile: builder(
      'pie',
      [{ aggFn: 'max', metricType: 'gauge', metricName: 'cpu', valueExpression: 'Value' }],
      { groupBy: "Attributes['host']" },
      'src-metrics',
    ),
    source: METRIC_SOURCE,
    expected: (r) => {
      const size = RENDER_BUCKET[r.name] as number;
      const { rows } = gaugeBuckets(r.from, r.to, true, size);
      const byHost = new Map<string, number>();
      for (const x of rows.filter((x) => x.bucket >= r.from)) {
        byHost.set(x.host, Math.max(byHost.get(x.host) ?? -Infinity, x.value));
      }
      return [...byHost].map(([h, v]) => [h, v]).sort(byKey);
    },
    actual: (rows) => rows.map((x) => [String(Object.values(x)[1]), num(Object.values(x)[0])]).sort(byKey),
  },
  {
    name: 'multi-series metric line: gauge average and counter increase side by side',
    tile: builder(
      'line',
      [
        { aggFn: 'avg', metricType: 'gauge', metricName: 'cpu', valueExpression: 'Value' },
        { aggFn: 'sum', metricType: 'sum', metricName: 'requests', valueExpression: 'Value' },
      ],
      {},
      'src-metrics',
    ),
    source: METRIC_SOURCE,
    expected: (r) => {
      const a = aligned(r);
      const { rows } = gaugeBuckets(a.from, a.to, false, r.bucket);
      const g = new Map([...groupBy(rows, (x) => x.bucket)].map(([b, xs]) => [Number(b), avg(xs.map((x) => x.value))]));
      const seen = counter.filter((x) => x.ts >= a.from - r.bucket && x.ts < a.to + r.bucket);
      const kept = increases(seen).filter((x) => x.ts >= a.from && x.ts < a.to);
      const s = new Map(
        [...groupBy(kept, (x) => floorTo(x.ts, r.bucket))].map(([b, xs]) => [Number(b), sum(xs.map((x) => x.rate))]),
      );
      return [...new Set([...g.keys(), ...s.keys()])]
        .sort((x, y) => x - y)
        .map((b) => [b, g.get(b) ?? null, s.get(b) ?? null]);
    },
    actual: (rows) => rows.map((x) => [t(x.__hdx_time_bucket), num(x['avg(cpu)']), num(x['sum(requests)'])]),
  },
];

function same(actual: (string | number | null)[][], expected: (string | number | null)[][], what: string): void {
  assert.equal(actual.length, expected.length, `${what}: ${actual.length} rows, expected ${expected.length}`);
  actual.forEach((row, i) => {
    const want = expected[i] as (string | number | null)[];
    assert.equal(row.length, want.length, `${what}, row ${i}`);
    row.forEach((v, j) => {
      const w = want[j];
      const ok = typeof v === 'number' && typeof w === 'number' ? close(v, w) : v === w;
      assert.ok(ok, `${what}, row ${i}, column ${j}: ${String(v)} vs ${String(w)} (${JSON.stringify(row)})`);
    });
  });
}

describe('Tile previews over the dashboard ranges: the numbers HyperDX computes (golden, on ClickHouse)', () => {
  before(async () => {
    engine = await ClickHouseEngine.shared();
    engine.ensureDatabase(DATABASE);
    for (const sql of [
      'TRUNCATE TABLE otel_logs',
      `INSERT INTO otel_logs (Timestamp, TimestampTime, ServiceName, SeverityText, SeverityNumber, Body, LogAttributes)
       SELECT fromUnixTimestamp64Milli(toInt64(${B} + ${LOG_STEP} * number)), toDateTime(intDiv(${B} + ${LOG_STEP} * number, 1000)),
              ['api', 'web', 'db'][number % 3 + 1], if(number % 10 = 0, 'error', 'info'), if(number % 10 = 0, 17, 9),
              concat('request ', toString(number)), map('duration', toString(number % 50))
       FROM numbers(${LOGS})`,
      'TRUNCATE TABLE otel_metrics_gauge',
      `INSERT INTO otel_metrics_gauge (TimeUnix, MetricName, ServiceName, Attributes, Value)
       SELECT toDateTime(intDiv(${B}, 1000) + 60 * intDiv(number, 2) + 30), 'cpu', 'node', map('host', if(number % 2 = 0, 'a', 'b')),
              if(number % 2 = 0, 1.1 * (intDiv(intDiv(number, 2), 360) % 10), 100 + (intDiv(intDiv(number, 2), 360) % 7) / 3)
       FROM numbers(${2 * MINUTES})`,
      'TRUNCATE TABLE otel_metrics_sum',
      `INSERT INTO otel_metrics_sum (TimeUnix, MetricName, ServiceName, Attributes, Value, AggregationTemporality, IsMonotonic)
       SELECT toDateTime(intDiv(${B}, 1000) + 60 * intDiv(number, 2) + 30), 'requests', 'node', map('host', if(number % 2 = 0, 'a', 'b')),
              if(number % 2 = 0, 10.5 * (intDiv(number, 2) % 100), 3 * intDiv(number, 2)), 2, true
       FROM numbers(${2 * MINUTES})`,
    ]) {
      await run(sql);
    }
  });

  for (const r of RANGES) {
    // Ranges ending at NOW, and the same length ending half a bucket later (another offset from the boundaries).
    for (const end of [NOW, NOW + r.bucket / 2 + 1]) {
      const range = { from: end - r.ms, to: end, name: r.name, bucket: r.bucket };
      it(`${r.name} ending ${new Date(end).toISOString()}: every tile kind gives HyperDX's rows`, async () => {
        assert.notEqual(range.from % r.bucket, 0, 'the range starts off a bucket boundary');
        let nonEmpty = 0;
        for (const kind of KINDS) {
          const opts: RenderOptions = { range: { from: range.from, to: range.to }, source: kind.source };
          const res = renderTile(kind.tile, opts);
          assert.ok(res.ok, `${kind.name}: ${res.ok ? '' : res.reason}`);
          if (res.granularity) assert.equal(res.granularity.seconds * 1000, r.bucket, `${kind.name}: granularity`);
          const rows = await run(res.sql);
          const expected = kind.expected(range);
          same(kind.actual(rows, res), expected, `${r.name} / ${kind.name}`);
          if (expected.length > 0) nonEmpty++;
        }
        assert.equal(nonEmpty, KINDS.length, 'every kind has rows to compare');
      });
    }
  }

  it('a time chart that turns alignment off reads the range as picked, end excluded', async () => {
    const range = { from: NOW - HOUR, to: NOW };
    const tile = builder('line', [{ aggFn: 'count' }], { alignDateRangeToGranularity: false });
    const res = renderTile(tile, { range, source: LOG_SOURCE });
    assert.ok(res.ok);
    assert.deepEqual(res.range, range);
    const rows = await run(res.sql);
    const kept = logs.filter((x) => x.ts >= range.from && x.ts < range.to);
    same(
      rows.map((x) => [t(x.__hdx_time_bucket), num(x['count()'])]),
      [...groupBy(kept, (x) => floorTo(x.ts, MIN))].map(([b, xs]) => [Number(b), xs.length]),
      'not aligned',
    );
  });
});

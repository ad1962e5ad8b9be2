/**
 * A dashboard preview's tiles in one statement: on the emulator's query host (real ClickHouse, chdb) the batch gives
 * every tile exactly the columns, types and rows its own statement gives (every seeded tile kind, and raw SQL with
 * 64-bit integers, Nullable, DateTime64, arrays, maps, LowCardinality, an empty result, a long ordered result, odd
 * column names); a failing tile gets its own error while the others keep their rows; the column types of several
 * tables in one statement are those DESCRIBE gives.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { QueryClient, QueryError, type QueryResult } from '../../../src/api/query';
import { RateLimiter } from '../../../src/api/rateLimiter';
import { batchSql, runTileStatements, type RunResult, type Settled } from '../../../src/preview/batch';
import {
  columnsByTable,
  columnsFromDescribe,
  columnsOfTablesSql,
  describeSourceSql,
  renderTile,
  tableKey,
  tableOfSource,
  type SourceLike,
  type TableName,
} from '../../../src/render';
import { SAMPLE_KEY_UUID } from '../../emulator/seed';
import { startEmulator, type Emulator } from '../../emulator/server';

const LIMITS = { maxRows: 10_000, maxBytes: 16 * 1024 * 1024 };

describe('Dashboard preview batches on the emulator query host', { timeout: 300_000 }, () => {
  let emu: Emulator;
  let client: QueryClient;
  let svc: string;
  let sent: string[] = [];
  const run = async (sql: string, limits = LIMITS): Promise<QueryResult> => {
    sent.push(sql);
    return client.run({ serviceId: svc, sql, ...limits });
  };
  /** Each statement on its own, as a tile preview runs it. */
  const own = async (sqls: readonly string[]): Promise<Settled[]> =>
    Promise.all(
      sqls.map((sql) =>
        client.run({ serviceId: svc, sql, ...LIMITS }).then(
          (r): Settled => ({ ok: true, result: { columns: r.columns, rows: r.rows } }),
          (error: unknown): Settled => ({ ok: false, error }),
        ),
      ),
    );
  const batched = (sqls: readonly string[]) =>
    runTileStatements(sqls, (sql, limits): Promise<RunResult> => run(sql, limits), { ...LIMITS, concurrency: 4 });
  const same = (got: Settled[], want: Settled[], names: readonly string[]) => {
    assert.equal(got.length, want.length);
    want.forEach((w, i) => {
      const g = got[i]!;
      assert.equal(g.ok, w.ok, `${names[i]}: ${g.ok ? 'rows' : String((g as { error: unknown }).error)}`);
      if (w.ok && g.ok) {
        assert.deepEqual(g.result.columns, w.result.columns, `${names[i]}: columns and types`);
        assert.deepEqual(g.result.rows, w.result.rows, `${names[i]}: rows, in order`);
      }
    });
  };

  /**
   * As `same`, except that rows whose times are equal may come in either order: the tiles' statements order by time
   * only, and ClickHouse leaves the order of ties to how it happens to read the data.
   */
  const sameUpToTies = (g: Settled, w: Settled, name: string) => {
    assert.equal(g.ok, w.ok, name);
    if (!g.ok || !w.ok) return;
    assert.deepEqual(g.result.columns, w.result.columns, `${name}: columns and types`);
    const canonical = (r: typeof g) => r.result.rows.map((row) => JSON.stringify(row)).sort();
    assert.deepEqual(canonical(g), canonical(w), `${name}: the same rows`);
    const times = (r: typeof g) =>
      r.result.rows.map((row) => row.filter((c) => typeof c === 'string' && /^\d{4}-\d\d-\d\d[ T]\d\d:/.test(c)));
    assert.deepEqual(times(g), times(w), `${name}: rows in time order`);
  };

  before(async () => {
    // The sample data's clock is frozen, so statements run in different seconds read the same rows.
    emu = await startEmulator({ rateLimit: false, now: 'start' });
    svc = emu.serviceIds[0] as string;
    emu.state.data.get(svc)!.queryEndpoint = {
      id: 'b1f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2b',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    client = new QueryClient({
      queryUrl: emu.queryUrl,
      keyId: emu.keyId,
      getSecret: () => emu.keySecret,
      limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
    });
  });

  after(async () => {
    await client?.dispose();
    await emu?.close();
  });

  it('gives every seeded dashboard tile the columns, types and rows of its own statement, in one request', async () => {
    const data = emu.state.data.get(svc)!;
    const now = emu.now();
    const range = { from: now - 24 * 3600_000, to: now };
    const sources = [...data.sources.values()] as unknown as SourceLike[];
    const tables = sources.flatMap((s) => (tableOfSource(s) ? [tableOfSource(s)!] : []));
    const cols = columnsByTable(tables, (await run(columnsOfTablesSql(tables))).rows);
    const names: string[] = [];
    const sqls: string[] = [];
    const kinds = new Set<string>();
    for (const dashboard of data.dashboards.values()) {
      for (const tile of dashboard.tiles as { name?: string; config?: Record<string, unknown> }[]) {
        const source = sources.find((s) => s.id === tile.config?.sourceId);
        const table = source ? tableOfSource(source) : undefined;
        const r = renderTile(tile, {
          range,
          source,
          columns: table ? cols.get(tableKey(table)) : undefined,
          dashboard: dashboard as never,
        });
        if (!r.ok || r.shape === 'markdown') continue;
        names.push(`${dashboard.name} / ${tile.name ?? ''}`);
        sqls.push(r.sql);
        kinds.add(`${String(tile.config?.configType ?? 'builder')} ${String(tile.config?.displayType)}`);
      }
    }
    for (const k of ['builder line', 'builder stacked_bar', 'builder number', 'builder table', 'builder search']) {
      assert.ok(kinds.has(k), `a seeded ${k} tile is in the batch (${[...kinds].join(', ')})`);
    }
    assert.ok(
      [...kinds].some((k) => k.startsWith('sql ')),
      'a raw SQL tile is in the batch',
    );
    // The emulator's clock is frozen (the data does not move between the runs) and its ClickHouse runs each query on
    // one thread, so even `quantile`'s sample (a heatmap's value bounds, p95 tiles) repeats: every tile gets from the
    // batch exactly what its own statement gives, before and after the batch. Only an event pattern tile's random
    // sample of rows differs.
    const want = await own(sqls);
    assert.ok(
      want.every((w) => w.ok),
      'every seeded tile runs on its own',
    );
    assert.ok(want.filter((w) => w.ok && w.result.rows.length > 0).length >= 4, 'most tiles have rows');
    sent = [];
    const got = await batched(sqls);
    assert.equal(sent.length, 1, 'one request for all the tiles');
    const again = await own(sqls);
    // An event pattern tile samples its rows at random (ORDER BY rand() LIMIT 10000, as HyperDX): over 24 h the range
    // holds more rows than the sample, so the batch gets another sample of the same size and the same total count.
    const randomSample = sqls.map((sql) => /ORDER BY rand\(\) DESC LIMIT \d+$/.test(sql));
    want.forEach((w, i) => {
      if (!randomSample[i]) same([again[i]!], [w], [`${names[i]!} (its own statement, run again)`]);
    });
    let exact = 0;
    want.forEach((w, i) => {
      const g = got[i]!;
      if (randomSample[i]) {
        assert.ok(g.ok && w.ok, names[i]);
        assert.deepEqual(g.result.columns, w.result.columns, `${names[i]!}: columns and types`);
        assert.equal(g.result.rows.length, w.result.rows.length, `${names[i]!}: rows`);
        assert.ok(w.result.rows.length > 0, `${names[i]!}: rows`);
        const totals = (r: typeof g) => new Set(r.result.rows.map((row) => row[2]));
        assert.deepEqual(totals(g), totals(w), `${names[i]!}: the total count`);
        assert.equal(totals(w).size, 1, `${names[i]!}: one total count`);
      } else {
        sameUpToTies(g, w, names[i]!);
        exact++;
      }
    });
    assert.equal(exact, sqls.length - randomSample.filter(Boolean).length, 'every other tile compared exactly');
    assert.ok(exact >= 10, `${exact} of ${sqls.length} tiles compared exactly`);
  });

  it('decodes raw SQL results exactly: 64-bit integers, Nullable, DateTime64, arrays, maps, an empty result, a long ordered one', async () => {
    const sqls = [
      // 64-bit integers: exact numbers when they fit, exact text when they do not; Decimal; Int128.
      `SELECT toUInt64(18446744073709551615) AS u64, toInt64(-9007199254740993) AS i64, toInt64(42) AS small,
              toUInt64(9007199254740993) AS above, toInt128(-170141183460469231731687303715884105728) AS i128,
              toDecimal64(12345.678, 3) AS dec, [toUInt64(18446744073709551615), 1] AS arr64`,
      // Nullable, LowCardinality, DateTime64, Date, maps, tuples, arrays, odd names.
      `SELECT toNullable(toInt32(number)) AS n, if(number % 2 = 0, NULL, 'x') AS maybe,
              toLowCardinality(concat('svc-', toString(number % 3))) AS service,
              toDateTime64('2026-01-01 00:00:00', 9, 'UTC') + number AS t9, toDate('2026-01-02') AS d,
              map('k', number, 'big', toUInt64(18446744073709551615)) AS m, tuple(number, 'a') AS tup,
              [number, number * 2] AS arr, number * 0.5 AS \`p99 (ms)\`, 'é "quoted" \\n line' AS \`naïve name\`
       FROM numbers(7) ORDER BY number DESC -- a trailing comment`,
      // No rows: names and types still come.
      `SELECT toStartOfInterval(TimestampTime, INTERVAL 1 minute) AS ts, count() AS rows FROM otel_logs WHERE 0 GROUP BY ts ORDER BY ts;`,
      // A long ordered result, beyond one block.
      `SELECT number AS i, toString(cityHash64(number)) AS h FROM numbers(70000) ORDER BY h DESC LIMIT 9000`,
      // Past the row cap: the same first 10 000 rows.
      `SELECT number AS i FROM numbers(25000) ORDER BY i DESC`,
    ];
    const want = await own(sqls);
    assert.ok(
      want.every((w) => w.ok),
      JSON.stringify(want.filter((w) => !w.ok)),
    );
    sent = [];
    const got = await batched(sqls);
    assert.equal(sent.length, 1, 'one request');
    same(
      got,
      want,
      sqls.map((s) => s.slice(0, 40)),
    );
    const first = got[0]!;
    assert.ok(first.ok);
    assert.deepEqual(first.result.rows[0]!.slice(0, 4), [
      '18446744073709551615',
      '-9007199254740993',
      42,
      '9007199254740993',
    ]);
    const empty = got[2]!;
    assert.ok(empty.ok);
    assert.deepEqual(empty.result.columns, [
      { name: 'ts', type: 'DateTime' },
      { name: 'rows', type: 'UInt64' },
    ]);
    assert.equal(empty.result.rows.length, 0);
    const capped = got[4]!;
    assert.ok(capped.ok);
    assert.equal(capped.result.rows.length, 10_000);
    assert.deepEqual(capped.result.rows[0], [24999]);
    const odd = got[1]!;
    assert.ok(odd.ok);
    assert.ok(odd.result.columns.some((c) => c.name === 'service' && c.type === 'LowCardinality(String)'));
  });

  it('a failing tile shows its own error while the others keep their rows', async () => {
    const sqls = [
      'SELECT ServiceName, count() AS n FROM otel_logs GROUP BY ServiceName ORDER BY n DESC, ServiceName',
      'SELECT count() FROM no_such_table',
      'SELECT number AS i FROM numbers(3)',
      'SELECT no_such_function(1)',
    ];
    const want = await own(sqls);
    assert.deepEqual(
      want.map((w) => w.ok),
      [true, false, true, false],
    );
    sent = [];
    const got = await batched(sqls);
    assert.equal(sent.length, 1 + sqls.length, 'the batch, then each tile on its own');
    same(
      got,
      want,
      sqls.map((s) => s.slice(0, 40)),
    );
    for (const i of [1, 3]) {
      const g = got[i]!;
      const w = want[i]!;
      assert.ok(!g.ok && !w.ok);
      assert.ok(g.error instanceof QueryError && w.error instanceof QueryError);
      assert.equal(g.error.clickHouse?.name, w.error.clickHouse?.name);
      assert.equal(g.error.status, w.error.status);
      assert.match(g.error.message, i === 1 ? /no_such_table/ : /UNKNOWN_FUNCTION/);
    }
  });

  it('one statement, no batch, for a single tile; a failure that is not SQL is every tile’s answer without more requests', async () => {
    sent = [];
    const one = await batched(['SELECT 1 AS one']);
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0], 'SELECT 1 AS one');
    assert.ok(one[0]!.ok);
    const stopped = emu.state.services.find((s) => s.id === svc)!;
    const prior = stopped.state;
    stopped.state = 'stopped';
    try {
      sent = [];
      const got = await batched(['SELECT 1', 'SELECT 2', 'SELECT 3']);
      assert.equal(sent.length, 1, 'no statement per tile after the service answered it is stopped');
      for (const g of got) {
        assert.ok(!g.ok && g.error instanceof QueryError && g.error.reason === 'serviceStopped');
      }
    } finally {
      stopped.state = prior;
    }
  });

  it('the column types of several tables in one statement are those DESCRIBE gives; a missing table has none', async () => {
    const data = emu.state.data.get(svc)!;
    const sources = [...data.sources.values()] as unknown as SourceLike[];
    const tables = sources.flatMap((s) => (tableOfSource(s) ? [tableOfSource(s)!] : []));
    assert.ok(tables.length >= 3);
    const missing = { database: tables[0]!.database, table: 'no_such_table' };
    const bare: TableName = { table: 'otel_logs' };
    const all = [...tables, missing, bare];
    sent = [];
    const byTable = columnsByTable(all, (await run(columnsOfTablesSql(all))).rows);
    assert.equal(sent.length, 1);
    for (const t of [...tables, bare]) {
      const d = await run(describeSourceSql({ from: { databaseName: t.database ?? null, tableName: t.table } })!);
      const name = d.columns.findIndex((c) => c.name === 'name');
      const type = d.columns.findIndex((c) => c.name === 'type');
      const described = columnsFromDescribe(d.rows.map((r) => ({ name: r[name], type: r[type] })));
      assert.ok(Object.keys(described).length > 3);
      assert.deepEqual(byTable.get(tableKey(t)), described, tableKey(t));
    }
    assert.equal(byTable.has(tableKey(missing)), false);
    await assert.rejects(
      run(describeSourceSql({ from: { databaseName: missing.database ?? null, tableName: missing.table } })!),
    );
  });

  it('writes each tile as a subquery of its own lines (a trailing comment or semicolon stays harmless)', () => {
    const sql = batchSql(['SELECT 1 -- one', 'SELECT 2;'], 10);
    assert.match(sql, /\(\nSELECT 1 -- one\n\)/);
    assert.match(sql, /\(\nSELECT 2\n\)/);
    assert.equal((sql.match(/UNION ALL/g) ?? []).length, 3);
  });
});

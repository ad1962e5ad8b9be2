/** The query-endpoint client against the emulator's query host (a real embedded ClickHouse): streaming, caps, cancel, errors. */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server';
import { SAMPLE_KEY_UUID } from '../../emulator/seed';
import { RateLimiter } from '../../../src/api';
import {
  isReadOnlyStatement,
  isWideInteger,
  QueryClient,
  QueryError,
  queryHostIssues,
  quoteUnsafeIntegers,
  readWideInteger,
  splitStatements,
  toCsv,
  toMarkdown,
  type RunQueryOptions,
} from '../../../src/api/query';

async function failure(p: Promise<unknown>): Promise<QueryError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof QueryError, String(err));
    return err;
  }
  throw new Error('expected a rejection');
}

describe('QueryClient against the emulator query host', () => {
  let emu: Emulator;
  let client: QueryClient;
  let svc: string;
  const run = (o: Partial<RunQueryOptions> & { sql: string }) => client.run({ serviceId: svc, ...o });

  before(async () => {
    emu = await startEmulator({ rateLimit: false });
    svc = emu.serviceIds[0] as string;
    const data = emu.state.data.get(svc);
    assert.ok(data);
    data.queryEndpoint = {
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
    await client.dispose();
    await emu.close();
  });

  it(
    'runs a GROUP BY on the sample logs and returns names, ClickHouse types and the real counts',
    { timeout: 180_000 },
    async () => {
      const r = await run({
        sql: 'SELECT ServiceName, count() AS n FROM otel_logs GROUP BY ServiceName ORDER BY n DESC',
      });
      assert.deepEqual(r.columns, [
        { name: 'ServiceName', type: 'LowCardinality(String)' },
        { name: 'n', type: 'UInt64' },
      ]);
      assert.equal(r.rows.length, 15, "the shop services and the sample workspace's three");
      const total = r.rows.reduce((s, row) => s + Number(row[1]), 0);
      assert.equal(total, 1_002_220);
      assert.ok(r.queryId, 'the query ID comes back');
      assert.equal(r.truncated, undefined);
      const sent = emu.requests.at(-1);
      assert.equal(sent?.path, `/service/${svc}/run`);
      assert.equal(sent?.query.format, 'JSONCompactEachRowWithNamesAndTypes');
      assert.deepEqual(sent?.body, {
        sql: 'SELECT ServiceName, count() AS n FROM otel_logs GROUP BY ServiceName ORDER BY n DESC',
      });
    },
  );

  it("reads quoted 64-bit integers (ClickHouse's default) and keeps the ones beyond 2^53 exact, as text", async () => {
    const r = await run({
      sql: 'SELECT toUInt64(18446744073709551615) AS big, toInt64(-9223372036854775808) AS low, toUInt64(42) AS small, toNullable(toUInt64(9007199254740993)) AS edge, toInt32(7) AS i32',
    });
    assert.deepEqual(Object.keys(emu.requests.at(-1)?.query ?? {}), ['format'], 'only the format goes in the URL');
    assert.deepEqual(
      r.columns.map((c) => c.type),
      ['UInt64', 'Int64', 'UInt64', 'Nullable(UInt64)', 'Int32'],
    );
    assert.deepEqual(r.rows, [['18446744073709551615', '-9223372036854775808', 42, '9007199254740993', 7]]);
    assert.equal(
      toCsv(r.columns, r.rows),
      'big,low,small,edge,i32\r\n18446744073709551615,-9223372036854775808,42,9007199254740993,7\r\n',
    );
  });

  it('answers DESCRIBE TABLE with the column names and types', async () => {
    const r = await run({ sql: 'DESCRIBE TABLE `otel`.`otel_logs`' });
    assert.deepEqual(r.columns.slice(0, 2), [
      { name: 'name', type: 'String' },
      { name: 'type', type: 'String' },
    ]);
    assert.deepEqual(
      r.rows.slice(0, 2).map((row) => row.slice(0, 2)),
      [
        ['Timestamp', 'DateTime64(9)'],
        ['TimestampTime', 'DateTime'],
      ],
    );
  });

  it('sends the database when one is given', async () => {
    const r = await run({ sql: 'SELECT currentDatabase()', database: 'system' });
    assert.deepEqual(r.rows, [['system']]);
    assert.deepEqual(emu.requests.at(-1)?.body, { sql: 'SELECT currentDatabase()', database: 'system' });
  });

  it('stops at the row cap and says so', async () => {
    const r = await run({ sql: 'SELECT number FROM numbers(1000000)', maxRows: 2500 });
    assert.equal(r.rows.length, 2500);
    assert.equal(r.truncated, 'rows');
    assert.equal(Number(r.rows[2499]?.[0]), 2499);
  });

  it('hands the rows over block by block as they arrive, in order and no further than the row cap', async () => {
    const counts: number[] = [];
    const columns: string[][] = [];
    const firstRows: unknown[][] = [];
    const r = await run({
      sql: 'SELECT number, toString(number) AS s FROM numbers(300000)',
      maxRows: 250_000,
      onBatch: (rows, cols) => {
        // Every row read so far; the first time, the first rows are read from it at once.
        if (counts.length === 0) firstRows.push(...rows.slice(0, 3));
        counts.push(rows.length);
        columns.push(cols.map((c) => c.name));
      },
    });
    assert.equal(r.truncated, 'rows');
    assert.ok(counts.length > 1, `the rows came in ${counts.length} batch(es)`);
    assert.ok(
      counts.every((n, i) => i === 0 || n > (counts[i - 1] as number)),
      'each hand-over has more rows',
    );
    assert.deepEqual(columns[0], ['number', 's']);
    assert.equal(counts.at(-1), 250_000);
    assert.deepEqual(firstRows, r.rows.slice(0, 3), "the first rows handed over are the result's");
  });

  it('stops at the byte cap and says so', async () => {
    const r = await run({
      sql: "SELECT number, repeat('x', 100) FROM numbers(1000000)",
      maxRows: 1_000_000,
      maxBytes: 200_000,
    });
    assert.equal(r.truncated, 'bytes');
    assert.ok(r.bytes <= 200_000);
    assert.ok(r.rows.length > 1000 && r.rows.length < 2000, `rows ${r.rows.length}`);
  });

  it('is cancelled by the signal while the result streams', async () => {
    const ac = new AbortController();
    let seen = 0;
    const p = run({
      sql: 'SELECT number, sleepEachRow(0.001) FROM numbers(100000) SETTINGS max_block_size = 100',
      maxRows: 1_000_000,
      signal: ac.signal,
      onRows: (n) => {
        seen = n;
        ac.abort();
      },
    });
    const err = await failure(p);
    assert.equal(err.kind, 'cancelled');
    assert.ok(seen >= 1000);
  });

  it('reports a syntax error like ClickHouse: code, name, message, HTTP status and query ID', async () => {
    const err = await failure(run({ sql: 'SELECT FROM WHERE' }));
    assert.equal(err.reason, 'sql');
    assert.equal(err.status, 400);
    assert.equal(err.clickHouse?.code, 62);
    assert.equal(err.clickHouse?.name, 'SYNTAX_ERROR');
    assert.match(err.message, /^Run query failed: HTTP 400 — Code: 62\. DB::Exception: Syntax error/);
    assert.match(err.message, /requestId [0-9a-f-]{36}/);
    assert.ok(!err.message.includes(emu.keySecret));
  });

  it('reports an unknown table with its ClickHouse code', async () => {
    const err = await failure(run({ sql: 'SELECT * FROM no_such_table' }));
    assert.equal(err.clickHouse?.code, 60);
    assert.equal(err.clickHouse?.name, 'UNKNOWN_TABLE');
  });

  it('reports an error that comes after rows, with the rows received so far', async () => {
    const err = await failure(
      run({
        sql: 'SELECT throwIf(number = 150000) FROM numbers(200000) SETTINGS max_block_size = 1000',
        maxRows: 1_000_000,
      }),
    );
    assert.equal(err.reason, 'sql');
    assert.equal(err.clickHouse?.code, 395);
    assert.equal(err.clickHouse?.name, 'FUNCTION_THROW_IF_VALUE_IS_NON_ZERO');
    assert.match(err.clickHouse?.text ?? '', /^Code: 395\. DB::Exception: /);
    assert.ok(!err.message.includes('__exception__'), 'the framing of a tagged error is not shown');
    assert.ok((err.rowsBeforeError ?? 0) > 0);
  });

  it('reads a READONLY refusal of a write on a read-only endpoint', async () => {
    const err = await failure(run({ sql: 'CREATE TABLE t (a UInt8) ENGINE = Memory' }));
    assert.equal(err.clickHouse?.name, 'READONLY');
  });

  it('says the key is not enabled on the query endpoint on a 401', async () => {
    const data = emu.state.data.get(svc);
    assert.ok(data?.queryEndpoint);
    const saved = data.queryEndpoint.openApiKeys;
    data.queryEndpoint.openApiKeys = [];
    try {
      const err = await failure(run({ sql: 'SELECT 1' }));
      assert.equal(err.reason, 'keyNotEnabled');
      assert.equal(err.status, 401);
      assert.match(err.message, /not enabled on the service's query endpoint/);
    } finally {
      data.queryEndpoint.openApiKeys = saved;
    }
  });

  it('reads a 401/403 with a plain-text body (its form on the live host is not documented) as a key not enabled', async () => {
    for (const status of [401, 403]) {
      emu.faults.add({ path: `/service/${svc}/run`, status, body: 'API key is not authorized', times: 1 });
      const err = await failure(run({ sql: 'SELECT 1' }));
      assert.equal(err.reason, 'keyNotEnabled');
      assert.equal(err.status, status);
      assert.match(err.message, /API key is not authorized/);
      assert.match(err.message, /Enable the key on the query endpoint/);
    }
  });

  it('never wakes an idle service unasked: 206 "Confirm wake service", then the wake header runs it', async () => {
    const idle = emu.serviceIds[1] as string;
    const data = emu.state.data.get(idle);
    assert.ok(data);
    data.queryEndpoint = {
      id: 'c2f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2b',
      roles: ['sql_console_read_only'],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    const err = await failure(client.run({ serviceId: idle, sql: 'SELECT 1' }));
    assert.equal(err.reason, 'serviceIdle');
    assert.equal(emu.state.services[1]?.state, 'idle');
    const r = await client.run({ serviceId: idle, sql: 'SELECT 1', wakeService: true });
    assert.deepEqual(r.rows, [[1]]);
    assert.equal(emu.state.services[1]?.state, 'running');
  });

  it('says a stopped service must be started', async () => {
    const stopped = emu.serviceIds[2] as string;
    const data = emu.state.data.get(stopped);
    assert.ok(data);
    data.queryEndpoint = {
      id: 'd3f0c8e2-3a4d-4e5f-8a6b-7c8d9e0f1a2b',
      roles: [],
      openApiKeys: [SAMPLE_KEY_UUID],
      allowedOrigins: '',
    };
    const err = await failure(client.run({ serviceId: stopped, sql: 'SELECT 1' }));
    assert.equal(err.reason, 'serviceStopped');
    assert.equal(err.status, 404, 'the live host answers a stopped service with a 404');
    assert.match(err.message, /ClickHouse service is currently unavailable/);
    assert.match(err.message, /Start it in the ClickHouse Cloud console/);
  });

  it('also reads the 206 "Service is stopped" answer as a stopped service', async () => {
    emu.faults.add({ path: `/service/${svc}/run`, status: 206, body: { data: 'Service is stopped' }, times: 1 });
    const err = await failure(run({ sql: 'SELECT 1' }));
    assert.equal(err.reason, 'serviceStopped');
    assert.equal(err.status, 206);
  });

  it('reads an error after rows in the older plain form (a last `Code: N.` line) and the read statistics header', async () => {
    const body =
      '["n"]\n["UInt64"]\n["1"]\n["2"]\nCode: 241. DB::Exception: Memory limit (total) exceeded: would use 9.31 GiB. (MEMORY_LIMIT_EXCEEDED) (version 25.8.1.1)\n';
    emu.faults.add({ path: `/service/${svc}/run`, status: 200, body, times: 1 });
    const err = await failure(run({ sql: 'SELECT 1' }));
    assert.equal(err.reason, 'sql');
    assert.equal(err.clickHouse?.code, 241);
    assert.equal(err.clickHouse?.name, 'MEMORY_LIMIT_EXCEEDED');
    assert.equal(err.rowsBeforeError, 2);
    assert.ok(!err.message.includes('version 25'), 'the server version is left out');

    emu.faults.add({
      path: `/service/${svc}/run`,
      status: 200,
      body: '["n"]\n["UInt64"]\n["1"]\n{"exception": "Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED)"}\n',
      times: 1,
    });
    const inFormat = await failure(run({ sql: 'SELECT 1' }));
    assert.equal(
      inFormat.clickHouse?.code,
      241,
      'an error written in the output format (http_write_exception_in_output_format)',
    );
    assert.equal(inFormat.rowsBeforeError, 1);

    const summary = JSON.stringify({
      read_rows: '1000600',
      read_bytes: '8004800',
      written_rows: '0',
      written_bytes: '0',
      total_rows_to_read: '1000600',
      result_rows: '2',
      result_bytes: '64',
      elapsed_ns: '15000000',
    });
    emu.faults.add({
      path: `/service/${svc}/run`,
      status: 200,
      body: '["n"]\n["UInt64"]\n["1"]\n\n["2"]\n',
      headers: { 'x-clickhouse-summary': summary, 'x-clickhouse-query-id': 'f00dfeed-0000-4000-8000-000000000001' },
      times: 1,
    });
    const r = await run({ sql: 'SELECT 1' });
    assert.deepEqual(r.rows, [[1], [2]], 'a blank line between rows is skipped');
    assert.deepEqual(r.stats, { readRows: 1_000_600, readBytes: 8_004_800, elapsedNs: 15_000_000 });
    assert.equal(r.queryId, 'f00dfeed-0000-4000-8000-000000000001');
  });

  it("reads ClickHouse's own error answer: plain text with the code in X-ClickHouse-Exception-Code, or a numeric code in JSON", async () => {
    emu.faults.add({
      path: `/service/${svc}/run`,
      status: 500,
      body: 'DB::Exception: Memory limit (for query) exceeded. (MEMORY_LIMIT_EXCEEDED) (version 25.8.1.1)',
      headers: { 'x-clickhouse-exception-code': '241' },
      times: 1,
    });
    let err = await failure(run({ sql: 'SELECT 1' }));
    assert.equal(err.reason, 'sql');
    assert.equal(err.status, 500);
    assert.equal(err.clickHouse?.code, 241);
    assert.equal(
      err.clickHouse?.text,
      'Code: 241. DB::Exception: Memory limit (for query) exceeded. (MEMORY_LIMIT_EXCEEDED)',
    );
    emu.faults.add({
      path: `/service/${svc}/run`,
      status: 500,
      body: { error: { code: 241, details: 'Memory limit exceeded' } },
      times: 1,
    });
    err = await failure(run({ sql: 'SELECT 1' }));
    assert.equal(err.clickHouse?.code, 241);
    assert.equal(err.clickHouse?.text, 'Code: 241. DB::Exception: Memory limit exceeded');
    emu.faults.add({
      path: `/service/${svc}/run`,
      status: 400,
      body: { error: { code: '', details: 'Syntax error' } },
      times: 1,
    });
    err = await failure(run({ sql: 'SELECT 1' }));
    assert.equal(err.reason, 'other', 'an empty code is not a ClickHouse error');
  });

  it("reports ClickHouse's error, not a network error, when the host breaks the connection right after the error text", async () => {
    // ClickHouse 24.11+ ends the HTTP exchange abnormally after writing an error in the middle of a result.
    const { createServer } = await import('node:http');
    const forms = [
      {
        headers: {},
        tail: 'Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED) (version 25.8.1.1)\n',
      },
      {
        headers: { 'x-clickhouse-exception-tag': 'PU1FNUFH98' },
        tail: '__exception__PU1FNUFH98\nCode: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED)\n73 PU1FNUFH98__exception__\n',
      },
      // The error cut the fourth row short.
      {
        headers: { 'x-clickhouse-exception-tag': 'PU1FNUFH98' },
        tail: '["4__exception__PU1FNUFH98\nCode: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED)\n73 PU1FNUFH98__exception__\n',
      },
    ];
    for (const form of forms) {
      const server = createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=UTF-8', ...form.headers });
        res.write(`["n"]\n["UInt64"]\n["1"]\n["2"]\n["3"]\n${form.tail}`);
        setTimeout(() => res.socket?.destroy(), 30);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const port = (server.address() as { port: number }).port;
      const local = new QueryClient({
        queryUrl: `http://127.0.0.1:${port}`,
        keyId: emu.keyId,
        getSecret: () => emu.keySecret,
        limiter: new RateLimiter({ requests: 100, windowMs: 1000 }),
      });
      try {
        const err = await failure(local.run({ serviceId: svc, sql: 'SELECT 1' }));
        assert.equal(err.reason, 'sql', JSON.stringify(form.headers));
        assert.equal(err.clickHouse?.code, 241);
        assert.equal(err.clickHouse?.text, 'Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED)');
        assert.equal(err.rowsBeforeError, 3);
      } finally {
        await local.dispose();
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
    }
  });

  it('reports a dropped connection in the middle of a result as a network error', async () => {
    emu.faults.add({ path: `/service/${svc}/run`, reset: 'mid-body', times: 1 });
    const err = await failure(run({ sql: 'SELECT number FROM numbers(1000000)', maxRows: 1_000_000 }));
    assert.equal(err.kind, 'network');
  });

  it('times out a slow query host and keeps the secret out of the error', async () => {
    const slow = new QueryClient({
      queryUrl: emu.queryUrl,
      keyId: emu.keyId,
      getSecret: () => emu.keySecret,
      headersTimeoutMs: 300,
      limiter: new RateLimiter({ requests: 100, windowMs: 1000 }),
    });
    emu.faults.add({ path: `/service/${svc}/run`, delayMs: 1500, times: 1 });
    try {
      const err = await failure(slow.run({ serviceId: svc, sql: 'SELECT 1' }));
      assert.equal(err.kind, 'timeout');
      assert.ok(!err.message.includes(emu.keySecret));
    } finally {
      await slow.dispose();
    }
  });

  it('recognises the gateway timeout', async () => {
    emu.faults.add({ path: `/service/${svc}/run`, status: 500, body: { error: 'Timeout error.' }, times: 1 });
    const err = await failure(run({ sql: 'SELECT 1' }));
    assert.equal(err.reason, 'gatewayTimeout');
  });

  it('waits for the rate-limit budget of its limiter', async () => {
    const limited = new QueryClient({
      queryUrl: emu.queryUrl,
      keyId: emu.keyId,
      getSecret: () => emu.keySecret,
      limiter: new RateLimiter({ requests: 2, windowMs: 600, marginMs: 0 }),
    });
    try {
      const t0 = Date.now();
      await Promise.all([1, 2, 3].map(() => limited.run({ serviceId: svc, sql: 'SELECT 1' })));
      assert.ok(Date.now() - t0 >= 550, 'the third query waited for the window');
    } finally {
      await limited.dispose();
    }
  });
});

describe('query host and SQL helpers', () => {
  it('holds the query host to https except loopback, without credentials', () => {
    assert.deepEqual(queryHostIssues('https://queries.clickhouse.cloud'), []);
    assert.deepEqual(queryHostIssues('http://127.0.0.1:8123'), []);
    assert.equal(queryHostIssues('http://queries.example.com').length, 1);
    assert.equal(queryHostIssues('https://u:p@queries.example.com').length, 1);
    assert.throws(
      () => new QueryClient({ queryUrl: 'http://example.com', keyId: 'k', getSecret: () => 's' }),
      QueryError,
    );
  });

  it('splits statements on semicolons outside strings and comments', () => {
    const src = "SELECT 'a;b' AS x;\n-- note; here\nSELECT 2 /* ; */;\n\n  ;";
    const s = splitStatements(src);
    assert.deepEqual(
      s.map((x) => x.text),
      ["SELECT 'a;b' AS x", '-- note; here\nSELECT 2 /* ; */'],
    );
    assert.equal(src.slice(s[1]?.start, s[1]?.end), s[1]?.text);
  });

  it('tells read statements from the rest', () => {
    for (const q of [
      'SELECT 1',
      ' with x as (select 1) select * from x',
      'SHOW TABLES',
      'DESCRIBE otel_logs',
      'EXPLAIN SELECT 1',
      '-- c\n(SELECT 1)',
    ]) {
      assert.ok(isReadOnlyStatement(q), q);
    }
    for (const q of [
      'INSERT INTO t VALUES (1)',
      'DROP TABLE x',
      'ALTER TABLE t DELETE WHERE 1',
      'TRUNCATE t',
      'OPTIMIZE TABLE t',
      '',
    ]) {
      assert.ok(!isReadOnlyStatement(q), q);
    }
  });

  it('never rounds a bare 64-bit integer from a host that ignores the quoting setting', () => {
    const line =
      '[18446744073709551615, -9223372036854775808, 42, 1.5e300, "x 12345678901234567890", 9007199254740991, [18446744073709551615]]';
    assert.deepEqual(JSON.parse(quoteUnsafeIntegers(line)), [
      '18446744073709551615',
      '-9223372036854775808',
      42,
      1.5e300,
      'x 12345678901234567890',
      9007199254740991,
      ['18446744073709551615'],
    ]);
    assert.equal(
      quoteUnsafeIntegers('["a\\"1234567890123456789"]'),
      '["a\\"1234567890123456789"]',
      'digits inside a string stay as they are',
    );
    assert.ok(
      isWideInteger('UInt64') &&
        isWideInteger('Nullable(Int128)') &&
        isWideInteger('LowCardinality(Nullable(UInt256))'),
    );
    assert.ok(!isWideInteger('UInt32') && !isWideInteger('Array(UInt64)') && !isWideInteger('Float64'));
    assert.equal(readWideInteger('9007199254740991'), 9007199254740991);
    assert.equal(readWideInteger('9007199254740992'), '9007199254740992');
    assert.equal(readWideInteger(null), null);
  });

  it('copies as CSV and Markdown with escaping', () => {
    const cols = [
      { name: 'a', type: 'String' },
      { name: 'n', type: 'UInt64' },
    ];
    assert.equal(toCsv(cols, [['x,"y"', '1']]), 'a,n\r\n"x,""y""",1\r\n');
    assert.equal(toMarkdown(cols, [['a|b', '2']]), '| a | n |\n| --- | ---: |\n| a\\|b | 2 |\n');
  });
});

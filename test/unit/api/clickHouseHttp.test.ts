/**
 * The SQL client's second transport, ClickHouse's own HTTP interface (a self-hosted deployment's ClickHouse), against
 * servers on loopback that answer as ClickHouse does: the request it sends, results, ClickHouse errors with
 * `X-ClickHouse-Exception-Code`, refused credentials, hostile text, redirects, and the address rules.
 *
 * No case depends on the machine being idle: nothing is timed.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { RateLimiter } from '../../../src/api';
import {
  clickHouseHttpLimiterFor,
  MAX_CLICKHOUSE_TEXT,
  QueryClient,
  QueryError,
  queryHostIssues,
  type QueryClientOptions,
} from '../../../src/api/query';
import { BASIC, KEY_ID, SECRET, assertNoSecret, rejects, startServer } from './helpers';

/** A client of the ClickHouse HTTP interface at `url`, user KEY_ID and password SECRET. */
function chClient(url: string, overrides: Partial<QueryClientOptions> = {}): QueryClient {
  return new QueryClient({
    transport: 'clickhouseHttp',
    queryUrl: url,
    keyId: KEY_ID,
    getSecret: () => SECRET,
    limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
    headersTimeoutMs: 5000,
    bodyTimeoutMs: 5000,
    ...overrides,
  });
}

async function queryFailure(p: Promise<unknown>): Promise<QueryError> {
  const err = await rejects(p);
  assert.ok(err instanceof QueryError, `expected a QueryError, got ${String(err)}`);
  return err;
}

/** Everything a user or a log could see of an error. */
function shown(err: QueryError): string {
  return [String(err), err.message, err.serverMessage ?? '', err.requestId ?? '', JSON.stringify(err)].join('\n');
}

function clickHouseError(res: ServerResponse, status: number, code: number, text: string, queryId = 'q-1'): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=UTF-8',
    'x-clickhouse-exception-code': String(code),
    'x-clickhouse-query-id': queryId,
  });
  res.end(`${text}\n`);
}

const NAMES_AND_TYPES = '["ServiceName","n"]\n["LowCardinality(String)","UInt64"]\n';

describe('QueryClient over the ClickHouse HTTP interface', () => {
  it('posts the SQL as the body to /?default_format=…&database=…, with Basic user:password, and reads the rows', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/x-ndjson; charset=UTF-8',
        'x-clickhouse-query-id': '5c3f2a1e-0d4b-4c6a-9e8f-1a2b3c4d5e6f',
        'x-clickhouse-summary': '{"read_rows":"42","read_bytes":"1000","elapsed_ns":"5000"}',
      });
      res.end(`${NAMES_AND_TYPES}["api","12"]\n["web","9007199254740993"]\n`);
    });
    const client = chClient(server.url);
    try {
      const sql = 'SELECT ServiceName, count() AS n FROM otel_logs GROUP BY ServiceName';
      const r = await client.run({ sql, database: 'default' });
      assert.deepEqual(r.columns, [
        { name: 'ServiceName', type: 'LowCardinality(String)' },
        { name: 'n', type: 'UInt64' },
      ]);
      assert.deepEqual(r.rows, [
        ['api', 12],
        ['web', '9007199254740993'],
      ]);
      assert.equal(r.queryId, '5c3f2a1e-0d4b-4c6a-9e8f-1a2b3c4d5e6f');
      assert.equal(r.stats?.readRows, 42);
      const seen = server.seen[0];
      assert.ok(seen);
      assert.equal(seen.method, 'POST');
      const url = new URL(seen.url, server.url);
      assert.equal(url.pathname, '/');
      assert.equal(url.searchParams.get('default_format'), 'JSONCompactEachRowWithNamesAndTypes');
      assert.equal(url.searchParams.get('database'), 'default');
      assert.ok(!seen.url.includes(SECRET), 'the password is never in the URL');
      assert.equal(seen.authorization, `Basic ${BASIC}`);
      assert.equal(seen.body, sql, 'the body is the SQL itself');
      assert.match(String(seen.headers['content-type']), /^text\/plain/);
      assert.equal(seen.headers['wake-service'], undefined);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('needs no service ID, and stops at the row cap saying so', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(`${NAMES_AND_TYPES}${['a', 'b', 'c', 'd', 'e'].map((s, i) => `["${s}","${i}"]`).join('\n')}\n`);
    });
    const client = chClient(server.url);
    try {
      const r = await client.run({ sql: 'SELECT 1', maxRows: 2 });
      assert.equal(r.rows.length, 2);
      assert.equal(r.truncated, 'rows');
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('names a ClickHouse error by its code, name, HTTP status and query ID (X-ClickHouse-Exception-Code, plain text)', async () => {
    const server = await startServer((_req, res) =>
      clickHouseError(
        res,
        400,
        62,
        "Code: 62. DB::Exception: Syntax error: failed at position 1 ('SELEC'): SELEC 1. Expected one of: Query. (SYNTAX_ERROR) (version 24.8.4.13 (official build))",
        'c0ffee00-1111-4222-8333-444455556666',
      ),
    );
    const client = chClient(server.url);
    try {
      const err = await queryFailure(client.run({ sql: 'SELEC 1' }));
      assert.equal(err.reason, 'sql');
      assert.equal(err.status, 400);
      assert.equal(err.clickHouse?.code, 62);
      assert.equal(err.clickHouse?.name, 'SYNTAX_ERROR');
      assert.match(err.serverMessage ?? '', /^Code: 62\. DB::Exception: Syntax error/);
      assert.ok(!(err.serverMessage ?? '').includes('(version'), 'the version trailer is dropped');
      assert.equal(err.requestId, 'c0ffee00-1111-4222-8333-444455556666');
      assert.equal(err.operation, 'Run query');
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('takes the code from the header when the text does not carry it', async () => {
    const server = await startServer((_req, res) =>
      clickHouseError(res, 404, 60, 'DB::Exception: Table default.nope does not exist. (UNKNOWN_TABLE)'),
    );
    const client = chClient(server.url);
    try {
      const err = await queryFailure(client.run({ sql: 'SELECT * FROM nope' }));
      assert.equal(err.reason, 'sql');
      assert.equal(err.clickHouse?.code, 60);
      assert.equal(err.clickHouse?.name, 'UNKNOWN_TABLE');
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('says the user or password was refused, and never shows the password even when the server echoes it', async () => {
    const server = await startServer((_req, res) =>
      clickHouseError(
        res,
        403,
        516,
        `Code: 516. DB::Exception: ${KEY_ID}: Authentication failed: password is incorrect (${SECRET}), or there is no user with such name. (AUTHENTICATION_FAILED)`,
        `${SECRET}`,
      ),
    );
    const client = chClient(server.url);
    try {
      const err = await queryFailure(client.run({ sql: 'SELECT 1' }));
      assert.equal(err.reason, 'accessDenied');
      assert.equal(err.kind, 'forbidden');
      assert.equal(err.status, 403);
      assert.equal(err.clickHouse?.code, 516);
      assert.match(err.hint ?? '', /user or password/);
      assertNoSecret(shown(err));
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  for (const password of ['ab', 'x', 'a!b']) {
    it(`never shows a short password (${JSON.stringify(password)}) the server echoes in its text and query ID`, async () => {
      const server = await startServer((_req, res) =>
        clickHouseError(
          res,
          403,
          516,
          `Code: 516. DB::Exception: ${KEY_ID}: Authentication failed: password is incorrect (${password}), or password=${password}; '${password}'. (AUTHENTICATION_FAILED)`,
          password,
        ),
      );
      const client = chClient(server.url, { getSecret: () => password });
      try {
        const err = await queryFailure(client.run({ sql: 'SELECT 1' }));
        assert.equal(err.reason, 'accessDenied');
        assert.equal(err.requestId, undefined, 'the echoed query ID is not shown');
        const text = shown(err);
        for (const echoed of [`(${password})`, `=${password};`, `'${password}'`]) {
          assert.ok(!text.includes(echoed), `${echoed} is shown: ${text}`);
        }
        assert.match(err.serverMessage ?? '', /password is incorrect \(\*\*\*\)/);
      } finally {
        await client.dispose();
        await server.close();
      }
    });
  }

  it('keeps hostile error text bounded and plain (an endless error body, markup, control characters)', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain', 'x-clickhouse-exception-code': '1001' });
      res.end(
        `Code: 1001. DB::Exception: <a href="https://evil.example">click</a>\u001b[31m ${'x'.repeat(3 * 1024 * 1024)}`,
      );
    });
    const client = chClient(server.url);
    try {
      const err = await queryFailure(client.run({ sql: 'SELECT 1' }));
      assert.equal(err.reason, 'sql');
      assert.ok((err.serverMessage ?? '').length <= MAX_CLICKHOUSE_TEXT, 'the message is bounded');
      assert.ok(!(err.serverMessage ?? '').includes('\u001b'), 'no control characters');
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('reports an error in the middle of a result with the rows that came before it', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(
        `${NAMES_AND_TYPES}["a","1"]\nCode: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED)\n`,
      );
    });
    const client = chClient(server.url);
    try {
      const err = await queryFailure(client.run({ sql: 'SELECT 1' }));
      assert.equal(err.reason, 'sql');
      assert.equal(err.clickHouse?.code, 241);
      assert.equal(err.rowsBeforeError, 1);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('never follows a redirect (the password would go to another origin)', async () => {
    const other = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(NAMES_AND_TYPES);
    });
    const server = await startServer((_req, res) => {
      res.writeHead(307, { location: `${other.url}/?default_format=JSONCompactEachRowWithNamesAndTypes` });
      res.end();
    });
    const client = chClient(server.url);
    try {
      const err = await queryFailure(client.run({ sql: 'SELECT 1' }));
      assert.equal(err.status, 307);
      assert.equal(other.seen.length, 0, 'nothing reached the other origin');
      assertNoSecret(shown(err));
    } finally {
      await client.dispose();
      await server.close();
      await other.close();
    }
  });

  it('holds the address to the transport rules: https, or http on loopback, or http with explicit permission', () => {
    assert.deepEqual(queryHostIssues('https://clickhouse.example.com:8443'), []);
    assert.deepEqual(queryHostIssues('http://localhost:8123'), []);
    assert.equal(queryHostIssues('http://clickhouse.internal:8123').length, 1);
    assert.deepEqual(queryHostIssues('http://clickhouse.internal:8123', { allowPlainHttp: true }), []);
    assert.equal(queryHostIssues('https://u:p@clickhouse.example.com:8443').length, 1);
    assert.throws(
      () => chClient('http://clickhouse.internal:8123'),
      (e: unknown) => e instanceof QueryError && e.kind === 'invalidInput',
    );
    const allowed = chClient('http://clickhouse.internal:8123', { allowPlainHttp: true });
    assert.equal(allowed.origin, 'http://clickhouse.internal:8123');
    void allowed.dispose();
  });

  it('shares one rate budget per address and user', () => {
    const a = clickHouseHttpLimiterFor('https://ch.example.com:8443', 'default');
    assert.equal(clickHouseHttpLimiterFor('https://ch.example.com:8443', 'default'), a);
    assert.notEqual(clickHouseHttpLimiterFor('https://ch.example.com:8443', 'reader'), a);
    assert.notEqual(clickHouseHttpLimiterFor('https://other.example.com:8443', 'default'), a);
  });
});

/**
 * The SQL client (query endpoint) and the self-hosted client against hostile hosts, served for real on loopback: the
 * families of the management client's hostile suite (hostile text, echoed secrets, endless and malformed streams,
 * amplification, 429, slot accounting), and one rate budget per key shared by the management and SQL clients.
 *
 * No case here depends on the machine being idle: time is only ever asserted as a lower bound (a wait the server asked
 * for), or against a request's own deadline that the work it guards takes a small fraction of.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, ObservabilityClient, RateLimiter, limiterFor } from '../../../src/api';
import { QueryClient, QueryError, queryLimiterFor, type QueryClientOptions } from '../../../src/api/query';
import { SelfHostedClient, type SelfHostedClientOptions } from '../../../src/api/oss';
import { BASIC, KEY_ID, ORG, SECRET, SVC, assertNoSecret, envelope, rejects, sendJson, startServer } from './helpers';

const QUERY_SECRET_HEADERS = ['x-clickhouse-query-id', 'x-request-id'];

/** A query client for `url` with its own generous limiter unless overridden. */
function queryClient(url: string, overrides: Partial<QueryClientOptions> = {}): QueryClient {
  return new QueryClient({
    queryUrl: url,
    keyId: KEY_ID,
    getSecret: () => SECRET,
    limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
    headersTimeoutMs: 5000,
    bodyTimeoutMs: 5000,
    ...overrides,
  });
}

function selfHosted(url: string, overrides: Partial<SelfHostedClientOptions> = {}): SelfHostedClient {
  return new SelfHostedClient({
    connection: { baseUrl: url },
    getSecret: () => SECRET,
    limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
    retry: { baseDelayMs: 20, maxDelayMs: 100, maxAttempts: 1 },
    timeouts: { connectMs: 5000, headersMs: 5000, bodyMs: 5000 },
    ...overrides,
  });
}

async function queryFailure(p: Promise<unknown>): Promise<QueryError> {
  const err = await rejects(p);
  assert.ok(err instanceof QueryError, `expected a QueryError, got ${String(err)}`);
  return err;
}

async function apiFailure(p: Promise<unknown>): Promise<ApiError> {
  const err = await rejects(p);
  assert.ok(err instanceof ApiError, `expected an ApiError, got ${String(err)}`);
  return err;
}

/** A result in JSONCompactEachRowWithNamesAndTypes: the names line, the types line, then `rows` (already lines). */
function result(res: ServerResponse, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=UTF-8', ...headers });
  res.end(body);
}

/** Milliseconds a run takes, and what it gave. */
async function timedRun<T>(run: () => Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await run();
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

function assertPlain(text: string): void {
  assert.doesNotMatch(text, /\]\(/, text);
  assert.doesNotMatch(text, /command:/i, text);
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(text, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, JSON.stringify(text));
}

/** A raw TCP front that takes `delayMs` to set up every new connection to `port`. */
async function slowFront(port: number, delayMs: number): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.pause();
    setTimeout(() => {
      const up = net.connect(port, '127.0.0.1', () => {
        socket.pipe(up);
        up.pipe(socket);
        socket.resume();
      });
      up.on('error', () => socket.destroy());
      socket.on('close', () => up.destroy());
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Arrival times (monotonic) shared by servers that stand for one key's budget at the service. */
function arrivalCounter(requests: number, windowMs: number) {
  const arrivals: number[] = [];
  let limited = 0;
  return {
    /** True when this arrival is over the budget. */
    over(): boolean {
      const now = performance.now();
      const inWindow = arrivals.filter((t) => t > now - windowMs).length;
      arrivals.push(now);
      if (inWindow >= requests) limited++;
      return inWindow >= requests;
    },
    limited: () => limited,
  };
}

const ONE_ROW = '["n"]\n["UInt64"]\n["1"]\n';

describe('SQL client against a hostile query host', () => {
  // ---- Hostile text ----

  it('an error text built to be slow to parse (a Code: line and 64 Ki spaces) is reported before its deadline, short and plain', async () => {
    const slow = `Code: 62. x${' '.repeat(64 * 1024)}y`;
    const server = await startServer((req, res) => {
      if (req.url?.includes('inresult')) result(res, `${ONE_ROW}${slow}\n`);
      else {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(slow);
      }
    });
    // One deadline per exchange: headers + body timeouts (6 s); parsing the error must take a sliver of it.
    const client = queryClient(`${server.url}/p`, { headersTimeoutMs: 3000, bodyTimeoutMs: 3000 });
    const inResult = queryClient(`${server.url}/inresult`, { headersTimeoutMs: 3000, bodyTimeoutMs: 3000 });
    try {
      for (const c of [client, inResult]) {
        const r = await timedRun(() => c.run({ serviceId: SVC, sql: 'SELECT 1' }));
        assert.ok(r.ms < 6000, `the error took ${Math.round(r.ms)} ms, past the 6 s deadline of the request`);
        assert.ok(r.error instanceof QueryError, String(r.error));
        assert.equal(r.error.reason, 'sql');
        assert.equal(r.error.clickHouse?.code, 62);
        assert.ok(r.error.clickHouse.text.length <= 1000, `${r.error.clickHouse.text.length} characters`);
        assert.ok(r.error.message.length <= 1500, `message of ${r.error.message.length} characters`);
      }
    } finally {
      await client.dispose();
      await inResult.dispose();
      await server.close();
    }
  });

  it('a tagged error cut off by a dropped connection, built to be slow to parse (64 Ki digits), is reported before its deadline', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'x-clickhouse-exception-tag': 'PU1FNUFH98' });
      res.write(`${ONE_ROW}__exception__PU1FNUFH98\nCode: 241. DB::Exception: x\n1 ${'1'.repeat(64 * 1024)}`);
      setTimeout(() => res.socket?.destroy(), 30);
    });
    const client = queryClient(server.url, { headersTimeoutMs: 3000, bodyTimeoutMs: 3000 });
    try {
      const r = await timedRun(() => client.run({ serviceId: SVC, sql: 'SELECT 1' }));
      assert.ok(r.ms < 6000, `the error took ${Math.round(r.ms)} ms, past the 6 s deadline of the request`);
      assert.ok(r.error instanceof QueryError, String(r.error));
      assert.equal(r.error.clickHouse?.code, 241);
      assert.equal(r.error.rowsBeforeError, 1);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it("ClickHouse's error text reaches the QueryError plain and bounded: no links, controls, bidi; at most 1,000 characters", async () => {
    const hostile = `Code: 60. DB::Exception: [Re-enter your API key](command:workbench.action.terminal.new)\n\x1b[31mred\u202Egnp.exe ${'z'.repeat(200_000)} (UNKNOWN_TABLE)`;
    const server = await startServer((req, res) => {
      if (req.url?.includes('json')) sendJson(res, 404, { error: { code: '60', details: hostile } });
      else if (req.url?.includes('inresult')) result(res, `${ONE_ROW}${hostile.replace(/\n/g, ' ')}\n`);
      else {
        res.writeHead(500, { 'content-type': 'text/plain', 'x-clickhouse-exception-code': '60' });
        res.end(hostile.slice(hostile.indexOf('DB::')));
      }
    });
    try {
      for (const where of ['json', 'text', 'inresult']) {
        const client = queryClient(`${server.url}/${where}`);
        try {
          const err = await queryFailure(client.run({ serviceId: SVC, sql: 'SELECT 1' }));
          assert.equal(err.clickHouse?.code, 60, where);
          const text = err.clickHouse.text;
          assert.ok(text.length <= 1000, `${where}: ${text.length} characters`);
          assert.match(text, /^Code: 60\. DB::Exception: \[Re-enter your API key\] \(command :/, where);
          for (const t of [text, err.message, err.serverMessage ?? '']) assertPlain(t);
        } finally {
          await client.dispose();
        }
      }
    } finally {
      await server.close();
    }
  });

  // ---- Echoed secrets ----

  it('a query ID that echoes the key secret (or is not an ID) never reaches the error, the result or its queryId', async () => {
    const echoes = [SECRET, BASIC, `q-${SECRET}`, 'q'.repeat(4096), '[id](command:x)'];
    let echo = '';
    let header = '';
    const server = await startServer((req, res) => {
      const mode = req.url?.split('/')[1];
      if (mode === 'fail') sendJson(res, 400, { error: { code: '62', details: 'Syntax error' } }, { [header]: echo });
      else if (mode === 'midway') {
        result(res, `${ONE_ROW}Code: 241. DB::Exception: Memory limit exceeded.\n`, { [header]: echo });
      } else result(res, ONE_ROW, { [header]: echo });
    });
    try {
      for (header of QUERY_SECRET_HEADERS) {
        for (echo of echoes) {
          const label = `${header}: ${echo.slice(0, 40)}`;
          for (const mode of ['fail', 'midway']) {
            const client = queryClient(`${server.url}/${mode}`);
            try {
              const err = await queryFailure(client.run({ serviceId: SVC, sql: 'SELECT 1' }));
              assert.equal(err.requestId, undefined, `${mode} ${label}`);
              assertNoSecret(err.message);
              assert.ok(!err.message.includes('q'.repeat(200)), label);
            } finally {
              await client.dispose();
            }
          }
          const client = queryClient(`${server.url}/ok`);
          try {
            const ok = await client.run({ serviceId: SVC, sql: 'SELECT 1' });
            assert.equal(ok.queryId, undefined, label);
            assert.deepEqual(ok.rows, [[1]]);
          } finally {
            await client.dispose();
          }
        }
      }
      // A query ID in the shape of one still comes back.
      header = 'x-clickhouse-query-id';
      echo = 'f00dfeed-0000-4000-8000-000000000001';
      const client = queryClient(`${server.url}/ok`);
      try {
        assert.equal((await client.run({ serviceId: SVC, sql: 'SELECT 1' })).queryId, echo);
      } finally {
        await client.dispose();
      }
    } finally {
      await server.close();
    }
  });

  // ---- Endless and malformed streams ----

  it('a result that drips forever ends at the deadline of the query, as a timeout', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('["n"]\n["UInt64"]\n');
      const t = setInterval(() => res.write('["1"]\n'), 50);
      timers.add(t);
      res.on('close', () => clearInterval(t));
    });
    const client = queryClient(server.url, { headersTimeoutMs: 500, bodyTimeoutMs: 500 });
    try {
      const err = await queryFailure(client.run({ serviceId: SVC, sql: 'SELECT 1', maxRows: 1_000_000 }));
      assert.equal(err.kind, 'timeout');
    } finally {
      for (const t of timers) clearInterval(t);
      await client.dispose();
      await server.close();
    }
  });

  it('an error body of 64 MiB is read only in part and reported with its ClickHouse text', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain', 'x-clickhouse-exception-code': '241' });
      res.write('DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED) ');
      const mib = Buffer.alloc(1024 * 1024, ' ');
      let sent = 0;
      const more = (): void => {
        while (sent < 64) {
          sent++;
          if (!res.write(mib)) {
            res.once('drain', more);
            return;
          }
        }
        res.end();
      };
      more();
    });
    const client = queryClient(server.url);
    try {
      const err = await queryFailure(client.run({ serviceId: SVC, sql: 'SELECT 1' }));
      assert.equal(err.clickHouse?.code, 241);
      assert.equal(err.clickHouse.text, 'Code: 241. DB::Exception: Memory limit exceeded. (MEMORY_LIMIT_EXCEEDED)');
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('one line with two rows ([1,"a"],[2,"b"]) is not read as two rows', async () => {
    const server = await startServer((_req, res) =>
      result(res, '["n","s"]\n["UInt8","String"]\n[0,"z"]\n[1,"a"],[2,"b"]\n[3,"c"]\n'),
    );
    const client = queryClient(server.url);
    try {
      const err = await queryFailure(client.run({ serviceId: SVC, sql: 'SELECT 1' }));
      assert.equal(err.kind, 'invalidResponse');
      assert.match(err.message, /line 4 of the result is not JSON/);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('exactly maxRows rows and then the end is the whole result; one row more is "stopped at the rows limit"', async () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `["${i}"]\n`).join('');
    const server = await startServer((req, res) => {
      const n = Number(req.url?.split('/')[1]);
      // Half the rows, a pause, then the rest: the last row may arrive on its own.
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(`["n"]\n["UInt64"]\n${rows(Math.floor(n / 2))}`);
      setTimeout(() => res.end(rows(n).slice(rows(Math.floor(n / 2)).length)), 20);
    });
    try {
      for (const [n, maxRows, truncated] of [
        [10, 10, undefined],
        [1000, 1000, undefined],
        [11, 10, 'rows'],
        [2, 1, 'rows'],
      ] as const) {
        const client = queryClient(`${server.url}/${n}`);
        try {
          const r = await client.run({ serviceId: SVC, sql: `SELECT number FROM numbers(${n})`, maxRows });
          assert.equal(r.rows.length, Math.min(n, maxRows), `${n} rows, maxRows ${maxRows}`);
          assert.equal(r.truncated, truncated, `${n} rows, maxRows ${maxRows}`);
        } finally {
          await client.dispose();
        }
      }
    } finally {
      await server.close();
    }
  });

  it('a 64 MiB line that never ends is read in linear time: the byte cap ends it well before the deadline', async () => {
    const mib = Buffer.alloc(1024 * 1024, 'a');
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write('["s"]\n["String"]\n["');
      let sent = 0;
      const more = (): void => {
        while (sent < 80) {
          sent++;
          if (!res.write(mib)) {
            res.once('drain', more);
            return;
          }
        }
        res.end('"]\n');
      };
      more();
    });
    // 20 s for the whole exchange; reading 64 MiB over loopback takes a small part of that when each byte is
    // copied once (copying the unfinished line again for every chunk took 88 s).
    const client = queryClient(server.url, { headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000 });
    try {
      const r = await timedRun(() => client.run({ serviceId: SVC, sql: 'SELECT s' }));
      assert.equal(r.error, undefined, String(r.error));
      assert.equal(r.value?.truncated, 'bytes');
      assert.equal(r.value?.bytes, 64 * 1024 * 1024);
      assert.deepEqual(r.value?.rows, []);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  // ---- Amplification ----

  it('a row of 4 M empty objects (12 MiB) fails with an error that names the bound per row, before it is parsed', async () => {
    const row = `[[${'{},'.repeat(4 * 1024 * 1024 - 1)}{}]]\n`;
    const server = await startServer((_req, res) => result(res, `["j"]\n["Array(JSON)"]\n${row}`));
    const client = queryClient(server.url);
    try {
      const err = await queryFailure(client.run({ serviceId: SVC, sql: 'SELECT j' }));
      assert.equal(err.kind, 'invalidResponse');
      assert.match(
        err.message,
        /line 3 of the result holds more than 1,000,000 objects and arrays \(the bound per row\)/,
      );
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('rows that together hold more than 4 M objects fail with an error that names the bound per result', async () => {
    const row = `[[${'{},'.repeat(999)}{}]]\n`;
    const server = await startServer((_req, res) => result(res, `["j"]\n["Array(JSON)"]\n${row.repeat(4100)}`));
    const client = queryClient(server.url);
    try {
      const err = await queryFailure(client.run({ serviceId: SVC, sql: 'SELECT j', maxRows: 100_000 }));
      assert.equal(err.kind, 'invalidResponse');
      assert.match(err.message, /the result holds more than 4,000,000 objects and arrays \(the bound per result\)/);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  // ---- 429 ----

  it('a 429 penalises the key: the wait it asks for is in the error, and the next query waits for it', async () => {
    const arrivals: number[] = [];
    const server = await startServer((req, res, _body, i) => {
      arrivals.push(performance.now());
      const reset = req.url?.includes('reset');
      if (i % 2 === 0) {
        sendJson(
          res,
          429,
          { error: 'Too many requests' },
          reset ? { 'x-ratelimit-reset': String(Date.now() + 1500) } : { 'retry-after': '1' },
        );
      } else result(res, ONE_ROW);
    });
    try {
      for (const path of ['retry', 'reset']) {
        const client = queryClient(`${server.url}/${path}`, {
          limiter: new RateLimiter({ requests: 100, windowMs: 1000 }),
        });
        const from = arrivals.length;
        try {
          // Times are lower bounds from before the first query: the key is held back from its 429 on, and the 429
          // came after this.
          const sent = performance.now();
          const err = await queryFailure(client.run({ serviceId: SVC, sql: 'SELECT 1' }));
          assert.equal(err.kind, 'rateLimited', path);
          assert.equal(err.status, 429);
          if (path === 'retry') {
            assert.equal(err.retryAfterMs, 1000);
            assert.match(err.message, /Try again in 1 s\./);
          } else {
            assert.ok(
              err.retryAfterMs !== undefined && err.retryAfterMs > 0 && err.retryAfterMs <= 1500,
              String(err.retryAfterMs),
            );
            assert.match(err.message, /Try again in [12] s\./);
          }
          const ok = await client.run({ serviceId: SVC, sql: 'SELECT 1' });
          assert.deepEqual(ok.rows, [[1]]);
          const waited = (arrivals[from + 1] as number) - sent;
          assert.ok(
            waited >= (err.retryAfterMs ?? 0) - 1,
            `${path}: the next query came ${Math.round(waited)} ms after the first was sent`,
          );
        } finally {
          await client.dispose();
        }
      }
    } finally {
      await server.close();
    }
  });

  // ---- Slot accounting ----

  it('with 400 ms of connection setup, the window still holds for queries: no 429', async () => {
    const budget = arrivalCounter(2, 1000);
    const server = await startServer((_req, res) => {
      if (budget.over()) sendJson(res, 429, { error: 'Too many requests' });
      else result(res, ONE_ROW);
    });
    const front = await slowFront(server.port, 400);
    const client = queryClient(`http://127.0.0.1:${front.port}`, {
      limiter: new RateLimiter({ requests: 2, windowMs: 1000 }),
      headersTimeoutMs: 10_000,
      bodyTimeoutMs: 10_000,
    });
    try {
      const results = await Promise.all(
        Array.from({ length: 6 }, () => timedRun(() => client.run({ serviceId: SVC, sql: 'SELECT 1' }))),
      );
      for (const r of results) assert.equal(r.error, undefined, String(r.error));
      assert.equal(budget.limited(), 0, `${budget.limited()} of 6 queries met a 429`);
    } finally {
      await client.dispose();
      await front.close();
      await server.close();
    }
  });
});

describe('one rate budget per API key', () => {
  it('the management and SQL clients of one key share one limiter: together they stay in the key budget', async () => {
    const keyId = `sharedKey${Math.random().toString(36).slice(2)}`;
    limiterFor(keyId, { requests: 3, windowMs: 1000 });
    const budget = arrivalCounter(3, 1000);
    const api = await startServer((_req, res) => {
      if (budget.over()) sendJson(res, 429, { status: 429, error: 'Rate limit exceeded', requestId: 'rid-429' });
      else sendJson(res, 200, envelope([]));
    });
    const queries = await startServer((_req, res) => {
      if (budget.over()) sendJson(res, 429, { error: 'Too many requests' });
      else result(res, ONE_ROW);
    });
    const management = new ObservabilityClient({
      connection: { baseUrl: api.url, organizationId: ORG, serviceIds: [SVC], keyId, pathSegment: 'observability' },
      getSecret: async () => SECRET,
      retry: { maxAttempts: 1 },
    });
    const sql = new QueryClient({ queryUrl: queries.url, keyId, getSecret: () => SECRET });
    try {
      assert.equal(queryLimiterFor(keyId), limiterFor(keyId), 'one limiter for the key');
      const all = await Promise.all([
        ...[1, 2, 3].map(() => timedRun(() => management.listSources(SVC))),
        ...[1, 2, 3].map(() => timedRun(() => sql.run({ serviceId: SVC, sql: 'SELECT 1' }))),
      ]);
      for (const r of all) assert.equal(r.error, undefined, String(r.error));
      assert.equal(budget.limited(), 0, `${budget.limited()} of 6 requests met a 429`);
    } finally {
      await management.close();
      await sql.dispose();
      await api.close();
      await queries.close();
    }
  });

  it("a 429 from the query host holds back the key's management requests too", async () => {
    const keyId = `sharedKey${Math.random().toString(36).slice(2)}`;
    limiterFor(keyId, { requests: 100, windowMs: 1000 });
    const arrivals: number[] = [];
    const api = await startServer((_req, res) => {
      arrivals.push(performance.now());
      sendJson(res, 200, envelope([]));
    });
    const queries = await startServer((_req, res) => sendJson(res, 429, { error: 'Too many' }, { 'retry-after': '1' }));
    const management = new ObservabilityClient({
      connection: { baseUrl: api.url, organizationId: ORG, serviceIds: [SVC], keyId, pathSegment: 'observability' },
      getSecret: async () => SECRET,
      retry: { maxAttempts: 1 },
    });
    const sql = new QueryClient({ queryUrl: queries.url, keyId, getSecret: () => SECRET });
    try {
      const sent = performance.now();
      const err = await queryFailure(sql.run({ serviceId: SVC, sql: 'SELECT 1' }));
      assert.equal(err.kind, 'rateLimited');
      await management.listSources(SVC);
      const waited = (arrivals[0] as number) - sent;
      assert.ok(waited >= 999, `the management request came ${Math.round(waited)} ms after the query was sent`);
    } finally {
      await management.close();
      await sql.dispose();
      await api.close();
      await queries.close();
    }
  });
});

describe('self-hosted client against a hostile host', () => {
  it('one key used by two connections to a deployment (two addresses) gets one budget of 100 per minute', async () => {
    const key = `hdx-${Math.random().toString(36).slice(2)}-key`;
    const other = `hdx-${Math.random().toString(36).slice(2)}-other`;
    const byKey = new Map<string, number>();
    const server = await startServer((req, res) => {
      const k = String(req.headers.authorization);
      byKey.set(k, (byKey.get(k) ?? 0) + 1);
      sendJson(res, 200, { data: [] });
    });
    const sameKey: Partial<SelfHostedClientOptions> = { getSecret: () => key, limiter: undefined };
    const a = selfHosted(`http://127.0.0.1:${server.port}`, sameKey);
    const b = selfHosted(`http://localhost:${server.port}`, sameKey);
    const stop = new AbortController();
    try {
      const pending = Array.from({ length: 200 }, (_, i) =>
        (i % 2 === 0 ? a : b).listSources({ signal: stop.signal }).then(
          () => 'ok',
          (e: unknown) => (ApiError.is(e, 'cancelled') ? 'waiting' : String(e)),
        ),
      );
      // The first 100 are answered; the other 100 wait for the minute.
      while ((byKey.get(`Bearer ${key}`) ?? 0) < 100) await new Promise((r) => setTimeout(r, 20));
      const third = selfHosted(`http://127.0.0.1:${server.port}`, { getSecret: () => other, limiter: undefined });
      await third.listSources();
      await third.close();
      await new Promise((r) => setTimeout(r, 300));
      stop.abort();
      const outcomes = await Promise.all(pending);
      assert.equal(byKey.get(`Bearer ${key}`), 100, 'the key sent 100 requests, not 200');
      assert.equal(outcomes.filter((o) => o === 'ok').length, 100);
      assert.equal(
        outcomes.filter((o) => o === 'waiting').length,
        100,
        outcomes.find((o) => o !== 'ok' && o !== 'waiting'),
      );
      assert.equal(byKey.get(`Bearer ${other}`), 1, 'another key on the same address has its own budget');
    } finally {
      stop.abort();
      await a.close();
      await b.close();
      await server.close();
    }
  });

  it('server text reaches the error plain and bounded; a request ID that echoes the key is dropped', async () => {
    const server = await startServer((_req, res) =>
      sendJson(
        res,
        400,
        { message: `[Re-enter your key](command:x)\n\x1b[31m\u202E${'m'.repeat(100_000)}` },
        { 'x-request-id': SECRET },
      ),
    );
    const client = selfHosted(server.url);
    try {
      const err = await apiFailure(client.listSources());
      assertPlain(err.message);
      assert.ok(err.message.length <= 1500, `message of ${err.message.length} characters`);
      assert.equal(err.requestId, undefined);
      assertNoSecret(err.message);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a list whose pages never end (new IDs on every page) stops at the item bound, naming it', async () => {
    let next = 0;
    const server = await startServer((_req, res) => {
      const data = Array.from({ length: 100 }, () => ({ id: `a${next++}`, name: 'x' }));
      sendJson(res, 200, { data });
    });
    const client = selfHosted(server.url, { listBounds: { maxItems: 1000 } });
    try {
      const err = await apiFailure(client.listAlerts({ pageSize: 100 }));
      assert.equal(err.kind, 'invalidResponse');
      assert.match(err.message, /bound of 1000 items per list after 11 pages/);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('pages that each stay under the bound per response stop at the bound per list, naming it', async () => {
    let next = 0;
    const pad = `[${'{},'.repeat(1499)}{}]`;
    const server = await startServer((_req, res) => {
      const items = Array.from({ length: 1000 }, () => `{"id":"a${next++}","pad":${pad}}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"data":[${items.join(',')}]}`);
    });
    // Reads are retried on a reset connection (a keep-alive socket the server closes while a page is checked).
    const client = selfHosted(server.url, { retry: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 100 } });
    try {
      const err = await apiFailure(client.listAlerts());
      assert.equal(err.kind, 'invalidResponse', err.message);
      assert.match(err.message, /bound of 10,000,000 objects and arrays per list after 7 pages/, err.message);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a response that drips forever ends at the deadline, as a timeout', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      const t = setInterval(() => res.write('{"id":"x"},'), 50);
      timers.add(t);
      res.on('close', () => clearInterval(t));
    });
    const client = selfHosted(server.url, {
      timeouts: { connectMs: 500, headersMs: 500, bodyMs: 500, requestMs: 1000 },
    });
    try {
      const err = await apiFailure(client.listSources());
      assert.equal(err.kind, 'timeout');
    } finally {
      for (const t of timers) clearInterval(t);
      await client.close();
      await server.close();
    }
  });

  it('a list page padded with 150,000 empty objects fails naming the item bound, without checking each item', async () => {
    const page = `{"data":[${'{},'.repeat(149_999)}{}]}`;
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(page);
    });
    const client = selfHosted(server.url);
    try {
      const err = await apiFailure(client.listSources());
      assert.equal(err.kind, 'invalidResponse');
      assert.match(err.message, /bound of 100000 items per list/);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a response of 4.5 M empty objects fails naming the bound per response, before it is parsed', async () => {
    const body = `{"id":"d1","name":"n","tiles":[],"tags":[],"pad":[${'{},'.repeat(4_500_000)}{}]}`;
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const client = selfHosted(server.url);
    try {
      const err = await apiFailure(client.getDashboard('d1'));
      assert.equal(err.kind, 'invalidResponse');
      assert.match(err.message, /more than 2,000,000 objects and arrays \(the bound per response\)/);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a 429 with Retry-After holds the next request back for the wait', async () => {
    const arrivals: number[] = [];
    const server = await startServer((_req, res, _body, i) => {
      arrivals.push(performance.now());
      if (i === 0) sendJson(res, 429, { message: 'Too many requests' }, { 'retry-after': '1' });
      else sendJson(res, 200, { data: [] });
    });
    const client = selfHosted(server.url);
    try {
      const sent = performance.now();
      const err = await apiFailure(client.listSources());
      assert.equal(err.kind, 'rateLimited');
      assert.equal(err.retryAfterMs, 1000);
      await client.listSources();
      assert.ok((arrivals[1] as number) - sent >= 999, 'the next request waited for the second');
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('with 400 ms of connection setup, the window still holds: no 429', async () => {
    const budget = arrivalCounter(2, 1000);
    const server = await startServer((_req, res) => {
      if (budget.over()) sendJson(res, 429, { message: 'Too many requests' });
      else sendJson(res, 200, { data: [] });
    });
    const front = await slowFront(server.port, 400);
    const client = selfHosted(`http://127.0.0.1:${front.port}`, {
      limiter: new RateLimiter({ requests: 2, windowMs: 1000 }),
      timeouts: { connectMs: 10_000, headersMs: 10_000, bodyMs: 10_000 },
    });
    try {
      const results = await Promise.all(Array.from({ length: 6 }, () => timedRun(() => client.listSources())));
      for (const r of results) assert.equal(r.error, undefined, String(r.error));
      assert.equal(budget.limited(), 0, `${budget.limited()} of 6 requests met a 429`);
    } finally {
      await client.close();
      await front.close();
      await server.close();
    }
  });
});

describe('management client amplification', () => {
  it('a list page of 4.5 M empty objects fails naming the bound, before it is parsed', async () => {
    const body = `{"status":200,"requestId":"r1","result":[${'{},'.repeat(4_500_000)}{}]}`;
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const client = new ObservabilityClient({
      connection: {
        baseUrl: server.url,
        organizationId: ORG,
        serviceIds: [SVC],
        keyId: KEY_ID,
        pathSegment: 'observability',
      },
      getSecret: async () => SECRET,
      limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
      retry: { maxAttempts: 1 },
    });
    try {
      const err = await apiFailure(client.listSources(SVC));
      assert.equal(err.kind, 'invalidResponse');
      assert.match(err.message, /more than 2,000,000 objects and arrays \(the bound per response\)/);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

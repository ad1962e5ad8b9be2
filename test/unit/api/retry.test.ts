/** Retries, rate-limit waits, POST safety, cancellation and redirects, against real loopback servers. */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { ApiError, RateLimiter } from '../../../src/api';
import { envelope, freePort, makeClient, rejects, sendJson, startServer, SVC, type TestServer } from './helpers';
import { ALERT, alertBody } from './fixtures';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function resetMidBody(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
  res.write('{"status":200,"requestId":"r","result":[');
  setTimeout(() => res.socket?.destroy(), 20);
}

function sequence(
  ...steps: ((res: ServerResponse) => void)[]
): (req: unknown, res: ServerResponse, body: string, i: number) => void {
  return (_req, res, _body, i) => steps[Math.min(i, steps.length - 1)](res);
}

const ok = (result: unknown) => (res: ServerResponse) => sendJson(res, 200, envelope(result));
const status =
  (code: number, extra: Record<string, string> = {}) =>
  (res: ServerResponse) =>
    sendJson(res, code, { status: code, error: `status ${code}`, requestId: `rid-${code}` }, extra);

async function withServer(
  handler: Parameters<typeof startServer>[0],
  fn: (s: TestServer) => Promise<void>,
): Promise<void> {
  const server = await startServer(handler);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

test('GET is retried on 503 and succeeds; each attempt is logged', async () => {
  await withServer(sequence(status(503), ok(ALERT)), async (server) => {
    const { client, log } = makeClient(server.url);
    const res = await client.getAlert(SVC, ALERT.id);
    assert.equal(res.data.id, ALERT.id);
    assert.equal(server.count('GET'), 2);
    assert.deepEqual(
      log.map((e) => [e.attempt, e.status, e.errorKind]),
      [
        [1, 503, 'serverError'],
        [2, 200, undefined],
      ],
    );
  });
  await withServer(sequence(status(503), status(502), status(504), ok([ALERT])), async (server) => {
    const { client } = makeClient(server.url);
    const res = await client.listAlerts(SVC);
    assert.equal(res.data.length, 1);
    // Three failed attempts, the first page, then a second page that repeats it (nothing new ends the list).
    assert.equal(server.count('GET'), 5);
  });
});

test('GET gives up after maxAttempts and says so', async () => {
  await withServer(sequence(status(503)), async (server) => {
    const { client } = makeClient(server.url, { retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 20 } });
    const err = (await rejects(client.listSources(SVC))) as ApiError;
    assert.equal(err.kind, 'serverError');
    assert.equal(server.count(), 3);
    assert.match(err.message, /HTTP 503 — status 503 \(after 3 attempts\) \(requestId rid-503\)/);
  });
});

test('500 is not retried', async () => {
  await withServer(sequence(status(500)), async (server) => {
    const { client } = makeClient(server.url);
    await rejects(client.listSources(SVC));
    assert.equal(server.count(), 1);
  });
});

/** A limiter that remembers every wait a 429 put on it: the wait the client chose is also the one it sleeps. */
class RecordingLimiter extends RateLimiter {
  readonly penalties: number[] = [];
  override penalizeFor(ms: number): void {
    this.penalties.push(ms);
    super.penalizeFor(ms);
  }
}

// No ceiling on elapsed time (a busy machine sleeps late): the wait the client chose is read from the limiter it
// penalised, and the retry is held to not come before that wait.
test('429 waits for X-RateLimit-Reset (seconds) and penalizes the shared limiter', async () => {
  let retriedAt = 0;
  await withServer(
    sequence(status(429, { 'x-ratelimit-reset': '1' }), (res) => {
      retriedAt = performance.now();
      ok([])(res);
    }),
    async (server) => {
      const limiter = new RecordingLimiter({ requests: 100, windowMs: 1000 });
      const { client, log } = makeClient(server.url, { limiter });
      const started = performance.now();
      await client.listSources(SVC);
      // The limiter was blocked for exactly the second the host asked, so another client of the key waits too.
      assert.deepEqual(limiter.penalties, [1000]);
      assert.ok(retriedAt - started >= 995, `retried after ${Math.round(retriedAt - started)} ms`);
      assert.equal(server.count(), 2);
      assert.equal(log[0].errorKind, 'rateLimited');
    },
  );
});

test('429 honours Retry-After in seconds and as an HTTP date', async () => {
  let retriedAt = 0;
  const retry = (res: ServerResponse) => {
    retriedAt = Date.now();
    ok([])(res);
  };
  await withServer(sequence(status(429, { 'retry-after': '1' }), retry), async (server) => {
    const limiter = new RecordingLimiter({ requests: 100, windowMs: 1000 });
    const { client } = makeClient(server.url, { limiter });
    const started = Date.now();
    await client.listSources(SVC);
    assert.deepEqual(limiter.penalties, [1000]);
    assert.ok(retriedAt - started >= 995, `retried after ${retriedAt - started} ms`);
  });
  let date = '';
  await withServer(
    sequence((res) => status(429, { 'retry-after': date })(res), retry),
    async (server) => {
      const limiter = new RecordingLimiter({ requests: 100, windowMs: 1000 });
      const { client } = makeClient(server.url, { limiter });
      const namedAt = Date.now();
      date = new Date(Math.ceil((namedAt + 2000) / 1000) * 1000).toUTCString();
      await client.listSources(SVC);
      // The wait runs to the named date: never past it (counted from when the date was named), never short of it.
      assert.equal(limiter.penalties.length, 1);
      const [wait] = limiter.penalties;
      assert.ok(wait > 0 && wait <= Date.parse(date) - namedAt, `waited ${wait} ms for ${date}`);
      assert.ok(retriedAt >= Date.parse(date) - 5, `retried ${Date.parse(date) - retriedAt} ms before ${date}`);
    },
  );
});

test('429 without headers backs off; a 429 on the last attempt reports the wait', async () => {
  await withServer(sequence(status(429, { 'retry-after': '7' })), async (server) => {
    const { client } = makeClient(server.url, { retry: { maxAttempts: 1 } });
    const err = (await rejects(client.listSources(SVC))) as ApiError;
    assert.equal(err.kind, 'rateLimited');
    assert.equal(err.retryAfterMs, 7000);
    assert.match(err.message, /rate limited.*Try again in 7 s/);
  });
});

test('POST is not retried after a headers timeout', async () => {
  await withServer(
    (_req, res) => setTimeout(() => !res.destroyed && sendJson(res, 200, envelope(ALERT)), 2500),
    async (server) => {
      const { client } = makeClient(server.url, { timeouts: { headersMs: 300 } });
      const err = (await rejects(client.createAlert(SVC, alertBody()))) as ApiError;
      assert.equal(err.kind, 'timeout');
      await sleep(300);
      assert.equal(server.count('POST'), 1);
    },
  );
});

test('POST is not retried after a mid-body reset, a reset before headers, or a 5xx', async () => {
  for (const handler of [
    resetMidBody,
    (res: ServerResponse) => res.socket?.destroy(),
    status(503),
    status(502),
    status(500),
  ]) {
    await withServer(
      (_req, res) => handler(res),
      async (server) => {
        const { client } = makeClient(server.url);
        const err = (await rejects(client.createAlert(SVC, alertBody()))) as ApiError;
        assert.ok(['network', 'serverError'].includes(err.kind), err.kind);
        await sleep(100);
        assert.equal(server.count('POST'), 1, err.message);
      },
    );
  }
  // Same for the other creating POSTs.
  await withServer(sequence(status(503)), async (server) => {
    const { client } = makeClient(server.url);
    await rejects(client.createDashboard(SVC, { name: 'D', tiles: [] }));
    await rejects(
      client.upsertQueryEndpoint(SVC, {
        roles: ['sql_console_read_only'],
        openApiKeys: ['3f5a9c2e-7b14-4d8a-9e62-1c0b8f4d7a35'],
        allowedOrigins: '',
      }),
    );
    assert.equal(server.count('POST'), 2);
  });
});

test('GET is retried after a mid-body reset and a reset before headers', async () => {
  await withServer(
    sequence(resetMidBody, (res) => res.socket?.destroy(), ok([])),
    async (server) => {
      const { client, log } = makeClient(server.url);
      await client.listSources(SVC);
      assert.equal(server.count('GET'), 3);
      assert.deepEqual(
        log.map((e) => e.errorKind),
        ['network', 'network', undefined],
      );
    },
  );
});

test('PUT, DELETE and validate-dashboard POST are retried on 503', async () => {
  await withServer(
    sequence(
      status(503),
      ok(ALERT),
      status(503),
      (res) => sendJson(res, 200, { status: 200, requestId: 'd' }),
      status(503),
      ok({ valid: true, errors: [], normalized: null }),
    ),
    async (server) => {
      const { client } = makeClient(server.url);
      await client.updateAlert(SVC, ALERT.id, alertBody());
      await client.deleteAlert(SVC, ALERT.id);
      const v = await client.validateDashboard(SVC, { name: 'x', tiles: [] });
      assert.equal(v.data.valid, true);
      assert.equal(server.count(), 6);
    },
  );
});

test('POST is retried after 429', async () => {
  await withServer(sequence(status(429, { 'retry-after': '0' }), ok(ALERT)), async (server) => {
    const { client } = makeClient(server.url);
    const res = await client.createAlert(SVC, alertBody());
    assert.equal(res.data.id, ALERT.id);
    assert.equal(server.count('POST'), 2);
  });
});

test('POST is retried after connection refused', async () => {
  const port = await freePort();
  const { client, log } = makeClient(`http://127.0.0.1:${port}`, { retry: { baseDelayMs: 400, maxDelayMs: 400 } });
  const pending = client.createAlert(SVC, alertBody());
  await sleep(50);
  const server = await startServer((_req, res) => sendJson(res, 200, envelope(ALERT)), port);
  try {
    const res = await pending;
    assert.equal(res.data.id, ALERT.id);
    assert.equal(server.count('POST'), 1);
    assert.equal(log[0].errorKind, 'network');
  } finally {
    await server.close();
  }
});

// No ceiling set by the machine's speed: the host never answers (only the 2 s timeout would end it, as a timeout),
// and the backoff is at least 30 s, so a Cancel that did not end the wait shows as another error or as that wait.
test('cancellation: in flight, during backoff and while waiting for the limiter', async () => {
  await withServer(
    () => undefined,
    async (server) => {
      const { client } = makeClient(server.url);
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 100);
      const err = (await rejects(client.listSources(SVC, { signal: ac.signal }))) as ApiError;
      assert.equal(err.kind, 'cancelled');
    },
  );
  await withServer(sequence(status(503)), async (server) => {
    const { client } = makeClient(server.url, { retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } });
    const ac = new AbortController();
    const started = performance.now();
    setTimeout(() => ac.abort(), 200);
    const err = (await rejects(client.listSources(SVC, { signal: ac.signal }))) as ApiError;
    assert.equal(err.kind, 'cancelled');
    assert.equal(server.count(), 1);
    // The backoff is at least 30 s (half of its 60 s, the rest jitter): ending sooner means Cancel ended it.
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 30_000, `cancelled after ${Math.round(elapsed)} ms, so the backoff ran out first`);
  });
  await withServer(sequence(ok([])), async (server) => {
    const limiter = new RateLimiter({ requests: 1, windowMs: 10_000 });
    const { client } = makeClient(server.url, { limiter });
    await client.listSources(SVC);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const err = (await rejects(client.listSources(SVC, { signal: ac.signal }))) as ApiError;
    assert.equal(err.kind, 'cancelled');
    assert.equal(server.count(), 1);
  });
});

test('redirects are not followed and credentials never reach the target', async () => {
  await withServer(
    (_req, res) => sendJson(res, 200, envelope([])),
    async (target) => {
      for (const code of [301, 302, 307, 308]) {
        await withServer(
          (_req, res) => {
            res.writeHead(code, { location: `${target.url}/v1/stolen?x=1` });
            res.end();
          },
          async (origin) => {
            const { client } = makeClient(origin.url);
            const err = (await rejects(client.listSources(SVC))) as ApiError;
            assert.equal(err.kind, 'invalidResponse');
            assert.equal(err.status, code);
            assert.match(
              err.message,
              new RegExp(
                `HTTP ${code}.*redirected to ${target.url.replace(/\./g, '\\.')}/v1/stolen, which is not followed`,
              ),
            );
            const err2 = (await rejects(client.createAlert(SVC, alertBody()))) as ApiError;
            assert.equal(err2.status, code);
            assert.equal(origin.count(), 2);
          },
        );
      }
      assert.equal(target.count(), 0);
      assert.equal(target.seen.filter((s) => s.authorization !== undefined).length, 0);
    },
  );
});

test('requests carry Basic auth, Accept, User-Agent and Content-Type on writes', async () => {
  await withServer(sequence(ok([]), ok(ALERT)), async (server) => {
    const { client } = makeClient(server.url, { userAgent: 'test-agent/1.2' });
    await client.listSources(SVC);
    await client.createAlert(SVC, alertBody());
    const [get, post] = server.seen;
    assert.equal(
      get.authorization,
      `Basic ${Buffer.from('testKeyId123:S3cr3t-Value-For-Tests_xyz').toString('base64')}`,
    );
    assert.equal(get.headers.accept, 'application/json');
    assert.equal(get.headers['user-agent'], 'test-agent/1.2');
    assert.equal(get.headers['content-type'], undefined);
    assert.equal(post.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(post.body), alertBody());
  });
  await withServer(sequence(ok([])), async (server) => {
    const { client } = makeClient(server.url, { userAgent: undefined });
    await client.listSources(SVC);
    assert.match(String(server.seen[0].headers['user-agent']), /^observability-explorer\/\S+$/);
  });
});

test('the secret is read per request and never kept', async () => {
  let calls = 0;
  await withServer(sequence(ok([])), async (server) => {
    const { client } = makeClient(server.url, { getSecret: async () => `secret-${++calls}` });
    await client.listSources(SVC);
    await client.listSources(SVC);
    assert.equal(calls, 2);
    assert.equal(Buffer.from(server.seen[1].authorization!.slice(6), 'base64').toString(), 'testKeyId123:secret-2');
    assert.ok(!JSON.stringify(client).includes('secret-'));
  });
});

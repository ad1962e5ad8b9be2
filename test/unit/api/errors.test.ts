/** Error mapping: every kind's message carries status, server text and requestId, plus a hint. */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ApiError, type ApiErrorKind } from '../../../src/api';
import { assertNoSecret, envelope, freePort, makeClient, rejects, sendJson, startServer, SVC } from './helpers';
import { ALERT, alertBody } from './fixtures';

interface Case {
  name: string;
  kind: ApiErrorKind;
  status: number;
  reply: (res: import('node:http').ServerResponse) => void;
  serverText: string;
  requestId?: string;
  hint?: RegExp;
}

const cloudError = (status: number, error: string, requestId: string) => (res: import('node:http').ServerResponse) =>
  sendJson(res, status, { status, error, requestId });

const CASES: Case[] = [
  {
    name: '401',
    kind: 'unauthorized',
    status: 401,
    reply: cloudError(401, 'Invalid credentials', 'rid-401'),
    serverText: 'Invalid credentials',
    requestId: 'rid-401',
    hint: /Check the API key ID and secret/,
  },
  {
    name: '403',
    kind: 'forbidden',
    status: 403,
    reply: cloudError(403, 'Forbidden: insufficient permissions', 'rid-403'),
    serverText: 'Forbidden: insufficient permissions',
    requestId: 'rid-403',
    hint: /manage ClickStack API/,
  },
  {
    name: '404 JSON',
    kind: 'notFound',
    status: 404,
    reply: cloudError(404, 'Alert not found', 'rid-404'),
    serverText: 'Alert not found',
    requestId: 'rid-404',
  },
  {
    name: '404 HTML',
    kind: 'routeNotServed',
    status: 404,
    reply: (res) => {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'x-request-id': 'rid-html' });
      res.end('<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot GET /v1/x</pre></body></html>');
    },
    serverText: 'Cannot GET /v1/x',
    requestId: 'rid-html',
    hint: /product path segment.*\/observability\/alerts\/65f0c0ffee0000000000a001|\/observability\/alerts\/65f0c0ffee0000000000a001.*product path segment/,
  },
  {
    name: '409',
    kind: 'conflict',
    status: 409,
    reply: cloudError(409, 'Webhook is in use', 'rid-409'),
    serverText: 'Webhook is in use',
    requestId: 'rid-409',
  },
  {
    name: '429',
    kind: 'rateLimited',
    status: 429,
    reply: cloudError(429, 'Rate limit exceeded', 'rid-429'),
    serverText: 'Rate limit exceeded',
    requestId: 'rid-429',
    hint: /rate limited/,
  },
  {
    name: '400',
    kind: 'invalidRequest',
    status: 400,
    reply: cloudError(400, 'Tile not found', 'rid-400'),
    serverText: 'Tile not found',
    requestId: 'rid-400',
  },
  {
    name: '422 OSS message',
    kind: 'invalidRequest',
    status: 422,
    reply: (res) =>
      sendJson(res, 422, { message: 'Body validation failed: threshold: Required' }, { 'x-request-id': 'rid-422' }),
    serverText: 'Body validation failed: threshold: Required',
    requestId: 'rid-422',
  },
  {
    name: '500',
    kind: 'serverError',
    status: 500,
    reply: cloudError(500, 'Something went wrong', 'rid-500'),
    serverText: 'Something went wrong',
    requestId: 'rid-500',
    hint: /try again later/,
  },
  {
    name: '502 HTML',
    kind: 'serverError',
    status: 502,
    reply: (res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'x-request-id': 'rid-502' });
      res.end('<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>');
    },
    serverText: '502 Bad Gateway',
    requestId: 'rid-502',
  },
  {
    name: '503 text',
    kind: 'serverError',
    status: 503,
    reply: (res) => {
      res.writeHead(503, { 'content-type': 'text/plain', 'x-request-id': 'rid-503' });
      res.end('upstream connect error');
    },
    serverText: 'upstream connect error',
    requestId: 'rid-503',
  },
];

test('HTTP errors map to kinds with status, server text, requestId and hint in the message', async (t) => {
  let current: Case = CASES[0];
  const server = await startServer((_req, res) => current.reply(res));
  t.after(() => server.close());
  const { client, log } = makeClient(server.url, { retry: { maxAttempts: 1 } });
  for (const c of CASES) {
    current = c;
    const err = await rejects(client.getAlert(SVC, ALERT.id));
    assert.ok(err instanceof ApiError, c.name);
    assert.equal(err.kind, c.kind, c.name);
    assert.equal(err.status, c.status, c.name);
    assert.equal(err.operation, 'Get alert');
    assert.equal(err.method, 'GET');
    assert.match(err.path, /\/observability\/alerts\/65f0c0ffee0000000000a001$/);
    assert.equal(err.serverMessage, c.serverText, c.name);
    if (c.requestId) assert.equal(err.requestId, c.requestId, c.name);
    assert.ok(err.message.startsWith('Get alert failed: HTTP ' + c.status), `${c.name}: ${err.message}`);
    assert.ok(err.message.includes(c.serverText), `${c.name}: ${err.message}`);
    if (c.requestId) assert.ok(err.message.includes(`requestId ${c.requestId}`), `${c.name}: ${err.message}`);
    if (c.hint) assert.match(err.message, c.hint, c.name);
    assertNoSecret(err.message);
  }
  assert.equal(log.length, CASES.length);
  for (const e of log) assertNoSecret(JSON.stringify(e));
});

test('a full message example reads well on its own', async (t) => {
  const server = await startServer((_req, res) =>
    sendJson(res, 400, { status: 400, error: 'Tile not found', requestId: '5f0c1d2e-aaaa-4bbb-8ccc-123456789abc' }),
  );
  t.after(() => server.close());
  const { client } = makeClient(server.url);
  const err = (await rejects(client.createAlert(SVC, alertBody()))) as ApiError;
  assert.equal(
    err.message,
    'Create alert failed: HTTP 400 — Tile not found (requestId 5f0c1d2e-aaaa-4bbb-8ccc-123456789abc).',
  );
  assert.equal(err.retryable, false);
});

test('network, timeout, invalidResponse, invalidInput and cancelled errors', async (t) => {
  const port = await freePort();
  const net = makeClient(`http://127.0.0.1:${port}`, { retry: { maxAttempts: 1 } });
  const e1 = (await rejects(net.client.listSources(SVC))) as ApiError;
  assert.equal(e1.kind, 'network');
  assert.match(
    e1.message,
    /^List sources failed: could not connect to 127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\)\. Check the base URL/,
  );
  assert.equal(e1.retryable, true);

  let mode = 'slow';
  const server = await startServer((_req, res) => {
    if (mode === 'slow') {
      setTimeout(() => {
        if (!res.destroyed) sendJson(res, 200, envelope([]));
      }, 2500);
    } else if (mode === 'badjson') {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'rid-bad' });
      res.end('{"status":200,"requestId":"x","result":[');
    } else if (mode === 'noresult') sendJson(res, 200, { status: 200, requestId: 'rid-nores' });
    else if (mode === 'mismatch') sendJson(res, 200, envelope([{ id: 'a1', threshold: 'ten' }], 'rid-zod'));
  });
  t.after(() => server.close());
  const { client } = makeClient(server.url, { retry: { maxAttempts: 1 }, timeouts: { headersMs: 300 } });
  const e2 = (await rejects(client.listSources(SVC))) as ApiError;
  assert.equal(e2.kind, 'timeout');
  assert.match(e2.message, /no response from 127\.0\.0\.1:\d+ within 0\.3 s/);

  mode = 'badjson';
  const e3 = (await rejects(client.listSources(SVC))) as ApiError;
  assert.equal(e3.kind, 'invalidResponse');
  assert.match(e3.message, /^List sources failed: HTTP 200 — the response is not valid JSON .*\(requestId rid-bad\)/);

  mode = 'noresult';
  const e4 = (await rejects(client.listSources(SVC))) as ApiError;
  assert.equal(e4.kind, 'invalidResponse');
  assert.match(e4.message, /has no "result" \(requestId rid-nores\)/);

  mode = 'mismatch';
  // One odd list item never fails the whole list: it is left out and described.
  const l5 = await client.listAlerts(SVC);
  assert.deepEqual(l5.data, []);
  assert.deepEqual(
    l5.skipped.map((s) => [s.index, s.id]),
    [[0, 'a1']],
  );
  assert.ok(
    l5.skipped[0].issues.some((i) => i.path === 'threshold'),
    JSON.stringify(l5.skipped),
  );
  const e5 = (await rejects(client.getAlert(SVC, 'a1'))) as ApiError;
  assert.equal(e5.kind, 'invalidResponse');
  assert.ok(
    e5.issues?.some((i) => i.path === 'result.threshold' || i.path.startsWith('result')),
    JSON.stringify(e5.issues),
  );
  assert.match(e5.message, /requestId rid-zod/);

  const before = server.count();
  const e6 = (await rejects(client.createAlert(SVC, { ...alertBody(), threshold: 'x' } as never))) as ApiError;
  assert.equal(e6.kind, 'invalidInput');
  assert.ok(e6.issues?.some((i) => i.path === 'threshold'));
  // Unknown keys are sent (newer server fields); a null the service refuses is not.
  const e7 = (await rejects(client.createAlert(SVC, { ...alertBody(), thresholdMax: null } as never))) as ApiError;
  assert.ok(e7.issues?.some((i) => i.path === 'thresholdMax' && /must not be null/.test(i.message)));
  const e8 = (await rejects(client.createAlert(SVC, { ...alertBody(), name: '' }))) as ApiError;
  assert.ok(e8.issues?.some((i) => i.path === 'name'));
  assert.equal(server.count(), before, 'invalid input is never sent');

  const ac = new AbortController();
  ac.abort();
  const e9 = (await rejects(client.listSources(SVC, { signal: ac.signal }))) as ApiError;
  assert.equal(e9.kind, 'cancelled');
  assert.equal(e9.message, 'List sources failed: cancelled.');
});

test('the secret never appears in errors or log entries, even when the server echoes it', async (t) => {
  const server = await startServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    const decoded = Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString();
    sendJson(res, 400, {
      status: 400,
      error: `bad header ${auth} for ${decoded} raw=${auth.slice(6)}`,
      requestId: 'rid-echo',
    });
  });
  t.after(() => server.close());
  const { client, log } = makeClient(server.url);
  const err = (await rejects(client.listDashboards(SVC))) as ApiError;
  assert.equal(err.kind, 'invalidRequest');
  assertNoSecret(err.message);
  assertNoSecret(err.serverMessage ?? '');
  assertNoSecret(JSON.stringify(log));
  assert.match(err.message, /\*\*\*/);
});

test('no secret available gives an unauthorized error without a request', async (t) => {
  const server = await startServer((_req, res) => sendJson(res, 200, envelope([])));
  t.after(() => server.close());
  const { client } = makeClient(server.url, { getSecret: () => '' });
  const err = (await rejects(client.listSources(SVC))) as ApiError;
  assert.equal(err.kind, 'unauthorized');
  assert.equal(server.count(), 0);
});

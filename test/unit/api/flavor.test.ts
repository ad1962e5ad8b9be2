/**
 * The request engine with a second API flavor: a minimal self-hosted-style flavor (`/api/v2/...`, Bearer auth,
 * `{data}` bodies, `{message}` errors) written only against `ApiFlavor`, against a loopback server. Proves that the
 * engine's guarantees (auth per request, paging, per-item validation, error text with status and request ID, no
 * secret in errors) hold for a flavor other than the cloud one.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import * as z from 'zod';
import { ApiError, RateLimiter, RequestEngine, parseErrorBody, type ApiFlavor } from '../../../src/api';
import { rejects, sendJson, startServer, type TestServer } from './helpers';

const TOKEN = 'oss-personal-api-key-0123456789';

const ossLike: ApiFlavor = {
  kind: 'oss',
  authHeader: (cred) => `Bearer ${cred.secret}`,
  resourcePath: (_scope, kind, id) => `/api/v2/${kind}${id !== undefined ? `/${encodeURIComponent(id)}` : ''}`,
  valuePath: 'data',
  unwrap(json, expect) {
    if (typeof json !== 'object' || json === null) return { ok: false, problem: 'the response is not a JSON object' };
    const body = json as { data?: unknown; meta?: { total?: unknown } };
    if (expect === 'none') return { ok: true, value: undefined };
    if (!('data' in body)) return { ok: false, problem: 'the response has no "data"' };
    const total = typeof body.meta?.total === 'number' ? { totalCount: body.meta.total } : {};
    return { ok: true, value: body.data, ...total };
  },
  parseError: (_status, text, headers, truncated) =>
    parseErrorBody(text, headers, truncated, { messageKeys: ['message'] }),
};

const item = z.looseObject({ id: z.string(), name: z.string() });

describe('request engine with another API flavor', () => {
  let server: TestServer;
  let handler: (url: string) => { status: number; value: unknown; headers?: Record<string, string> };
  let engine: RequestEngine;

  before(async () => {
    server = await startServer((req, res) => {
      const r = handler(req.url ?? '');
      sendJson(res, r.status, r.value, r.headers);
    });
    engine = new RequestEngine({
      flavor: ossLike,
      baseUrl: `${server.url}/hdx`,
      keyId: '',
      getSecret: async () => TOKEN,
      limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
      retry: { baseDelayMs: 10, maxDelayMs: 20 },
    });
  });
  after(async () => {
    await engine.close();
    await server.close();
  });
  beforeEach(() => {
    server.seen.length = 0;
  });

  it('sends Bearer auth to the flavor path below the base URL prefix and reads {data}', async () => {
    handler = () => ({ status: 200, value: { data: { id: 'a1', name: 'One' } } });
    const res = await engine.call({
      operation: 'Get thing',
      method: 'GET',
      path: ossLike.resourcePath({}, 'webhooks', 'a1'),
      result: item,
      retry: 'idempotent',
    });
    assert.deepEqual(res.data, { id: 'a1', name: 'One' });
    assert.equal(server.seen[0]!.url, '/hdx/api/v2/webhooks/a1');
    assert.equal(server.seen[0]!.authorization, `Bearer ${TOKEN}`);
  });

  it('pages with limit/offset until meta.total, and skips an item that does not match', async () => {
    const all = [{ id: 'a', name: 'A' }, { id: 'b' }, { id: 'c', name: 'C' }];
    handler = (url) => {
      const q = new URL(url, 'http://x').searchParams;
      const offset = Number(q.get('offset'));
      return { status: 200, value: { data: all.slice(offset, offset + 2), meta: { total: all.length } } };
    };
    const list = await engine.readList({
      operation: 'List things',
      path: '/api/v2/saved-searches',
      item,
      paging: { pageSize: 2 },
    });
    assert.deepEqual(
      list.data.map((t) => t.id),
      ['a', 'c'],
    );
    assert.equal(list.skipped.length, 1);
    assert.equal(list.skipped[0]!.id, 'b');
    assert.equal(list.pages, 2);
    assert.equal(list.totalCount, 3);
  });

  it('an error names the operation, status, server message and request ID, and never the token', async () => {
    handler = () => ({
      status: 409,
      value: { message: `Cannot delete webhook (token ${TOKEN})` },
      headers: { 'x-request-id': 'rid-7' },
    });
    const err = await rejects(
      engine.call({
        operation: 'Delete thing',
        method: 'DELETE',
        path: '/api/v2/webhooks/a1',
        result: null,
        retry: 'idempotent',
      }),
    );
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 409);
    assert.equal(err.requestId, 'rid-7');
    assert.match(err.serverMessage ?? '', /Cannot delete webhook/);
    assert.equal(`${err.message} ${err.serverMessage}`.includes(TOKEN), false);
    assert.match(err.message, /Delete thing/);
  });

  it('a value that does not match is reported below the flavor value path', async () => {
    handler = () => ({ status: 200, value: { data: { id: 'a1' } } });
    const err = await rejects(
      engine.call({
        operation: 'Get thing',
        method: 'GET',
        path: '/api/v2/webhooks/a1',
        result: item,
        retry: 'idempotent',
      }),
    );
    assert.ok(err instanceof ApiError && err.kind === 'invalidResponse');
    assert.ok(
      err.issues?.some((i) => i.path === 'data.name'),
      JSON.stringify(err.issues),
    );
  });
});

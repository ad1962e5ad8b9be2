/**
 * Reading whole lists against real loopback servers: short pages, a reported totalCount, an
 * empty page, a service that ignores offset, odd items, and lists that never end.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, DEFAULT_LIST_BOUNDS, type SkippedListItem } from '../../../src/api';
import { makeClient, rejects, sendJson, startServer, SVC, type TestServer } from './helpers';

function alert(i: number): Record<string, unknown> {
  return {
    id: `a${String(i).padStart(7, '0')}`,
    source: 'tile',
    dashboardId: 'd1',
    tileId: 't1',
    threshold: i,
    thresholdType: 'above',
    interval: '5m',
    channel: { type: 'webhook', webhookId: 'w1' },
  };
}

interface ListServerOptions {
  count: number;
  /** Most items the service returns per page, whatever `limit` asks. */
  cap?: number;
  /** Where the service reports the list size. */
  total?: 'top' | 'meta.totalCount' | 'meta.total';
  /** Ignore `offset` (always serve from 0). */
  ignoreOffset?: boolean;
  /** Replace item i by this value. */
  odd?: Record<number, unknown>;
}

function query(req: IncomingMessage): URLSearchParams {
  return new URL(req.url ?? '/', 'http://x').searchParams;
}

function listServer(opts: ListServerOptions): Promise<TestServer> {
  return startServer((req, res) => {
    const q = query(req);
    const limit = q.has('limit') ? Number(q.get('limit')) : 1000;
    const offset = opts.ignoreOffset ? 0 : Number(q.get('offset') ?? 0);
    const size = Math.min(limit, opts.cap ?? limit);
    const items: unknown[] = [];
    for (let i = offset; i < Math.min(opts.count, offset + size); i++) items.push(opts.odd?.[i] ?? alert(i));
    const body: Record<string, unknown> = { status: 200, requestId: `rid-${offset}`, result: items };
    if (opts.total === 'top') body.totalCount = opts.count;
    if (opts.total === 'meta.totalCount') body.meta = { totalCount: opts.count };
    if (opts.total === 'meta.total') body.meta = { total: opts.count };
    sendJson(res, 200, body);
  });
}

/** Endless full pages of new IDs, each item padded to `itemBytes`. */
function endlessServer(itemBytes = 0): Promise<TestServer> {
  const pad = 'x'.repeat(itemBytes);
  return startServer((req, res: ServerResponse) => {
    const q = query(req);
    const limit = Number(q.get('limit') ?? 1000);
    const offset = Number(q.get('offset') ?? 0);
    const items = Array.from({ length: limit }, (_, i) => ({
      ...alert(offset + i),
      ...(itemBytes ? { note: pad } : {}),
    }));
    sendJson(res, 200, { status: 200, requestId: `rid-${offset}`, result: items });
  });
}

function offsets(server: TestServer): number[] {
  return server.seen.map((s) => Number(new URL(s.url, 'http://x').searchParams.get('offset')));
}

async function using<T>(server: Promise<TestServer>, fn: (s: TestServer) => Promise<T>): Promise<T> {
  const s = await server;
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

describe('lists are read to the end', () => {
  it('short pages: a service that returns fewer items than limit is read on, at the offset of what it sent', async () => {
    await using(listServer({ count: 25, cap: 7 }), async (server) => {
      const { client } = makeClient(server.url);
      const res = await client.listAlerts(SVC);
      assert.equal(res.data.length, 25);
      assert.deepEqual(
        res.data.map((a) => a.threshold),
        Array.from({ length: 25 }, (_, i) => i),
      );
      // 7 + 7 + 7 + 4, then the empty page that ends the list.
      assert.deepEqual(offsets(server), [0, 7, 14, 21, 25]);
      assert.equal(res.pages, 5);
      assert.equal(res.totalCount, undefined);
      assert.ok(server.seen.every((s) => s.url.includes('limit=1000')));
    });
  });

  it('a short first page does not end the list (the old rule would stop at 7 of 25)', async () => {
    await using(listServer({ count: 25, cap: 7 }), async (server) => {
      const { client } = makeClient(server.url);
      const res = await client.listAlerts(SVC, { pageSize: 10 });
      assert.equal(res.data.length, 25);
      assert.deepEqual(offsets(server), [0, 7, 14, 21, 25]);
    });
  });

  for (const total of ['top', 'meta.totalCount', 'meta.total'] as const) {
    it(`totalCount (${total}): stops once the reported size is read, without an empty page`, async () => {
      await using(listServer({ count: 25, cap: 7, total }), async (server) => {
        const { client } = makeClient(server.url);
        const res = await client.listAlerts(SVC);
        assert.equal(res.data.length, 25);
        assert.deepEqual(offsets(server), [0, 7, 14, 21]);
        assert.equal(res.totalCount, 25);
        assert.equal(res.pages, 4);
      });
    });
  }

  it('empty list: one request; one item: two without a total, one with it', async () => {
    await using(listServer({ count: 0 }), async (server) => {
      const res = await makeClient(server.url).client.listAlerts(SVC);
      assert.deepEqual(res.data, []);
      assert.equal(server.count(), 1);
    });
    await using(listServer({ count: 1 }), async (server) => {
      const res = await makeClient(server.url).client.listAlerts(SVC);
      assert.equal(res.data.length, 1);
      assert.deepEqual(offsets(server), [0, 1]);
    });
    await using(listServer({ count: 1, total: 'top' }), async (server) => {
      const res = await makeClient(server.url).client.listAlerts(SVC);
      assert.equal(res.data.length, 1);
      assert.equal(server.count(), 1);
    });
  });

  it('a service that ignores offset: the repeated page ends the list, every item once', async () => {
    await using(listServer({ count: 5, ignoreOffset: true }), async (server) => {
      const res = await makeClient(server.url).client.listAlerts(SVC, { pageSize: 5 });
      assert.equal(res.data.length, 5);
      assert.equal(server.count(), 2);
    });
  });

  it('lists the API does not page (dashboards, sources) are read in one request without limit/offset', async () => {
    await using(
      startServer((_req, res) => sendJson(res, 200, { status: 200, requestId: 'r', result: [] })),
      async (server) => {
        const { client } = makeClient(server.url);
        await client.listDashboards(SVC);
        await client.listSources(SVC);
        assert.equal(server.count(), 2);
        assert.ok(
          server.seen.every((s) => !s.url.includes('?')),
          server.seen.map((s) => s.url).join(),
        );
      },
    );
  });
});

describe('one odd item never fails a list', () => {
  it('returns the readable items and describes the skipped one (index, id, field)', async () => {
    const odd = { 3: { ...alert(3), threshold: 'high' }, 5: { name: 'no id' } };
    await using(listServer({ count: 8, cap: 4, odd }), async (server) => {
      const reported: [string, readonly SkippedListItem[]][] = [];
      const { client } = makeClient(server.url, {
        onSkippedItems: (operation, skipped) => reported.push([operation, skipped]),
      });
      const res = await client.listAlerts(SVC);
      assert.deepEqual(
        res.data.map((a) => a.id),
        [0, 1, 2, 4, 6, 7].map((i) => alert(i).id),
      );
      assert.equal(res.skipped.length, 2);
      assert.equal(res.skipped[0].index, 3);
      assert.equal(res.skipped[0].id, alert(3).id);
      assert.ok(
        res.skipped[0].issues.some((i) => i.path === 'threshold'),
        JSON.stringify(res.skipped[0]),
      );
      assert.equal(res.skipped[1].index, 5);
      assert.equal(res.skipped[1].id, undefined);
      assert.ok(res.skipped[1].issues.some((i) => i.path === 'id'));
      assert.deepEqual(
        reported.map(([operation, skipped]) => [operation, skipped.length]),
        [['List alerts', 2]],
      );
    });
  });

  it('an item without fields the spec does not require is read', async () => {
    await using(listServer({ count: 1, odd: { 0: { id: 'bare' } } }), async (server) => {
      const res = await makeClient(server.url).client.listAlerts(SVC);
      assert.deepEqual(res.data, [{ id: 'bare' }]);
      assert.deepEqual(res.skipped, []);
    });
  });

  it('a result that is not a list is still an error that says so', async () => {
    await using(
      startServer((_req, res) => sendJson(res, 200, { status: 200, requestId: 'r-obj', result: { id: 'x' } })),
      async (server) => {
        const err = (await rejects(makeClient(server.url).client.listAlerts(SVC))) as ApiError;
        assert.equal(err.kind, 'invalidResponse');
        assert.match(err.message, /the result is not a list.*r-obj/);
      },
    );
  });
});

describe('lists that never end are bounded', () => {
  it('endless full pages of new IDs stop at the default item bound, with an error that names it', async () => {
    await using(endlessServer(), async (server) => {
      const { client } = makeClient(server.url);
      const started = Date.now();
      const err = (await rejects(client.listAlerts(SVC))) as ApiError;
      assert.ok(err instanceof ApiError);
      assert.equal(err.kind, 'invalidResponse');
      assert.equal(err.operation, 'List alerts');
      assert.match(err.message, new RegExp(`bound of ${DEFAULT_LIST_BOUNDS.maxItems} items per list after 101 pages`));
      assert.match(err.message, /still sending items/);
      // 101 pages of 1,000, not 10,000 pages.
      assert.equal(server.count(), 101);
      assert.ok(Date.now() - started < 60_000);
    });
  });

  it('a smaller item bound (client option or per call) is honoured', async () => {
    await using(endlessServer(), async (server) => {
      const { client } = makeClient(server.url, { listBounds: { maxItems: 2500 } });
      const err = (await rejects(client.listAlerts(SVC))) as ApiError;
      assert.match(err.message, /bound of 2500 items per list after 3 pages/);
      const again = (await rejects(client.listAlerts(SVC, { pageSize: 100, maxItems: 150 }))) as ApiError;
      assert.match(again.message, /bound of 150 items per list after 2 pages/);
    });
  });

  it('big items stop at the byte bound before memory grows, and the error names it', async () => {
    await using(endlessServer(4096), async (server) => {
      const { client } = makeClient(server.url, { listBounds: { maxBytes: 8 * 1024 * 1024 } });
      const before = process.memoryUsage().heapUsed;
      const err = (await rejects(client.listAlerts(SVC))) as ApiError;
      assert.match(err.message, /bound of 8 MiB of responses per list after 2 pages \(2000 items, 8\.\d MiB\)/);
      // A little over 4 MiB per page: the second page crosses 8 MiB, no third page is asked for.
      assert.equal(server.count(), 2);
      assert.ok(process.memoryUsage().heapUsed - before < 256 * 1024 * 1024);
    });
  });

  it('a list exactly at the item bound is read (its empty page comes next)', async () => {
    await using(listServer({ count: 300 }), async (server) => {
      const res = await makeClient(server.url, { listBounds: { maxItems: 300 } }).client.listAlerts(SVC, {
        pageSize: 100,
      });
      assert.equal(res.data.length, 300);
      assert.deepEqual(offsets(server), [0, 100, 200, 300]);
    });
  });
});

/** Every client operation against the API emulator, plus paging, limits and routing errors. */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server';
import {
  ApiError,
  ObservabilityClient,
  RateLimiter,
  type ObservabilityClientOptions,
  type RequestLogEntry,
} from '../../../src/api';
import type { AlertWrite, DashboardWrite } from '../../../src/schema';

function clientFor(
  emu: Emulator,
  overrides: Partial<ObservabilityClientOptions> = {},
): { client: ObservabilityClient; log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const client = new ObservabilityClient({
    connection: {
      baseUrl: emu.url,
      organizationId: emu.organizationId,
      serviceIds: emu.serviceIds,
      keyId: emu.keyId,
      pathSegment: 'observability',
    },
    getSecret: () => emu.keySecret,
    limiter: new RateLimiter({ requests: 10_000, windowMs: 1000 }),
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
    onRequest: (e) => log.push(e),
    ...overrides,
  });
  return { client, log };
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return err;
  }
  throw new Error('expected a rejection');
}

describe('ObservabilityClient against the emulator', () => {
  let emu: Emulator;
  let client: ObservabilityClient;
  let log: RequestLogEntry[];
  let svc: string;

  before(async () => {
    emu = await startEmulator({ rateLimit: false });
    ({ client, log } = clientFor(emu));
    svc = emu.serviceIds[0];
  });
  after(async () => {
    await client.close();
    await emu.close();
  });

  it('lists organizations, services and API keys', async () => {
    const orgs = await client.listOrganizations();
    assert.equal(orgs.status, 200);
    assert.ok(orgs.requestId);
    assert.deepEqual(
      orgs.data.map((o) => o.id),
      [emu.organizationId],
    );
    const services = await client.listServices();
    assert.deepEqual(services.data.map((s) => s.id).sort(), [...emu.serviceIds].sort());
    const again = await client.listServices(emu.organizationId);
    assert.equal(again.data.length, services.data.length);
    const keys = await client.listApiKeys();
    assert.ok(keys.data.length > 0);
    assert.ok(keys.data.every((k) => typeof k.id === 'string'));
  });

  it('dashboards: list, get, create, update, validate, delete', async () => {
    const list = await client.listDashboards(svc);
    assert.ok(list.data.length > 0);
    const first = list.data[0];
    const got = await client.getDashboard(svc, first.id);
    assert.equal(got.data.id, first.id);
    assert.equal(got.data.name, first.name);

    const body = {
      name: 'Created by the client test',
      tiles: [{ name: 'Notes', x: 0, y: 0, w: 6, h: 2, config: { displayType: 'markdown', markdown: '# Hello' } }],
      tags: ['test'],
    } as DashboardWrite;
    const created = await client.createDashboard(svc, body);
    assert.equal(created.data.name, body.name);
    assert.equal(created.data.tiles.length, 1);
    const tileId = String(created.data.tiles[0].id);

    const updated = await client.updateDashboard(svc, created.data.id, {
      name: 'Renamed by the client test',
      tiles: [
        {
          id: tileId,
          name: 'Notes',
          x: 0,
          y: 0,
          w: 6,
          h: 2,
          config: { displayType: 'markdown', markdown: '# Changed' },
        },
      ],
    } as never);
    assert.equal(updated.data.name, 'Renamed by the client test');
    assert.equal(String(updated.data.tiles[0].id), tileId);

    const valid = await client.validateDashboard(svc, body);
    assert.equal(valid.data.valid, true);
    const invalid = await client.validateDashboard(svc, { name: 'x', tiles: [{ name: 't', x: 30, y: 0, w: 6, h: 2 }] });
    assert.equal(invalid.data.valid, false);
    assert.ok(invalid.data.errors.length > 0);

    const del = await client.deleteDashboard(svc, created.data.id);
    assert.equal(del.status, 200);
    assert.equal(del.data, undefined);
    const gone = await rejection(client.getDashboard(svc, created.data.id));
    assert.equal(gone.kind, 'notFound');
    assert.equal(gone.operation, 'Get dashboard');
    assert.match(gone.message, /^Get dashboard failed: HTTP 404 — .+\(requestId [0-9a-f-]{36}\)\./);
  });

  it('alerts: list (paged), get, create, update, delete', async () => {
    const data = emu.state.data.get(svc)!;
    const all = await client.listAlerts(svc);
    assert.equal(all.data.length, data.alerts.size);
    const before = emu.requests.length;
    const paged = await client.listAlerts(svc, { pageSize: 3 });
    assert.deepEqual(
      paged.data.map((a) => a.id),
      all.data.map((a) => a.id),
    );
    const pages = emu.requests.slice(before);
    // A short page does not end the list: the empty page (or the reported totalCount) does.
    const expected = Math.ceil(data.alerts.size / 3) + (paged.totalCount !== undefined ? 0 : 1);
    assert.equal(pages.length, expected);
    assert.equal(paged.pages, expected);
    assert.deepEqual(
      pages.map((r) => r.query.offset),
      pages.map((_r, i) => String(Math.min(i * 3, data.alerts.size))),
    );
    assert.ok(pages.every((r) => r.query.limit === '3'));

    const one = await client.getAlert(svc, all.data[0].id);
    assert.equal(one.data.id, all.data[0].id);

    const dashboard = [...data.dashboards.values()].find((d) =>
      d.tiles.some((t) => (t.config as { displayType?: string } | undefined)?.displayType === 'line'),
    )!;
    const tile = dashboard.tiles.find((t) => (t.config as { displayType?: string }).displayType === 'line')!;
    const webhook = [...data.webhooks.values()][0];
    const body: AlertWrite = {
      source: 'tile',
      dashboardId: dashboard.id,
      tileId: String(tile.id),
      threshold: 42,
      thresholdType: 'above',
      interval: '1h',
      channel: { type: 'webhook', webhookId: webhook.id },
      name: 'Client test alert',
      message: 'Value is {{value}}',
    } as AlertWrite;
    const created = await client.createAlert(svc, body);
    assert.equal(created.data.threshold, 42);
    assert.equal(created.data.name, 'Client test alert');
    const updated = await client.updateAlert(svc, created.data.id, { ...body, threshold: 50 });
    assert.equal(updated.data.threshold, 50);
    await client.deleteAlert(svc, created.data.id);
    const gone = await rejection(client.getAlert(svc, created.data.id));
    assert.equal(gone.kind, 'notFound');

    const bad = await rejection(client.createAlert(svc, { ...body, tileId: 'ffffffffffffffffffffffff' }));
    assert.equal(bad.kind, 'invalidRequest');
    assert.equal(bad.status, 400);
    assert.ok(bad.serverMessage && bad.message.includes(bad.serverMessage));
    assert.ok(bad.requestId && bad.message.includes(bad.requestId));
  });

  it('sources, webhooks and saved searches', async () => {
    const data = emu.state.data.get(svc)!;
    const sources = await client.listSources(svc);
    assert.equal(sources.data.length, data.sources.size);
    assert.ok(sources.data.every((s) => typeof s.kind === 'string'));
    const webhooks = await client.listWebhooks(svc, { pageSize: 2 });
    assert.equal(webhooks.data.length, data.webhooks.size);
    const searches = await client.listSavedSearches(svc, { pageSize: 1 });
    assert.equal(searches.data.length, data.savedSearches.size);
  });

  it('query endpoint: get (none), upsert, get, delete, delete again', async () => {
    const none = await client.getQueryEndpoint(svc);
    assert.equal(none.data, null);
    assert.equal(none.status, 404);
    const keys = await client.listApiKeys();
    const body = {
      roles: ['sql_console_read_only' as const],
      openApiKeys: [keys.data[0].id],
      allowedOrigins: 'example.com',
    };
    const saved = await client.upsertQueryEndpoint(svc, body);
    assert.ok(saved.data.id);
    assert.deepEqual(saved.data.roles, body.roles);
    const resaved = await client.upsertQueryEndpoint(svc, { ...body, roles: ['sql_console_admin'] });
    assert.equal(resaved.data.id, saved.data.id);
    const got = await client.getQueryEndpoint(svc);
    assert.equal(got.data?.id, saved.data.id);
    await client.deleteQueryEndpoint(svc);
    const again = await client.deleteQueryEndpoint(svc);
    assert.equal(again.status, 404);
    assert.equal((await client.getQueryEndpoint(svc)).data, null);
  });

  it('a wrong product path segment is reported as a route the server does not serve', async () => {
    const { client: wrong } = clientFor(emu, {
      connection: {
        baseUrl: emu.url,
        organizationId: emu.organizationId,
        serviceIds: emu.serviceIds,
        keyId: emu.keyId,
        pathSegment: 'clickstack',
      },
    });
    const err = await rejection(wrong.listAlerts(svc));
    assert.equal(err.kind, 'routeNotServed');
    assert.equal(err.status, 404);
    assert.match(err.message, /HTTP 404 — Cannot GET \/v1\/.+\/clickstack\/alerts/);
    assert.match(err.message, /product path segment/);
    assert.match(
      err.message,
      new RegExp(`GET /v1/organizations/${emu.organizationId}/services/${svc}/clickstack/alerts`),
    );
    await wrong.close();
  });

  it('a wrong secret gives unauthorized with a hint, and no secret in the log', async () => {
    const { client: bad, log: badLog } = clientFor(emu, { getSecret: () => 'not-the-right-secret' });
    const err = await rejection(bad.listSources(svc));
    assert.equal(err.kind, 'unauthorized');
    assert.match(err.message, /HTTP 401 — .+ \(requestId .+\)\. Check the API key ID and secret/);
    assert.ok(!err.message.includes('not-the-right-secret'));
    assert.ok(!JSON.stringify(badLog).includes('not-the-right-secret'));
    await bad.close();
  });

  it('bad path parameters are refused before any request', async () => {
    const count = emu.requests.length;
    for (const id of ['a/b', '..', '%2e%2e', 'with space', '', 'x'.repeat(200), '-lead']) {
      const err = await rejection(client.getAlert(svc, id));
      assert.equal(err.kind, 'invalidInput', id);
      assert.equal(err.issues?.[0].path, 'alertId');
      await rejection(client.deleteDashboard(svc, id));
    }
    for (const service of ['not-a-uuid', '../other', `${svc}/x`, '']) {
      const err = await rejection(client.listDashboards(service));
      assert.equal(err.kind, 'invalidInput');
      assert.equal(err.issues?.[0].path, 'serviceId');
    }
    const org = await rejection(client.listServices('../../x'));
    assert.equal(org.issues?.[0].path, 'organizationId');
    assert.equal(emu.requests.length, count);
  });

  it('emulator faults: a POST reset mid-body is sent once; a GET is retried', async () => {
    const data = emu.state.data.get(svc)!;
    const dashboard = [...data.dashboards.values()][0];
    emu.faults.add({ method: 'POST', path: /\/dashboards$/, times: 1, reset: 'mid-body' });
    const before = emu.requests.filter((r) => r.method === 'POST').length;
    const err = await rejection(client.createDashboard(svc, { name: 'Once', tiles: [] } as DashboardWrite));
    assert.equal(err.kind, 'network');
    assert.equal(emu.requests.filter((r) => r.method === 'POST').length - before, 1);
    emu.faults.add({ method: 'GET', path: /\/dashboards\/[^/]+$/, times: 2, status: 503 });
    const got = await client.getDashboard(svc, dashboard.id);
    assert.equal(got.data.id, dashboard.id);
    emu.faults.clear();
    assert.ok(log.length > 0);
  });
});

describe('paging and rate limits against the emulator', () => {
  it('lists 2,500 extra alerts in pages of 1,000', async () => {
    const emu = await startEmulator({ rateLimit: false, alertCount: 2500 });
    try {
      const { client } = clientFor(emu);
      const svc = emu.serviceIds[0];
      const res = await client.listAlerts(svc);
      assert.equal(res.data.length, emu.state.data.get(svc)!.alerts.size);
      assert.ok(res.data.length >= 2500);
      const gets = emu.requests.filter((r) => r.path.endsWith('/alerts'));
      // Full pages, then (unless the service reports totalCount) one empty page that ends the list.
      const fullPages = Math.ceil(res.data.length / 1000);
      assert.equal(gets.length, res.totalCount !== undefined ? fullPages : fullPages + 1);
      assert.equal(res.pages, gets.length);
      assert.deepEqual(res.skipped, []);
      await client.close();
    } finally {
      await emu.close();
    }
  });

  it('a burst of 25 requests with a 10 / 1 s limit never meets a 429 and is paced over at least 2 s', async () => {
    const emu = await startEmulator({
      rateLimit: { requests: 10, windowMs: 1000 },
      rateLimitHeader: 'x-ratelimit-reset',
    });
    try {
      const { client, log } = clientFor(emu, { limiter: new RateLimiter({ requests: 10, windowMs: 1000 }) });
      const started = Date.now();
      await Promise.all(Array.from({ length: 25 }, () => client.listSources(emu.serviceIds[0])));
      const elapsed = Date.now() - started;
      assert.equal(
        emu.requests.filter((r) => r.status === 429).length,
        0,
        JSON.stringify(emu.requests.map((r) => [r.at - started, r.status])),
      );
      assert.equal(log.filter((e) => e.errorKind !== undefined).length, 0);
      assert.equal(emu.requests.length, 25);
      // Three windows of 10: at least 2 s. No benchmark times a burst, so a generous ceiling stays: a limiter that
      // waited a whole extra window per request, or a 10 s penalty, fails it; a busy machine's slow loopback does not.
      assert.ok(elapsed >= 2000 && elapsed < 10_000, `elapsed ${elapsed}`);
      await client.close();
    } finally {
      await emu.close();
    }
  });

  it('without the client limiter the emulator answers 429 and the client waits for the reset', async () => {
    const emu = await startEmulator({ rateLimit: { requests: 3, windowMs: 1000 }, rateLimitHeader: 'retry-after' });
    try {
      const { client, log } = clientFor(emu, { limiter: new RateLimiter({ requests: 100, windowMs: 1000 }) });
      await Promise.all(Array.from({ length: 5 }, () => client.listSources(emu.serviceIds[0])));
      assert.ok(emu.requests.some((r) => r.status === 429));
      assert.ok(log.some((e) => e.errorKind === 'rateLimited'));
      await client.close();
    } finally {
      await emu.close();
    }
  });
});

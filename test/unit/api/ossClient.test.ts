/** The self-hosted client against the emulator's self-hosted (HyperDX External API v2) flavor. */
import { after, before, beforeEach, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../emulator/server';
import { describeResponseIssues, takeResponseIssues } from '../../emulator';
import { ApiError, RateLimiter, type RequestLogEntry } from '../../../src/api';
import { SelfHostedClient, selfHostedConnectionIssues, type SelfHostedClientOptions } from '../../../src/api/oss';
import type { AlertWrite, DashboardWrite } from '../../../src/schema';
import { startServer } from './helpers';

function clientFor(
  emu: Emulator,
  overrides: Partial<SelfHostedClientOptions> = {},
): { client: SelfHostedClient; log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const client = new SelfHostedClient({
    connection: { baseUrl: emu.url },
    getSecret: () => emu.ossApiKey,
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
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected an ApiError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the call to fail');
}

describe('self-hosted client against the OSS emulator', () => {
  let emu: Emulator;
  let client: SelfHostedClient;
  let log: RequestLogEntry[];
  let sourceId: string;
  let webhookId: string;
  before(async () => {
    emu = await startEmulator({ flavor: 'oss', rateLimit: false });
  });
  beforeEach(async () => {
    const issues = takeResponseIssues();
    assert.equal(issues.length, 0, describeResponseIssues(issues));
    emu.reset();
    ({ client, log } = clientFor(emu));
    sourceId = (await client.listSources()).data[0]?.id ?? '';
    webhookId = (await client.listWebhooks()).data[0]?.id ?? '';
  });
  after(async () => {
    await client.close();
    await emu.close();
    const issues = takeResponseIssues();
    assert.equal(issues.length, 0, describeResponseIssues(issues));
  });

  it('lists every collection from {data} (paged ones to meta.total), with no organization or service in any path', async () => {
    const dashboards = await client.listDashboards();
    assert.ok(dashboards.data.length > 0);
    assert.deepEqual(dashboards.skipped, []);
    const alerts = await client.listAlerts({ pageSize: 2 });
    assert.ok(alerts.data.length > 2);
    assert.equal(alerts.totalCount, alerts.data.length);
    assert.equal(alerts.pages, Math.ceil(alerts.data.length / 2));
    assert.equal(new Set(alerts.data.map((a) => a.id)).size, alerts.data.length);
    const sources = await client.listSources();
    assert.ok(sources.data.some((s) => s.kind === 'log'));
    assert.equal((await client.getSource(sourceId)).data.id, sourceId);
    assert.ok((await client.listSavedSearches()).data.length > 0);
    assert.equal((await client.getTeam()).data.name.length > 0, true);
    const members = await client.listTeamMembers();
    assert.equal(members.data.filter((m) => m.isCurrentUser).length, 1);
    for (const r of emu.requests) {
      assert.match(r.path, /^\/api\/v2\//);
      assert.equal(r.authorized, true, r.path);
    }
    assert.ok(log.every((e) => e.path.startsWith('/api/v2/')));
  });

  it('creates, reads, replaces, validates and deletes a dashboard', async () => {
    const body: DashboardWrite = {
      name: 'Checkout latency',
      tiles: [
        {
          name: 'Requests',
          x: 0,
          y: 0,
          w: 12,
          h: 3,
          config: { displayType: 'line', sourceId, select: [{ aggFn: 'count' }] },
        },
      ],
    } as DashboardWrite;
    const valid = await client.validateDashboard(body);
    assert.equal(valid.data.valid, true);
    const invalid = await client.validateDashboard({ tiles: [] });
    assert.equal(invalid.data.valid, false);
    assert.deepEqual(invalid.data.errors, [{ path: 'name', message: 'Required' }]);

    const created = await client.createDashboard(body);
    assert.equal(created.data.name, 'Checkout latency');
    const id = created.data.id;
    assert.deepEqual((await client.getDashboard(id)).data, created.data);
    const updated = await client.updateDashboard(id, {
      ...body,
      name: 'Checkout latency (p95)',
      tiles: created.data.tiles,
    } as unknown as Parameters<SelfHostedClient['updateDashboard']>[1]);
    assert.equal(updated.data.name, 'Checkout latency (p95)');
    assert.equal((await client.listDashboards()).data.filter((d) => d.id === id).length, 1);
    await client.deleteDashboard(id);
    const gone = await rejection(client.getDashboard(id));
    assert.equal(gone.kind, 'notFound');
    assert.equal(gone.status, 404);
    assert.equal(gone.serverMessage, 'Not Found');
    assert.match(gone.message, /Get dashboard/);
  });

  it('creates, reads, replaces and deletes an alert; refuses an email channel before sending', async () => {
    const savedSearchId = (await client.listSavedSearches()).data[0]?.id ?? '';
    const body = {
      source: 'saved_search',
      savedSearchId,
      threshold: 4,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookId },
      name: 'Declines',
    } as AlertWrite;
    const created = await client.createAlert(body);
    assert.equal(created.data.threshold, 4);
    const id = created.data.id;
    assert.equal((await client.getAlert(id)).data.name, 'Declines');
    const updated = await client.updateAlert(id, { ...body, threshold: 8 } as AlertWrite);
    assert.equal(updated.data.threshold, 8);
    await client.deleteAlert(id);
    const gone = await rejection(client.getAlert(id));
    assert.deepEqual([gone.kind, gone.status, gone.serverMessage], ['notFound', 404, 'Alert not found']);

    const sent = emu.requests.length;
    const email = await rejection(
      client.createAlert({
        ...body,
        channel: { type: 'email', emailRecipients: ['oncall@example.com'] },
      } as AlertWrite),
    );
    assert.equal(email.kind, 'invalidInput');
    assert.ok(
      email.issues?.some((i) => i.path.startsWith('channel')),
      JSON.stringify(email.issues),
    );
    const thirty = await rejection(client.createAlert({ ...body, interval: '30s' } as AlertWrite));
    assert.ok(thirty.issues?.some((i) => i.path === 'interval'));
    assert.equal(emu.requests.length, sent, 'nothing was sent');
  });

  it('sends an inline alert as written (newer HyperDX accepts it; the server decides) and still refuses what every version refuses', async () => {
    const inlineOn = (source: string, webhook: string) =>
      ({
        source: 'inline',
        chartConfig: {
          displayType: 'line',
          sourceId: source,
          select: [{ aggFn: 'count', where: '', whereLanguage: 'lucene' }],
        },
        threshold: 4,
        thresholdType: 'above',
        interval: '5m',
        channel: { type: 'webhook', webhookId: webhook },
        name: 'Inline',
        displayName: 'Inline latency',
      }) as unknown as AlertWrite;
    const inline = inlineOn((await client.listSources()).data[0]?.id ?? '', webhookId);

    // An older deployment (its OpenAPI document): the server's refusal, not a local one.
    const older = await startEmulator({ flavor: 'oss', rateLimit: false, hyperdxVersion: 'older' });
    const { client: olderClient } = clientFor(older);
    try {
      const olderInline = inlineOn(
        (await olderClient.listSources()).data[0]?.id ?? '',
        (await olderClient.listWebhooks()).data[0]?.id ?? '',
      );
      const sent = older.requests.length;
      const refused = await rejection(olderClient.createAlert(olderInline));
      assert.equal(refused.kind, 'invalidRequest');
      assert.equal(refused.status, 400);
      assert.match(refused.serverMessage ?? '', /^Body validation failed: source/);
      const request = older.requests.slice(sent).find((r) => r.method === 'POST');
      assert.deepEqual(
        [(request?.body as Record<string, unknown>).source, (request?.body as Record<string, unknown>).displayName],
        ['inline', 'Inline latency'],
      );
    } finally {
      await olderClient.close();
      await older.close();
    }

    // The newest HyperDX accepts it as sent.
    const created = (await client.createAlert(inline)).data as unknown as Record<string, unknown>;
    assert.equal(created.source, 'inline');
    assert.equal(created.displayName, 'Inline latency');
    assert.equal((created.chartConfig as Record<string, unknown> | undefined)?.displayType, 'line');

    const before = emu.requests.length;
    const email = await rejection(
      client.createAlert({
        ...inline,
        channel: { type: 'email', emailRecipients: ['oncall@example.com'] },
      } as unknown as AlertWrite),
    );
    assert.equal(email.kind, 'invalidInput');
    assert.deepEqual(
      email.issues?.map((i) => i.path),
      ['channel.type'],
    );
    const thirty = await rejection(client.createAlert({ ...inline, interval: '30s' } as unknown as AlertWrite));
    assert.ok(thirty.issues?.some((i) => i.path === 'interval'));
    assert.equal(emu.requests.length, before, 'nothing was sent');
  });

  it('turns the OSS error shapes into errors that name operation, status, server message and request ID', async () => {
    emu.faults.add({
      path: '/api/v2/alerts',
      status: 400,
      body: { message: 'Body validation failed: threshold: Expected number' },
      headers: { 'x-request-id': 'proxy-7f3a' },
      times: 1,
    });
    const bad = await rejection(client.listAlerts());
    assert.equal(bad.kind, 'invalidRequest');
    assert.equal(bad.status, 400);
    assert.equal(bad.serverMessage, 'Body validation failed: threshold: Expected number');
    assert.equal(bad.requestId, 'proxy-7f3a');
    assert.match(bad.message, /List alerts/);
    assert.match(bad.message, /400/);

    emu.faults.add({ path: '/api/v2/dashboards', status: 500, times: 4 });
    const server = await rejection(client.listDashboards());
    assert.deepEqual([server.kind, server.status, server.serverMessage], ['serverError', 500, 'Internal Server Error']);

    const { client: wrongKey } = clientFor(emu, { getSecret: () => 'd0d0d0d0-0000-4000-8000-000000000000' });
    const unauthorized = await rejection(wrongKey.listSources());
    assert.deepEqual(
      [unauthorized.kind, unauthorized.status, unauthorized.serverMessage],
      ['unauthorized', 401, 'Unauthorized'],
    );
    await wrongKey.close();

    emu.faults.add({
      path: '/api/v2/sources',
      status: 404,
      body: '<!DOCTYPE html><html><body><pre>Cannot GET /api/v2/sources</pre></body></html>',
      times: 1,
    });
    const unserved = await rejection(client.listSources());
    assert.equal(unserved.kind, 'routeNotServed');
  });

  it('waits out a 429 as the server asks and retries; without retries a 429 is a rate-limit error with the server text', async () => {
    emu.faults.add({
      path: '/api/v2/sources',
      status: 429,
      body: 'Too many requests, please try again later.',
      headers: { 'retry-after': '1', 'ratelimit-reset': '1' },
      times: 1,
    });
    const before = emu.requests.filter((r) => r.path === '/api/v2/sources').length;
    const started = Date.now();
    const ok = await client.listSources();
    assert.ok(ok.data.length > 0);
    assert.ok(Date.now() - started >= 900, 'waited about a second');
    assert.equal(emu.requests.filter((r) => r.path === '/api/v2/sources').length - before, 2);

    const { client: impatient } = clientFor(emu, { retry: { maxAttempts: 1 } });
    emu.faults.add({
      path: '/api/v2/team',
      status: 429,
      body: 'Too many requests, please try again later.',
      headers: { 'retry-after': '30' },
      times: 1,
    });
    const limited = await rejection(impatient.getTeam());
    assert.deepEqual(
      [limited.kind, limited.status, limited.serverMessage],
      ['rateLimited', 429, 'Too many requests, please try again later.'],
    );
    await impatient.close();
  });

  it('never puts the key in a URL, a log entry or an error, even when the server echoes it', async () => {
    emu.faults.add({
      path: '/api/v2/webhooks',
      status: 403,
      body: { message: `key ${emu.ossApiKey} (Bearer ${emu.ossApiKey}) may not list webhooks` },
      times: 1,
    });
    const echoed = await rejection(client.listWebhooks());
    assert.equal(echoed.kind, 'forbidden');
    assert.ok(!echoed.message.includes(emu.ossApiKey));
    assert.ok(!JSON.stringify(echoed).includes(emu.ossApiKey));
    assert.ok(!(echoed.serverMessage ?? '').includes(emu.ossApiKey));
    await client.listAlerts();
    for (const r of emu.requests) {
      assert.ok(!r.path.includes(emu.ossApiKey));
      assert.ok(!JSON.stringify(r.query).includes(emu.ossApiKey));
    }
    assert.ok(!JSON.stringify(log).includes(emu.ossApiKey));

    const { client: broken } = clientFor(emu, { getSecret: () => `${emu.ossApiKey}\r\nX-Injected: 1` });
    const before = emu.requests.length;
    const refused = await rejection(broken.listSources());
    assert.equal(refused.kind, 'unauthorized');
    assert.ok(!refused.message.includes(emu.ossApiKey));
    assert.equal(emu.requests.length, before, 'nothing was sent');
    await broken.close();
  });

  it('does not follow a redirect: the key never reaches the other origin', async () => {
    const elsewhere = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":[]}');
    });
    const redirector = await startServer((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}/api/v2/dashboards` });
      res.end();
    });
    try {
      const c = new SelfHostedClient({
        connection: { baseUrl: redirector.url },
        getSecret: () => emu.ossApiKey,
        limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
        retry: { baseDelayMs: 10, maxDelayMs: 20 },
      });
      const err = await rejection(c.listDashboards());
      assert.match(err.message, /redirect/i);
      assert.equal(redirector.count(), 1);
      assert.equal(elsewhere.count(), 0);
      assert.equal(redirector.seen[0]?.authorization, `Bearer ${emu.ossApiKey}`);
      await c.close();
    } finally {
      await redirector.close();
      await elsewhere.close();
    }
  });

  it('queries chart series from the emulator and refuses a bad series request before sending', async () => {
    const end = Date.now();
    const res = await client.querySeries({
      startTime: end - 3600_000,
      endTime: end,
      granularity: '15m',
      series: [{ sourceId, aggFn: 'count', where: '', groupBy: [] }],
    });
    assert.ok(res.data.length >= 4);
    assert.ok(res.data.every((p) => typeof p['series_0.data'] === 'number'));
    const err = await rejection(client.querySeries({ startTime: end - 1000, endTime: end, series: [] }));
    assert.equal(err.kind, 'invalidInput');
  });

  it('checks chart series and search bodies by the server rules before sending: level, same groupBy, ms times, select', async () => {
    const end = Date.now();
    const sent = log.length;
    const quantile = await client.chartSeries({
      startTime: end - 3600_000,
      endTime: end,
      granularity: '1h',
      series: [
        { sourceId, aggFn: 'quantile', level: 0.9, field: 'SeverityNumber', where: '', groupBy: ['ServiceName'] },
      ],
    });
    assert.ok(quantile.data.length > 0);
    assert.ok(quantile.data.every((p) => Array.isArray(p.group) && p.group.length === 1));
    const refused = [
      client.chartSeries({
        startTime: end - 1000,
        endTime: end,
        series: [
          { sourceId, aggFn: 'count', where: '', groupBy: ['ServiceName'] },
          { sourceId, aggFn: 'count', where: '', groupBy: [] },
        ],
      }),
      client.chartSeries({
        startTime: Math.floor((end - 1000) / 1000),
        endTime: Math.floor(end / 1000),
        series: [{ sourceId, aggFn: 'count', where: '', groupBy: [] }],
      }),
      client.chartSeries({
        startTime: end - 1000,
        endTime: end,
        series: [{ sourceId, aggFn: 'quantile', level: 95, field: 'Duration', where: '', groupBy: [] }],
      }),
      client.search({ sourceId, select: 'Body, (SELECT 1)' }),
      client.search({ sourceId, maxResults: 5000 }),
    ];
    for (const p of refused) assert.equal((await rejection(p)).kind, 'invalidInput');
    assert.equal(log.length, sent + 1, 'only the valid request was sent');
  });

  it('searches the rows of a source and reports a query error with the server message', async () => {
    const rows = await client.searchEvents({
      sourceId,
      where: 'SeverityText:error',
      select: 'Timestamp, SeverityText, Body',
      maxResults: 5,
    });
    assert.equal(rows.data.length, 5);
    assert.ok(rows.data.every((r) => r.SeverityText === 'error'));
    const err = await rejection(client.searchEvents({ sourceId, select: 'NoSuchColumn' }));
    assert.equal(err.kind, 'invalidRequest');
    assert.match(err.serverMessage ?? '', /^UNKNOWN_IDENTIFIER: /);
  });
});

describe('self-hosted client against a newer self-hosted server', () => {
  it('keeps the fields it does not know through a read-modify-write, and pages past a capped page', async () => {
    const emu = await startEmulator({ flavor: 'oss', rateLimit: false, futureFields: true, pageCap: 3 });
    const { client } = clientFor(emu);
    try {
      const alerts = await client.listAlerts();
      assert.equal(alerts.data.length, alerts.totalCount);
      assert.ok(alerts.pages > 1);
      const d = (await client.listDashboards()).data[0];
      assert.ok(d);
      const future = Object.keys(d).filter((k) => k.startsWith('futureField_'));
      assert.ok(future.length > 0);
      const { id, ...body } = d;
      await client.updateDashboard(id, body as unknown as Parameters<SelfHostedClient['updateDashboard']>[1]);
      const again = (await client.getDashboard(id)).data as Record<string, unknown>;
      for (const k of future) assert.deepEqual(again[k], (d as Record<string, unknown>)[k]);
    } finally {
      await client.close();
      await emu.close();
    }
    const issues = takeResponseIssues();
    assert.equal(issues.length, 0, describeResponseIssues(issues));
  });
});

describe('self-hosted connection settings', () => {
  it('allows plain http to a non-loopback host only after the explicit confirmation', () => {
    assert.deepEqual(selfHostedConnectionIssues({ baseUrl: 'https://hyperdx.example.com' }), []);
    assert.deepEqual(selfHostedConnectionIssues({ baseUrl: 'http://127.0.0.1:8000' }), []);
    const refused = selfHostedConnectionIssues({ baseUrl: 'http://10.1.2.3:8000' });
    assert.equal(refused.length, 1);
    assert.match(refused[0]?.message ?? '', /unencrypted/);
    assert.deepEqual(selfHostedConnectionIssues({ baseUrl: 'http://10.1.2.3:8000', allowPlainHttp: true }), []);
    assert.throws(
      () => new SelfHostedClient({ connection: { baseUrl: 'http://10.1.2.3:8000' }, getSecret: () => 'k' }),
      (e: ApiError) => e.kind === 'invalidInput',
    );
    for (const bad of [
      'https://user:pw@h.example.com',
      'https://h.example.com/?key=1',
      'https://h.example.com/#x',
      'ftp://h.example.com',
      'not a url',
    ]) {
      assert.ok(selfHostedConnectionIssues({ baseUrl: bad }).length > 0, bad);
    }
  });
});

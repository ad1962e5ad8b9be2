import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator';
import { checkOssRequest, checkOssResponse } from '../../emulator/oss/schemas';
import { basicAuth, dashboardBody, failOnResponseIssues, OBJECT_ID, resultOf, client as cloudClient } from './helpers';

failOnResponseIssues();

interface Call {
  status: number;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
}

function ossClient(emu: Emulator) {
  async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Call> {
    const init: RequestInit = {
      method,
      headers: { authorization: `Bearer ${emu.ossApiKey}`, ...headers },
      redirect: 'manual',
    };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${emu.url}/api/v2${path}`, init);
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = {};
    }
    return { status: res.status, headers: res.headers, text, json };
  }
  return { call };
}

const dataOf = <T = Record<string, unknown>>(r: Call): T => r.json.data as T;

describe('emulator: self-hosted (OSS) flavor', () => {
  let emu: Emulator;
  let api: ReturnType<typeof ossClient>;
  let sourceId: string;
  let webhookId: string;
  before(async () => {
    emu = await startEmulator({ flavor: 'oss', rateLimit: false });
    api = ossClient(emu);
  });
  beforeEach(async () => {
    emu.reset();
    sourceId = dataOf<{ id: string }[]>(await api.call('GET', '/sources'))[0]?.id ?? '';
    webhookId = dataOf<{ id: string }[]>(await api.call('GET', '/webhooks'))[0]?.id ?? '';
  });
  after(() => emu.close());

  it('accepts only the personal API key as a Bearer token; a refusal is text "Unauthorized"', async () => {
    const path = `${emu.url}/api/v2/dashboards`;
    for (const authorization of [
      undefined,
      'Bearer wrong-key',
      basicAuth(emu.keyId, emu.keySecret),
      `Basic ${emu.ossApiKey}`,
    ]) {
      const res = await fetch(path, { headers: authorization ? { authorization } : {} });
      assert.equal(res.status, 401, String(authorization));
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      assert.equal(await res.text(), 'Unauthorized');
    }
    // Not in the query string either.
    assert.equal((await fetch(`${path}?apiKey=${emu.ossApiKey}`)).status, 401);
    const ok = await api.call('GET', '/dashboards');
    assert.equal(ok.status, 200);
    assert.equal(emu.requests.at(-1)?.authorized, true);
    // The Cloud routes are not served by a self-hosted server.
    const cloud = await fetch(
      `${emu.url}/v1/organizations/${emu.organizationId}/services/${emu.serviceIds[0]}/observability/dashboards`,
      {
        headers: { authorization: basicAuth(emu.keyId, emu.keySecret) },
      },
    );
    assert.equal(cloud.status, 404);
    assert.match(await cloud.text(), /Cannot GET/);
  });

  it('answers GET /api/v2 with the key owner, and an unserved route with the HTML "Cannot GET" page', async () => {
    const root = await api.call('GET', '');
    assert.equal(root.status, 200);
    assert.equal(root.json.version, 'v2');
    const missing = await api.call('GET', '/connectionz');
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(missing.text, /Cannot GET \/api\/v2\/connectionz/);
    // A write to the read-only team is not served.
    assert.equal((await api.call('POST', '/team/members', {})).status, 404);
  });

  it('serves the same seeded dashboards, alerts and sources as the Cloud flavor, in {data}', async () => {
    const cloud = await startEmulator({ rateLimit: false });
    try {
      const c = cloudClient(cloud);
      for (const resource of ['/dashboards', '/sources']) {
        const ids = dataOf<{ id: string }[]>(await api.call('GET', resource)).map((o) => o.id);
        const cloudIds = resultOf<{ id: string }[]>(await c.call('GET', resource)).map((o) => o.id);
        assert.ok(ids.length > 0, resource);
        assert.deepEqual(ids, cloudIds, resource);
      }
      const alerts = dataOf<{ id: string; channels: Record<string, unknown>[] }[]>(await api.call('GET', '/alerts'));
      const cloudAlerts = resultOf<{ id: string }[]>(await c.call('GET', '/alerts'));
      assert.ok(alerts.length > 0);
      for (const a of alerts) {
        assert.ok(
          cloudAlerts.some((x) => x.id === a.id),
          a.id,
        );
        // Self-hosted alert channels are webhooks only, without Cloud extras.
        for (const ch of a.channels) assert.deepEqual(Object.keys(ch).sort(), ['type', 'webhookId']);
      }
      const hooks = dataOf<{ service: string }[]>(await api.call('GET', '/webhooks'));
      for (const h of hooks) assert.ok(['slack', 'incidentio', 'generic'].includes(h.service), h.service);
    } finally {
      await cloud.close();
    }
  });

  it('pages alerts, webhooks and saved searches with {data, meta} and X-Total-Count', async () => {
    for (const resource of ['/alerts', '/webhooks', '/saved-searches']) {
      const all = await api.call('GET', resource);
      const total = (all.json.data as unknown[]).length;
      assert.deepEqual(all.json.meta, { total, limit: 1000, offset: 0 }, resource);
      assert.equal(all.headers.get('x-total-count'), String(total));
      const page = await api.call('GET', `${resource}?limit=1&offset=1`);
      assert.equal((page.json.data as unknown[]).length, 1);
      assert.deepEqual(page.json.meta, { total, limit: 1, offset: 1 });
    }
    const bad = await api.call('GET', '/alerts?limit=0');
    assert.equal(bad.status, 400);
    assert.match(String(bad.json.message), /^Query validation failed: limit: /);
    // Dashboards and sources are not paged.
    assert.equal((await api.call('GET', '/dashboards')).json.meta, undefined);
  });

  it('creates, reads, replaces and deletes a dashboard; a missing one is text "Not Found" and its DELETE is {}', async () => {
    const created = await api.call('POST', '/dashboards', dashboardBody('Payments', ['line', 'markdown'], sourceId));
    assert.equal(created.status, 200, created.text);
    const d = dataOf<{ id: string; name: string; tiles: { id: string; config: unknown }[] }>(created);
    assert.match(d.id, OBJECT_ID);
    assert.deepEqual(dataOf(await api.call('GET', `/dashboards/${d.id}`)), d);

    const put = await api.call('PUT', `/dashboards/${d.id}`, {
      name: 'Payments v2',
      tiles: d.tiles.map((t, i) => ({ id: t.id, name: `t${i}`, x: 0, y: i * 3, w: 12, h: 3, config: t.config })),
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(dataOf<{ name: string }>(put).name, 'Payments v2');

    const del = await api.call('DELETE', `/dashboards/${d.id}`);
    assert.equal(del.status, 200);
    assert.deepEqual(del.json, {});
    for (const method of ['GET', 'PUT']) {
      const gone = await api.call(
        method,
        `/dashboards/${d.id}`,
        method === 'PUT' ? { name: 'x', tiles: [] } : undefined,
      );
      assert.equal(gone.status, 404);
      assert.equal(gone.text, 'Not Found');
    }
    const again = await api.call('DELETE', `/dashboards/${d.id}`);
    assert.equal(again.status, 200);
    assert.deepEqual(again.json, {});
  });

  it('validates a dashboard without storing it: 200 with dotted error paths, or the normalized body', async () => {
    const before = dataOf<unknown[]>(await api.call('GET', '/dashboards')).length;
    const good = await api.call('POST', '/dashboards/validate', dashboardBody('Check', ['number'], sourceId));
    assert.equal(good.status, 200);
    assert.equal(good.json.valid, true);
    assert.deepEqual(good.json.errors, []);
    assert.equal((good.json.normalized as { name: string }).name, 'Check');
    assert.equal('data' in good.json, false);
    const bad = await api.call('POST', '/dashboards/validate', { tiles: [] });
    assert.equal(bad.status, 200);
    assert.deepEqual(bad.json, { valid: false, errors: [{ path: 'name', message: 'Required' }], normalized: null });
    assert.equal(dataOf<unknown[]>(await api.call('GET', '/dashboards')).length, before);
  });

  it('refuses bodies the OSS spec refuses with {message} and a dotted path', async () => {
    const noName = await api.call('POST', '/dashboards', { tiles: [] });
    assert.equal(noName.status, 400);
    assert.deepEqual(noName.json, { message: 'Body validation failed: name: Required' });
    // No email channels and no 30s interval on a self-hosted server.
    const email = await api.call('POST', '/alerts', {
      threshold: 1,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'email', emailRecipients: ['a@example.com'] },
    });
    assert.equal(email.status, 400);
    assert.match(String(email.json.message), /^Body validation failed: channel/);
    const thirty = await api.call('POST', '/alerts', {
      threshold: 1,
      thresholdType: 'above',
      interval: '30s',
      channel: { type: 'webhook', webhookId },
    });
    assert.equal(thirty.status, 400);
    assert.match(String(thirty.json.message), /^Body validation failed: interval: must be one of/);
    const badJson = await api.call('POST', '/alerts', '{"threshold":');
    assert.deepEqual([badJson.status, badJson.json], [400, { message: 'Invalid JSON payload' }]);
    for (const path of ['/alerts/not-an-id', '/dashboards/not-an-id']) {
      const badId = await api.call('GET', path);
      assert.deepEqual(
        [badId.status, badId.json],
        [400, { message: 'Params validation failed: id: Invalid ObjectId' }],
        path,
      );
    }
  });

  it('creates, reads, replaces and deletes an alert; a missing one is 404 {message}', async () => {
    const search = dataOf<{ id: string }[]>(await api.call('GET', '/saved-searches'))[0]?.id;
    const body = {
      source: 'saved_search',
      savedSearchId: search,
      threshold: 3,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookId },
      name: 'Errors',
    };
    const created = await api.call('POST', '/alerts', body);
    assert.equal(created.status, 200, created.text);
    const a = dataOf<{ id: string; channel: unknown; channels: unknown[]; threshold: number }>(created);
    assert.deepEqual(a.channel, { type: 'webhook', webhookId });
    assert.deepEqual(a.channels, [{ type: 'webhook', webhookId }]);
    assert.equal(dataOf<{ threshold: number }>(await api.call('GET', `/alerts/${a.id}`)).threshold, 3);
    const put = await api.call('PUT', `/alerts/${a.id}`, { ...body, threshold: 9 });
    assert.equal(dataOf<{ threshold: number }>(put).threshold, 9);
    const del = await api.call('DELETE', `/alerts/${a.id}`);
    assert.deepEqual([del.status, del.json], [200, {}]);
    const gone = await api.call('GET', `/alerts/${a.id}`);
    assert.deepEqual([gone.status, gone.json], [404, { message: 'Alert not found' }]);
  });

  it('serves one source by ID, webhooks (409 while in use) and saved searches', async () => {
    const one = await api.call('GET', `/sources/${sourceId}`);
    assert.equal(dataOf<{ id: string }>(one).id, sourceId);
    const missing = await api.call('GET', '/sources/65f5e4a3b9e77c001a999999');
    assert.deepEqual([missing.status, missing.json], [404, { message: 'Source not found' }]);

    const inUse = await api.call('DELETE', `/webhooks/${webhookId}`);
    assert.equal(inUse.status, 409);
    assert.match(String(inUse.json.message), /alert/i);
    const hook = await api.call('POST', '/webhooks', {
      name: 'Relay',
      service: 'generic',
      url: 'https://relay.example.com/hook',
      headers: { Authorization: 'Bearer x' },
    });
    assert.equal(hook.status, 200, hook.text);
    const h = dataOf<Record<string, unknown>>(hook);
    assert.equal('headers' in h, false);
    assert.deepEqual((await api.call('DELETE', `/webhooks/${String(h.id)}`)).json, {});

    const ss = await api.call('POST', '/saved-searches', { name: 'Slow', sourceId, where: 'Duration > 1000' });
    assert.equal(ss.status, 200, ss.text);
    const s = dataOf<{ id: string; name: string }>(ss);
    assert.equal(dataOf<{ name: string }>(await api.call('GET', `/saved-searches/${s.id}`)).name, 'Slow');
    assert.equal((await api.call('PUT', `/saved-searches/${s.id}`, { name: 'Slower', sourceId })).status, 200);
    assert.deepEqual((await api.call('DELETE', `/saved-searches/${s.id}`)).json, {});
  });

  it('shows the team and its members read-only', async () => {
    const team = dataOf<{ id: string; name: string }>(await api.call('GET', '/team'));
    assert.match(team.id, OBJECT_ID);
    const members = dataOf<{ email: string; isCurrentUser: boolean }[]>(await api.call('GET', '/team/members'));
    assert.ok(members.length >= 2);
    assert.equal(members.filter((m) => m.isCurrentUser).length, 1);
    assert.ok(Array.isArray(dataOf(await api.call('GET', '/team/invitations'))));
  });

  it('answers faults in the OSS error shapes', async () => {
    emu.faults.add({ path: '/api/v2/alerts', status: 500, times: 1 });
    const r = await api.call('GET', '/alerts');
    assert.deepEqual([r.status, r.json], [500, { message: 'Internal Server Error' }]);
    emu.faults.add({ path: '/api/v2/alerts', status: 403, times: 1 });
    const f = await api.call('GET', '/alerts');
    assert.deepEqual([f.status, f.text], [403, 'Forbidden']);
  });

  it('checks its own responses and the request bodies against the OSS spec', () => {
    assert.deepEqual(
      checkOssResponse('GET /api/v2/alerts', { data: [], meta: { total: 0, limit: 1000, offset: 0 } }),
      [],
    );
    assert.ok(checkOssResponse('GET /api/v2/alerts', { data: [] }).some((i) => i.path === '/meta'));
    assert.ok(
      checkOssResponse('GET /api/v2/alerts/{id}', { data: { threshold: 'high' } }).some(
        (i) => i.path === '/data/threshold',
      ),
    );
    assert.equal(
      checkOssRequest('POST /api/v2/webhooks', { name: 'x', service: 'generic', url: 'https://e.example' }),
      null,
    );
    assert.equal(
      checkOssRequest('POST /api/v2/webhooks', { name: 'x', service: 'pagerduty_api', url: 'https://e.example' })?.path,
      '/service',
    );
  });
});

describe('emulator: self-hosted (OSS) rate limit', () => {
  it('limits requests per key, then answers 429 with Retry-After; the control route reports the flavor', async () => {
    const emu = await startEmulator({ flavor: 'oss', rateLimit: { requests: 3, windowMs: 60_000 } });
    try {
      const api = ossClient(emu);
      for (let i = 0; i < 3; i++) assert.equal((await api.call('GET', '/team')).status, 200);
      const limited = await api.call('GET', '/team');
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    } finally {
      await emu.close();
    }
    const info = await startEmulator({ flavor: 'oss' });
    try {
      const res = await fetch(`${info.url}/__emulator/info`);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.flavor, 'oss');
      assert.equal(body.apiKey, info.ossApiKey);
      assert.equal(body.clickHouseHttpUrl, info.clickHouseHttpUrl);
      assert.match(String(body.clickHouseHttpUrl), /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(body.clickHouseUser, info.clickHouseUser);
    } finally {
      await info.close();
    }
  });
});

describe('emulator: self-hosted (OSS) flavor answering like a newer server', () => {
  it('adds unknown fields at every level, keeps them when they come back, and caps pages', async () => {
    const emu = await startEmulator({ flavor: 'oss', rateLimit: false, futureFields: true, pageCap: 2 });
    try {
      const api = ossClient(emu);
      const list = await api.call('GET', '/dashboards');
      const d = dataOf<Record<string, unknown>[]>(list)[0] as Record<string, unknown> & {
        id: string;
        tiles: Record<string, unknown>[];
      };
      assert.ok(
        Object.keys(d).some((k) => k.startsWith('futureField_')),
        JSON.stringify(Object.keys(d)),
      );
      assert.ok(Object.keys(d.tiles[0] ?? {}).some((k) => k.startsWith('futureField_')));
      const { id, ...body } = d;
      const put = await api.call('PUT', `/dashboards/${id}`, body);
      assert.equal(put.status, 200, put.text);
      const again = dataOf<Record<string, unknown>>(await api.call('GET', `/dashboards/${id}`));
      for (const k of Object.keys(d).filter((key) => key.startsWith('futureField_'))) assert.deepEqual(again[k], d[k]);
      const page = await api.call('GET', '/alerts');
      assert.equal((page.json.data as unknown[]).length, 2);
      assert.ok((page.json.meta as { total: number }).total > 2);
    } finally {
      await emu.close();
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator';
import { basicAuth, client, OBJECT_ID, resultOf, UUID_V4, failOnResponseIssues } from './helpers';

failOnResponseIssues();

describe('emulator: envelope, auth and routing', () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  before(async () => {
    emu = await startEmulator({ rateLimit: false });
    api = client(emu);
  });
  after(() => emu.close());

  it('listens on loopback and exposes the sample key', () => {
    assert.match(emu.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(emu.keyId, 'emuK7QxLr9Tz2Wm5PdVa');
    assert.equal(emu.serviceIds.length, 3);
  });

  it('wraps lists in {status, requestId, result: []}', async () => {
    const r = await api.call('GET', '/dashboards');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.json).sort(), ['requestId', 'result', 'status']);
    assert.equal(r.json.status, 200);
    assert.match(String(r.json.requestId), UUID_V4);
    assert.equal(r.headers.get('x-request-id'), r.json.requestId);
    const list = resultOf<{ id: string; name: string }[]>(r);
    assert.ok(Array.isArray(list) && list.length >= 3);
    for (const d of list) assert.match(d.id, OBJECT_ID);
  });

  it('gives every response a fresh UUIDv4 requestId', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const r = await api.call('GET', i % 2 ? '/sources' : '/nope');
      const id = r.headers.get('x-request-id') ?? String(r.json.requestId);
      if (i % 2) {
        assert.match(id, UUID_V4);
        ids.add(id);
      }
    }
    const bad = await api.call('GET', '/sources', undefined, { authorization: basicAuth('x', 'y') });
    ids.add(String(bad.json.requestId));
    assert.equal(ids.size, 11);
  });

  it('answers DELETE with {status, requestId} and no result', async () => {
    const created = await api.call('POST', '/dashboards', { name: 'Scratch', tiles: [] });
    assert.equal(created.status, 200);
    const id = resultOf<{ id: string }>(created).id;
    const del = await api.call('DELETE', `/dashboards/${id}`);
    assert.equal(del.status, 200);
    assert.deepEqual(Object.keys(del.json).sort(), ['requestId', 'status']);
    const gone = await api.call('GET', `/dashboards/${id}`);
    assert.equal(gone.status, 404);
    assert.deepEqual(Object.keys(gone.json).sort(), ['error', 'requestId', 'status']);
    assert.equal(gone.json.error, 'Dashboard not found');
  });

  it('rejects missing and wrong credentials with 401 JSON', async () => {
    for (const authorization of [
      '',
      basicAuth(emu.keyId, 'wrong-secret'),
      basicAuth('other', emu.keySecret),
      'Bearer abc',
    ]) {
      const r = await api.call('GET', '/alerts', undefined, { authorization });
      assert.equal(r.status, 401);
      assert.equal(r.json.status, 401);
      assert.equal(r.json.error, 'Invalid credentials');
      assert.match(String(r.json.requestId), UUID_V4);
    }
    const log = emu.requests.filter((q) => q.status === 401);
    assert.ok(log.length >= 4 && log.every((q) => !q.authorized));
  });

  it('serves the Express HTML 404 for unserved routes, methods and segments', async () => {
    const wrongSegment = await api.call(
      'GET',
      `/v1/organizations/${emu.organizationId}/services/${emu.serviceIds[0]}/clickstack/dashboards`,
    );
    assert.equal(wrongSegment.status, 404);
    assert.match(wrongSegment.headers.get('content-type') ?? '', /^text\/html/);
    assert.ok(
      wrongSegment.text.includes(
        `<pre>Cannot GET /v1/organizations/${emu.organizationId}/services/${emu.serviceIds[0]}/clickstack/dashboards</pre>`,
      ),
    );
    assert.ok(wrongSegment.text.startsWith('<!DOCTYPE html>'));
    const method = await api.call('PATCH', '/alerts');
    assert.equal(method.status, 404);
    assert.ok(method.text.includes('Cannot PATCH '));
    const unknown = await api.call('POST', '/connections', {});
    assert.ok(unknown.text.includes('Cannot POST '));
  });

  it('returns a JSON 404 for an unknown organization or service', async () => {
    const org = await api.call('GET', `/v1/organizations/00000000-0000-4000-8000-000000000000/services`);
    assert.equal(org.status, 404);
    assert.equal(org.json.status, 404);
    const svc = await api.call(
      'GET',
      `/v1/organizations/${emu.organizationId}/services/00000000-0000-4000-8000-000000000000/observability/alerts`,
    );
    assert.equal(svc.status, 404);
    assert.match(String(svc.json.error), /Service .* not found/);
  });

  it('rejects invalid JSON and bodies that do not fit the official schema', async () => {
    const badJson = await api.call('POST', '/dashboards', '{"name": ');
    assert.equal(badJson.status, 400);
    assert.equal(badJson.json.error, 'Invalid JSON payload');
    const wrongType = await api.call('POST', '/dashboards', { name: 42, tiles: [] });
    assert.equal(wrongType.status, 400);
    assert.equal(wrongType.json.error, 'Body validation failed: /name: must be string');
    const missing = await api.call('POST', '/dashboards', { name: 'x' });
    assert.equal(missing.json.error, 'Body validation failed: /tiles: is required');
    const notObject = await api.call('POST', '/webhooks', '[1]');
    assert.equal(notObject.status, 400);
    const noType = await fetch(`${api.base}/dashboards`, {
      method: 'POST',
      headers: { authorization: api.auth },
      body: JSON.stringify({ name: 'x', tiles: [] }),
    });
    assert.equal(noType.status, 400);
    assert.match(String(((await noType.json()) as { error: string }).error), /\/name: is required/);
  });

  it('lists the organization, its services and API keys', async () => {
    const orgs = resultOf<{ id: string }[]>(await api.call('GET', '/v1/organizations'));
    assert.deepEqual(
      orgs.map((o) => o.id),
      [emu.organizationId],
    );
    const org = resultOf<{ name: string }>(await api.call('GET', `/v1/organizations/${emu.organizationId}`));
    assert.equal(org.name, 'Northwind Observability');
    const services = resultOf<{ id: string; state: string; provider: string }[]>(
      await api.call('GET', `/v1/organizations/${emu.organizationId}/services`),
    );
    assert.deepEqual(
      services.map((s) => s.id),
      emu.serviceIds,
    );
    assert.deepEqual(
      services.map((s) => s.provider),
      ['aws', 'gcp', 'azure'],
    );
    const one = resultOf<{ id: string }>(
      await api.call('GET', `/v1/organizations/${emu.organizationId}/services/${emu.serviceIds[1]}`),
    );
    assert.equal(one.id, emu.serviceIds[1]);
    const keys = resultOf<{ id: string; keySuffix: string; state: string }[]>(
      await api.call('GET', `/v1/organizations/${emu.organizationId}/keys`),
    );
    assert.ok(keys.some((k) => k.keySuffix === emu.keyId.slice(-4) && k.state === 'enabled'));
    for (const k of keys) assert.match(k.id, UUID_V4);
  });

  it('seeds sources of every kind, webhooks and saved searches; the third service is empty', async () => {
    const kinds = resultOf<{ kind: string }[]>(await api.call('GET', '/sources')).map((s) => s.kind);
    assert.deepEqual([...kinds].sort(), ['log', 'metric', 'session', 'trace']);
    const services = resultOf<{ service: string }[]>(await api.call('GET', '/webhooks')).map((w) => w.service);
    assert.deepEqual([...services].sort(), ['generic', 'pagerduty_api', 'slack']);
    const alerts = resultOf<
      { state: string; silenced?: unknown; executionErrors: { type: string }[]; source: string }[]
    >(await api.call('GET', '/alerts'));
    assert.deepEqual([...new Set(alerts.map((a) => a.state))].sort(), [
      'ALERT',
      'DISABLED',
      'INSUFFICIENT_DATA',
      'OK',
      'PENDING',
    ]);
    assert.ok(alerts.some((a) => a.silenced));
    const errorTypes = alerts.flatMap((a) => a.executionErrors.map((e) => e.type));
    assert.ok(errorTypes.includes('QUERY_ERROR') && errorTypes.includes('WEBHOOK_ERROR'));
    assert.deepEqual([...new Set(alerts.map((a) => a.source))].sort(), ['saved_search', 'tile']);
    const empty = client(emu, 2);
    for (const path of ['/dashboards', '/alerts', '/sources', '/webhooks', '/saved-searches']) {
      assert.deepEqual(resultOf(await empty.call('GET', path)), []);
    }
  });

  it('records API requests but not control requests', async () => {
    emu.requests.length = 0;
    await api.call('POST', '/dashboards', { name: 'Recorded', tiles: [] });
    await fetch(`${emu.url}/__emulator/requests`);
    assert.equal(emu.requests.length, 1);
    const rec = emu.requests[0];
    assert.ok(rec);
    assert.equal(rec.method, 'POST');
    assert.equal(rec.status, 200);
    assert.equal(rec.authorized, true);
    assert.deepEqual(rec.body, { name: 'Recorded', tiles: [] });
    assert.match(rec.requestId, UUID_V4);
  });

  it('serves a configurable path segment', async () => {
    const live = await startEmulator({ segment: 'clickstack', rateLimit: false });
    try {
      const api2 = client(live, 0, 'clickstack');
      assert.equal((await api2.call('GET', '/dashboards')).status, 200);
      const old = await client(live).call('GET', '/dashboards');
      assert.equal(old.status, 404);
      assert.match(old.headers.get('content-type') ?? '', /text\/html/);
    } finally {
      await live.close();
    }
  });

  it('is deterministic across starts and reset() restores the seed', async () => {
    const other = await startEmulator({ rateLimit: false });
    try {
      const a = resultOf<{ id: string }[]>(await api.call('GET', '/alerts')).map((x) => x.id);
      const b = resultOf<{ id: string }[]>(await client(other).call('GET', '/alerts')).map((x) => x.id);
      assert.deepEqual(b.slice(0, 8), a.slice(0, 8));
      emu.reset();
      assert.equal(emu.requests.length, 0);
      const dashboards = resultOf<{ name: string }[]>(await api.call('GET', '/dashboards'));
      assert.ok(!dashboards.some((d) => d.name === 'Recorded'));
    } finally {
      await other.close();
    }
  });
});

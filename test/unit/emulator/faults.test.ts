import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator';
import { client, resultOf, failOnResponseIssues } from './helpers';

failOnResponseIssues();

describe('emulator: fault injection', () => {
  let emu: Emulator;
  let api: ReturnType<typeof client>;
  let alertsPath: string;
  before(async () => {
    emu = await startEmulator({ rateLimit: false });
    api = client(emu);
    alertsPath = new URL(`${api.base}/alerts`).pathname;
  });
  afterEach(() => emu.faults.clear());
  after(() => emu.close());

  it('overrides status and body, before auth, for `times` requests', async () => {
    emu.faults.add({
      path: alertsPath,
      status: 503,
      body: { status: 503, error: 'Service temporarily unavailable', requestId: 'x' },
      times: 2,
    });
    const unauth = await api.call('GET', '/alerts', undefined, { authorization: '' });
    assert.equal(unauth.status, 503);
    assert.equal((await api.call('GET', '/alerts')).status, 503);
    assert.equal((await api.call('GET', '/alerts')).status, 200);
  });

  it('builds an error envelope when only a status is given, and matches method and RegExp', async () => {
    emu.faults.add({ method: 'POST', path: /\/alerts$/, status: 500 });
    assert.equal((await api.call('GET', '/alerts')).status, 200);
    const r = await api.call('POST', '/alerts', {});
    assert.equal(r.status, 500);
    assert.equal(r.json.status, 500);
    assert.equal(r.json.error, 'Internal Server Error');
    assert.equal(typeof r.json.requestId, 'string');
  });

  it('adds headers and serves string bodies (e.g. an HTML page)', async () => {
    emu.faults.add({
      path: alertsPath,
      status: 429,
      headers: { 'X-RateLimit-Reset': '3' },
      body: { status: 429, error: 'Rate limit exceeded', requestId: 'r' },
      times: 1,
    });
    const limited = await api.call('GET', '/alerts');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('x-ratelimit-reset'), '3');
    emu.faults.add({
      path: `${alertsPath.replace(/alerts$/, '')}*`,
      status: 502,
      body: '<html><body>Bad gateway</body></html>',
      times: 1,
    });
    const html = await api.call('GET', '/dashboards');
    assert.equal(html.status, 502);
    assert.match(html.headers.get('content-type') ?? '', /text\/html/);
  });

  it('delays a real response', async () => {
    emu.faults.add({ path: alertsPath, delayMs: 250, times: 1 });
    const t0 = Date.now();
    const r = await api.call('GET', '/alerts');
    assert.equal(r.status, 200);
    assert.ok(Date.now() - t0 >= 240);
  });

  it('resets the connection before headers', async () => {
    emu.faults.add({ path: alertsPath, reset: 'before-headers', times: 1 });
    await assert.rejects(api.call('GET', '/alerts'));
    assert.equal(emu.requests.at(-1)?.status, 0);
    assert.equal((await api.call('GET', '/alerts')).status, 200);
  });

  it('resets the connection in the middle of the body', async () => {
    emu.faults.add({ path: alertsPath, reset: 'mid-body', times: 1 });
    const res = await fetch(`${api.base}/alerts`, { headers: { authorization: api.auth } });
    assert.equal(res.status, 200);
    await assert.rejects(res.text());
  });

  it('sends malformed JSON with a JSON content type', async () => {
    emu.faults.add({ path: alertsPath, malformedJson: true, times: 1 });
    const r = await api.call('GET', '/alerts');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /application\/json/);
    assert.throws(() => JSON.parse(r.text));
  });

  it('drips the body slowly but completely', async () => {
    emu.faults.add({ path: alertsPath, dripMs: 15, times: 1 });
    const t0 = Date.now();
    const r = await api.call('GET', '/alerts');
    assert.ok(Date.now() - t0 >= 15 * 10);
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(resultOf(r)));
  });

  it('is controllable over HTTP: add (string and regex), list, clear, reset, requests', async () => {
    const add = await fetch(`${emu.url}/__emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: { regex: '/webhooks$' }, status: 418, times: 1 }),
    });
    assert.equal(add.status, 200);
    await fetch(`${emu.url}/__emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: alertsPath, status: 500 }),
    });
    const listed = (await (await fetch(`${emu.url}/__emulator/faults`)).json()) as unknown[];
    assert.equal(listed.length, 2);
    assert.equal((await api.call('GET', '/webhooks')).status, 418);
    assert.equal((await api.call('GET', '/alerts')).status, 500);
    assert.equal((await fetch(`${emu.url}/__emulator/faults`, { method: 'DELETE' })).status, 200);
    assert.equal((await api.call('GET', '/alerts')).status, 200);

    const bad = await fetch(`${emu.url}/__emulator/faults`, { method: 'POST', body: JSON.stringify({ status: 500 }) });
    assert.equal(bad.status, 400);

    const requests = (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as {
      path: string;
      status: number;
    }[];
    assert.ok(requests.length > 0);
    assert.ok(requests.every((q) => !q.path.startsWith('/__emulator')));

    await api.call('POST', '/dashboards', { name: 'Temp', tiles: [] });
    const reset = await fetch(`${emu.url}/__emulator/reset`, {
      method: 'POST',
      body: JSON.stringify({ data: 'empty' }),
    });
    assert.equal(reset.status, 200);
    assert.deepEqual(resultOf(await api.call('GET', '/dashboards')), []);
    await fetch(`${emu.url}/__emulator/reset`, { method: 'POST', body: JSON.stringify({ data: 'sample' }) });
    // The sample service's four dashboards are back.
    assert.equal(resultOf<unknown[]>(await api.call('GET', '/dashboards')).length, 4);
  });
});

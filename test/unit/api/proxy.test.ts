/** Proxy routing through a real forward proxy on loopback (absolute-form HTTP and CONNECT). */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { startProxy, type TestProxy } from '../../support/proxy';
import { startEmulator, type Emulator } from '../../emulator/server';
import {
  ApiError,
  ObservabilityClient,
  RateLimiter,
  createDispatcher,
  resolveProxy,
  type Dispatcher,
} from '../../../src/api';
import { ProxyAgent } from '../../../src/api/undici';
import { send } from '../../../src/api/http';

describe('proxy support', () => {
  let emu: Emulator;
  let proxy: TestProxy;
  const dispatchers: Dispatcher[] = [];

  before(async () => {
    emu = await startEmulator({ rateLimit: false });
    proxy = await startProxy({ resolve: { 'api.example.test': '127.0.0.1' } });
  });
  after(async () => {
    await Promise.all(dispatchers.map((d) => d.close()));
    await proxy.close();
    await emu.close();
  });

  function track(d: Dispatcher): Dispatcher {
    dispatchers.push(d);
    return d;
  }

  function client(dispatcher: Dispatcher): ObservabilityClient {
    return new ObservabilityClient({
      connection: {
        baseUrl: emu.url,
        organizationId: emu.organizationId,
        serviceIds: emu.serviceIds,
        keyId: emu.keyId,
        pathSegment: 'observability',
      },
      getSecret: () => emu.keySecret,
      dispatcher,
      limiter: new RateLimiter({ requests: 1000, windowMs: 1000 }),
      retry: { maxAttempts: 1 },
    });
  }

  const get = (dispatcher: Dispatcher, origin: string) =>
    send(dispatcher, {
      origin,
      path: '/v1/organizations',
      method: 'GET',
      headers: {
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${emu.keyId}:${emu.keySecret}`).toString('base64')}`,
      },
      headersTimeoutMs: 5000,
      bodyTimeoutMs: 5000,
    });

  it('an explicit proxy carries the requests (absolute-form HTTP)', async () => {
    const before = proxy.count;
    const c = client(track(createDispatcher({ proxy: proxy.url, proxyLoopback: true, env: {} })));
    const res = await c.listSources(emu.serviceIds[0]);
    assert.ok(res.data.length > 0);
    await c.listDashboards(emu.serviceIds[0]);
    const records = proxy.records.slice(before);
    assert.equal(records.length, 2);
    assert.ok(records.every((r) => r.kind === 'http' && r.target.startsWith(emu.url)));
  });

  it('a tunnelling proxy agent carries the requests (CONNECT)', async () => {
    const before = proxy.count;
    const c = client(track(new ProxyAgent({ uri: proxy.url, proxyTunnel: true })));
    await c.listSources(emu.serviceIds[0]);
    const records = proxy.records.slice(before);
    assert.equal(records.length, 1);
    assert.equal(records[0].kind, 'connect');
    assert.equal(records[0].target, new URL(emu.url).host);
    assert.equal(records[0].sawAuthorization, false, 'credentials stay inside the tunnel');
  });

  it('HTTP_PROXY from the environment carries the requests', async () => {
    const before = proxy.count;
    const c = client(track(createDispatcher({ env: { HTTP_PROXY: proxy.url }, proxyLoopback: true })));
    await c.listSources(emu.serviceIds[0]);
    assert.equal(proxy.count - before, 1);

    const port = new URL(emu.url).port;
    const viaName = await get(
      track(createDispatcher({ env: { http_proxy: proxy.url } })),
      `http://api.example.test:${port}`,
    );
    assert.equal(viaName.status, 200);
    assert.equal(proxy.count - before, 2);
    assert.equal(proxy.records[proxy.records.length - 1].target, `http://api.example.test:${port}/v1/organizations`);
  });

  it('HTTPS targets go through HTTPS_PROXY with CONNECT', async () => {
    const before = proxy.count;
    const port = new URL(emu.url).port;
    // The target speaks plain HTTP, so TLS fails after the tunnel; the tunnel itself proves the route.
    await assert.rejects(
      get(track(createDispatcher({ env: { HTTPS_PROXY: proxy.url } })), `https://api.example.test:${port}`),
    );
    assert.equal(proxy.count - before, 1);
    assert.deepEqual(proxy.records[proxy.records.length - 1], {
      kind: 'connect',
      target: `api.example.test:${port}`,
      sawAuthorization: false,
    });
  });

  it('NO_PROXY bypasses the proxy', async () => {
    const before = proxy.count;
    const c = client(
      track(
        createDispatcher({ env: { HTTP_PROXY: proxy.url, NO_PROXY: 'example.org, 127.0.0.1' }, proxyLoopback: true }),
      ),
    );
    await c.listSources(emu.serviceIds[0]);
    const explicit = client(
      track(createDispatcher({ proxy: proxy.url, noProxy: '127.0.0.1', proxyLoopback: true, env: {} })),
    );
    await explicit.listSources(emu.serviceIds[0]);
    // A bypassed name is resolved directly (and does not exist), so the proxy never sees it.
    const port = new URL(emu.url).port;
    await assert.rejects(
      get(
        track(createDispatcher({ env: { HTTP_PROXY: proxy.url, NO_PROXY: '.example.test' } })),
        `http://api.example.test:${port}`,
      ),
    );
    assert.equal(proxy.count, before);
  });

  it('loopback is never proxied unless asked for', async () => {
    const before = proxy.count;
    await client(track(createDispatcher({ env: { HTTP_PROXY: proxy.url } }))).listSources(emu.serviceIds[0]);
    await client(track(createDispatcher({ proxy: proxy.url, env: {} }))).listSources(emu.serviceIds[0]);
    assert.equal(proxy.count, before);
  });

  it('resolveProxy: explicit wins, lower case env wins, bad URLs are refused', () => {
    assert.equal(resolveProxy({ proxy: 'http://p:1', env: { HTTPS_PROXY: 'http://e:2' } }).httpsProxy, 'http://p:1');
    assert.equal(
      resolveProxy({ env: { https_proxy: 'http://l:1', HTTPS_PROXY: 'http://u:2' } }).httpsProxy,
      'http://l:1',
    );
    assert.equal(resolveProxy({ env: { HTTP_PROXY: 'http://h:1' } }).httpsProxy, 'http://h:1');
    assert.equal(resolveProxy({ env: {} }).source, 'none');
    assert.equal(resolveProxy({ env: { NO_PROXY: 'a,b' } }).noProxy, 'a,b');
    assert.throws(
      () => createDispatcher({ proxy: 'socks5://x:1' }),
      (e: unknown) => ApiError.is(e, 'invalidInput'),
    );
    assert.throws(
      () => createDispatcher({ proxy: 'http://user:topsecret@[bad' }),
      (e: unknown) => ApiError.is(e, 'invalidInput') && !e.message.includes('topsecret'),
    );
  });
});

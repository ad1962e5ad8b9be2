/**
 * Proxies, inside the extension host: a connection to an HTTPS origin whose name only the proxy resolves
 * (`api.observability.test`, served by a TLS front with a self-signed certificate before the emulator) goes through
 * the proxy set in the user setting `http.proxy` (one CONNECT tunnel counted); with `http.proxyStrictSSL` on, the
 * self-signed certificate fails the request with a certificate error naming the operation and nothing reaches the
 * server; with it off the requests succeed; a host listed in `http.noProxy` or in the NO_PROXY environment variable
 * never reaches the proxy.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { TestProxy } from '../support/proxy';
import { TEST_HOST } from '../support/testCertificate';
import { startTlsFront, type TlsFront } from '../support/tlsFront';
import {
  activate,
  rejection as rejectionOf,
  routeThroughProxy,
  setHttp,
  type ExtensionApi,
  type RoutedThroughProxy,
} from './support';

const rejection = (promise: Thenable<unknown>) => rejectionOf(promise, 'expected the request to fail');

describe('Proxy settings', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let emulator: Emulator;
  let front: TlsFront;
  let routed: RoutedThroughProxy | undefined;
  let proxy: TestProxy;
  let baseUrl: string;
  let connectionId: string;

  const listSources = () => api.connections.clientFor(connectionId).listSources(emulator.serviceIds[0]);
  const tunnels = (since: number) => proxy.records.slice(since);

  before(async () => {
    api = await activate();
    emulator = await startEmulator({ rateLimit: false });
    front = await startTlsFront({ port: Number(new URL(emulator.url).port) });
    // Neither the environment nor an earlier setting may bypass the proxy by accident.
    routed = await routeThroughProxy({ resolve: { [TEST_HOST]: '127.0.0.1' } });
    proxy = routed.proxy;
    baseUrl = `https://${TEST_HOST}:${front.port}`;
    const id = await vscode.commands.executeCommand<unknown>('observability.addConnection', {
      baseUrl,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [emulator.serviceIds[0]],
      pathSegment: 'observability',
      label: 'Behind a proxy',
      skipCheck: true,
    });
    assert.equal(typeof id, 'string', 'Add Connection did not return the new connection ID');
    connectionId = id as string;
  });

  after(async () => {
    if (connectionId && api.connections.get(connectionId)) await api.connections.remove(connectionId);
    await routed?.restore();
    await front?.close();
    await emulator?.close();
  });

  it('with http.proxyStrictSSL on, a self-signed certificate fails the request with a certificate error naming the operation', async () => {
    await setHttp('proxyStrictSSL', true);
    const seen = proxy.count;
    const requestsBefore = emulator.requests.length;
    const error = await rejection(listSources());
    assert.match(error.message, /^List sources failed:/, error.message);
    assert.match(error.message, /certificate/i, error.message);
    assert.ok(error.message.includes(TEST_HOST), `the message does not name the host: ${error.message}`);
    assert.ok(!error.message.includes(emulator.keySecret), 'the message shows the secret');

    const records = tunnels(seen);
    assert.ok(records.length >= 1, 'the request did not go through the proxy');
    for (const r of records) {
      assert.equal(r.kind, 'connect', `the proxy saw a plain request: ${r.target}`);
      assert.equal(r.target, `${TEST_HOST}:${front.port}`);
      assert.equal(r.sawAuthorization, false, 'the proxy saw the Authorization header');
    }
    assert.equal(front.handshakes, 0, 'a TLS handshake completed despite the untrusted certificate');
    assert.equal(
      emulator.requests.length,
      requestsBefore,
      'a request reached the server despite the certificate error',
    );
  });

  it('with http.proxyStrictSSL off, requests go through one CONNECT tunnel of the http.proxy and succeed', async () => {
    await setHttp('proxyStrictSSL', false);
    const seen = proxy.count;
    const requestsBefore = emulator.requests.length;
    const first = await listSources();
    assert.equal(first.status, 200);
    assert.ok(Array.isArray(first.data));
    const second = await listSources();
    assert.equal(second.status, 200);

    const records = tunnels(seen);
    assert.ok(records.length >= 1, 'the requests did not go through the proxy');
    assert.ok(records.length <= 2, `expected the tunnel to be reused, saw ${records.length}`);
    for (const r of records) {
      assert.equal(r.kind, 'connect', `the proxy saw a plain request: ${r.target}`);
      assert.equal(r.target, `${TEST_HOST}:${front.port}`);
      assert.equal(r.sawAuthorization, false, 'the proxy saw the Authorization header');
    }
    const served = emulator.requests.slice(requestsBefore);
    assert.equal(served.length, 2);
    assert.ok(
      served.every((r) => r.status === 200 && r.authorized),
      'the server did not answer both requests as authorized',
    );
  });

  it('the Add Connection check also goes through the proxy', async () => {
    // Toggling the setting rebuilds the dispatcher, so the check cannot reuse an earlier tunnel.
    await setHttp('proxyStrictSSL', true);
    await setHttp('proxyStrictSSL', false);
    const seen = proxy.count;
    const requestsBefore = emulator.requests.length;
    const id = await vscode.commands.executeCommand<unknown>('observability.addConnection', {
      baseUrl,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [emulator.serviceIds[0]],
      pathSegment: 'observability',
      label: 'Checked behind a proxy',
    });
    assert.equal(typeof id, 'string');
    await api.connections.remove(id as string);
    assert.ok(
      tunnels(seen).some((r) => r.kind === 'connect' && r.target === `${TEST_HOST}:${front.port}`),
      'the check did not go through the proxy',
    );
    assert.ok(
      emulator.requests.slice(requestsBefore).some((r) => r.status === 200 && r.authorized),
      'the check did not reach the server',
    );
  });

  it("proxy settings in a repository's .vscode/settings.json are ignored: it cannot route a stored key through its proxy", async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test host opens a workspace folder');
    await setHttp('proxy', undefined);
    await setHttp('proxyStrictSSL', true);
    const dir = path.join(folder.uri.fsPath, '.vscode');
    const file = path.join(dir, 'settings.json');
    const existed = fs.existsSync(file);
    const previous = existed ? fs.readFileSync(file, 'utf8') : undefined;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({ 'http.proxy': proxy.url, 'http.proxyStrictSSL': false, 'http.noProxy': [] }, null, 2),
    );
    try {
      // Give VS Code time to read the file (it ignores these machine-wide settings in a workspace).
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const seen = proxy.count;
      const accepted = front.connections;
      // Without the user's proxy the made-up host is tried directly and cannot be resolved.
      const error = await rejection(listSources());
      assert.match(error.message, /^List sources failed:/, error.message);
      assert.equal(proxy.count, seen, `the workspace's proxy was used: ${JSON.stringify(tunnels(seen))}`);
      assert.equal(front.connections, accepted, 'a connection reached the server');
    } finally {
      if (previous !== undefined) fs.writeFileSync(file, previous);
      else fs.rmSync(file, { force: true });
      await setHttp('proxy', proxy.url);
    }
  });

  it('a host listed in http.noProxy does not reach the proxy', async () => {
    await setHttp('proxyStrictSSL', false);
    await setHttp('noProxy', [TEST_HOST]);
    try {
      const seen = proxy.count;
      const accepted = front.connections;
      // Only the proxy knows the made-up name, so going direct must fail to resolve it.
      const error = await rejection(listSources());
      assert.match(error.message, /^List sources failed:/, error.message);
      assert.match(error.message, /resolve|ENOTFOUND|EAI_AGAIN/, error.message);
      assert.equal(proxy.count, seen, `the proxy was used: ${JSON.stringify(tunnels(seen))}`);
      assert.equal(front.connections, accepted);
    } finally {
      await setHttp('noProxy', undefined);
    }
  });

  it('a host listed in the NO_PROXY environment variable does not reach the proxy', async () => {
    await setHttp('proxyStrictSSL', false);
    await setHttp('noProxy', undefined);
    process.env.NO_PROXY = `localhost,.example.com,${TEST_HOST}`;
    try {
      // The environment is read when the dispatcher is built: change a proxy setting to rebuild it.
      await setHttp('proxyStrictSSL', true);
      const seen = proxy.count;
      const error = await rejection(listSources());
      assert.match(error.message, /resolve|ENOTFOUND|EAI_AGAIN/, error.message);
      assert.equal(proxy.count, seen, `the proxy was used: ${JSON.stringify(tunnels(seen))}`);
    } finally {
      delete process.env.NO_PROXY;
      await setHttp('proxyStrictSSL', false);
    }
    // Without the entry the same connection goes through the proxy again.
    const seen = proxy.count;
    const ok = await listSources();
    assert.equal(ok.status, 200);
    assert.ok(proxy.count > seen, 'the proxy was not used once NO_PROXY no longer listed the host');
  });
});

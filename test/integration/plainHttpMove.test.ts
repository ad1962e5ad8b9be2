/**
 * A plain-http permission belongs to the address it was confirmed for. A self-hosted deployment on another machine
 * (`hyperdx.observability.test`, a name only the test proxy resolves, to the emulator on loopback) is added over
 * plain http with the permission, and its ClickHouse access on the same host; SQL reaches ClickHouse through the
 * proxy. Once the connection moves to https, neither its own permission nor the one its ClickHouse access had under it
 * admits plain http any more: the statement is refused before anything is sent (the proxy sees nothing). The same goes
 * for a permission left over in state as an older version wrote it. Moving back to plain http asks again, and
 * ClickHouse's permission comes back only when its access is set again.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CONNECTIONS_STATE_KEY } from '../../src/constants';
import { startEmulator, type Emulator } from '../emulator/server';
import type { TestProxy } from '../support/proxy';
import { activate, rejection, routeThroughProxy, type ExtensionApi, type RoutedThroughProxy } from './support';

const HOST = 'hyperdx.observability.test';

describe('Plain-http permissions follow the address they were given for', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let oss: Emulator;
  let routed: RoutedThroughProxy | undefined;
  let proxy: TestProxy;
  let id = '';
  const port = (url: string) => new URL(url).port;
  const apiUrl = () => `http://${HOST}:${port(oss.url)}`;
  const clickHouseUrl = () => `http://${HOST}:${port(oss.clickHouseHttpUrl)}`;
  const toClickHouse = (since: number) =>
    proxy.records.slice(since).filter((r) => r.target.includes(`:${port(oss.clickHouseHttpUrl)}`));
  // Refusals may come before any promise (while the client is built): one rejected promise either way.
  const selectOne = () => Promise.resolve().then(() => api.query.run(id, { sql: 'SELECT 1', maxRows: 1 }));
  const setAccess = (user = oss.clickHouseUser) =>
    vscode.commands.executeCommand('observability.setClickHouseAccess', {
      connectionId: id,
      url: clickHouseUrl(),
      user,
      password: oss.clickHousePassword,
      skipCheck: true,
    });
  const storedEntry = () =>
    api.connections.globalState.get<Record<string, unknown>[]>(CONNECTIONS_STATE_KEY)!.find((c) => c.id === id)!;

  before(async () => {
    api = await activate();
    oss = await startEmulator({ flavor: 'oss', rateLimit: false });
    routed = await routeThroughProxy({ resolve: { [HOST]: '127.0.0.1' } });
    proxy = routed.proxy;
    id = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: apiUrl(),
      apiKey: oss.ossApiKey,
      allowPlainHttp: true,
      label: 'Plain-http deployment',
    });
    assert.ok(id, 'added (its check went through the proxy)');
  });

  after(async () => {
    if (id && api.connections.get(id)) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId: id, noPrompt: true });
    }
    await routed?.restore();
    await oss?.close();
  });

  it('admits plain http to ClickHouse on the connection’s own host while its permission holds', async () => {
    assert.equal(api.connections.get(id)?.allowPlainHttp, true);
    await setAccess();
    const since = proxy.records.length;
    const result = await selectOne();
    assert.deepEqual(result.rows, [[1]]);
    assert.ok(toClickHouse(since).length >= 1, 'the statement went to ClickHouse through the proxy');
    assert.equal(storedEntry().plainHttpOrigin, apiUrl(), 'the permission names the origin it was given for');
    assert.deepEqual(api.connections.get(id)?.clickHouse, {
      url: clickHouseUrl(),
      user: oss.clickHouseUser,
      plainHttpOrigin: clickHouseUrl(),
    });
  });

  it('drops both permissions when the connection moves to https: SQL to the plain-http ClickHouse is refused, nothing sent', async () => {
    const moved = `https://${HOST}:${port(oss.url)}`;
    // The store's own update, as any caller (the edit command, another window) reaches it.
    await api.connections.update(id, { baseUrl: moved }, oss.ossApiKey);
    const since = proxy.records.length;
    const refused = await rejection(selectOne(), 'plain http to ClickHouse must be refused');
    assert.match(refused.message, /must use https/);
    assert.deepEqual(toClickHouse(since), [], 'nothing reached ClickHouse');
    assert.ok(!refused.message.includes(oss.clickHousePassword));
    const now = api.connections.get(id)!;
    assert.equal(now.baseUrl, moved);
    assert.equal(now.allowPlainHttp, false);
    assert.equal(now.clickHouse?.plainHttpOrigin, undefined, "ClickHouse's permission went with the old address");
    assert.equal(storedEntry().plainHttpOrigin, undefined);
    assert.equal(storedEntry().allowPlainHttp, false, 'older versions read no permission either');
    assert.deepEqual(now.clickHouse, { url: clickHouseUrl(), user: oss.clickHouseUser }, 'the access itself stays');
  });

  it('a leftover permission as an older version stored it (a bare allowPlainHttp on an https address) admits nothing', async () => {
    const entries = api.connections.globalState.get<Record<string, unknown>[]>(CONNECTIONS_STATE_KEY)!;
    const leftover = entries.map((e) =>
      e.id === id
        ? {
            ...e,
            allowPlainHttp: true,
            // Another user, so the SQL client is built afresh from what is stored now.
            clickHouse: { url: clickHouseUrl(), user: 'leftover' },
          }
        : e,
    );
    await api.connections.globalState.update(CONNECTIONS_STATE_KEY, leftover);
    const since = proxy.records.length;
    const refused = await rejection(selectOne(), 'plain http to ClickHouse must be refused');
    assert.match(refused.message, /must use https/);
    assert.deepEqual(toClickHouse(since), [], 'nothing reached ClickHouse');
    assert.equal(api.connections.get(id)?.allowPlainHttp, false);
  });

  it('moving back to plain http needs the confirmation again; ClickHouse over plain http needs its access set again', async () => {
    const withoutConsent = await rejection(
      vscode.commands.executeCommand('observability.editConnection', {
        connectionId: id,
        baseUrl: apiUrl(),
        apiKey: oss.ossApiKey,
      }),
    );
    assert.match(withoutConsent.message, /unencrypted/);
    assert.match(api.connections.get(id)!.baseUrl, /^https:/, 'nothing changed');
    await vscode.commands.executeCommand('observability.editConnection', {
      connectionId: id,
      baseUrl: apiUrl(),
      apiKey: oss.ossApiKey,
      allowPlainHttp: true,
    });
    assert.equal(api.connections.get(id)?.allowPlainHttp, true);
    assert.equal(storedEntry().plainHttpOrigin, apiUrl());
    const since = proxy.records.length;
    await rejection(selectOne(), 'ClickHouse has no permission of its own yet');
    assert.deepEqual(toClickHouse(since), []);
    await setAccess();
    const result = await selectOne();
    assert.deepEqual(result.rows, [[1]]);
    assert.ok(toClickHouse(since).length >= 1);
  });
});

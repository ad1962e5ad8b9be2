/**
 * The key secret stays secret: after a session of many commands (add a connection with its check, browse, create,
 * update, delete, failures, a refused secret), the secret and its Basic form are nowhere in what the extension writes
 * or returns — the log, the settings, global state, messages and command results. Credentials go only to the
 * connection's origin: a redirect to another host is not followed.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { ApplyResult } from '../../src/resourceDocuments/apply';
import type { DeleteResult } from '../../src/tree/commands';
import {
  EXTENSION_ID,
  activate,
  alertTarget,
  closeAll,
  configure,
  logFile as logFileOf,
  readFile,
  replaceText,
} from './support';

const REFUSED_SECRET = 'refusedSecret-7Qk2Lm9Xv4Rt8Wz1';

interface TreeNodeLike {
  readonly type: string;
}
interface Api {
  readonly logUri: vscode.Uri;
  readonly connections: { readonly globalState: vscode.Memento; secretsInUse(): string[] };
  readonly tree: {
    readonly provider: {
      getChildren(node?: unknown): Promise<TreeNodeLike[]>;
      getTreeItem(node: unknown): vscode.TreeItem;
      folder(connectionId: string, serviceId: string, kind: string): unknown;
    };
  };
}

function describeValue(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ''}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Every file below `dir` (small trees only). */
function filesBelow(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesBelow(full));
    else if (entry.isFile()) found.push(full);
  }
  return found;
}

/** The user data folder (holding `User/settings.json`) above the extension's log folder. */
function userDataDirAbove(start: string): string | undefined {
  for (let dir = start; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'User', 'settings.json'))) return dir;
  }
  return undefined;
}

describe('Secrets', function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let api: Api;
  let connectionId: string;
  let orgId: string;
  let serviceA: string;
  /** Everything commands returned or threw during the session. */
  const outputs: string[] = [];

  const run = async <T>(command: string, ...args: unknown[]): Promise<T | undefined> => {
    try {
      const result = await vscode.commands.executeCommand<T>(command, ...args);
      outputs.push(`${command} -> ${describeValue(result)}`);
      return result;
    } catch (err) {
      outputs.push(`${command} threw ${describeValue(err)}`);
      return undefined;
    }
  };
  const data = (serviceId: string) => emulator.state.data.get(serviceId)!;

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('rateLimit.windowSeconds', 1);
    await configure('requestTimeoutSeconds', 2);
    await configure('autoSave', 'off', 'files');
    emulator = await startEmulator({ rateLimit: false });
    api = await activate<Api>();
    orgId = emulator.organizationId;
    serviceA = emulator.serviceIds[0]!;
  });

  after(async () => {
    await closeAll();
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('rateLimit.windowSeconds', undefined);
    await configure('requestTimeoutSeconds', undefined);
    await configure('autoSave', undefined, 'files');
    await emulator?.close();
  });

  it('writes the key secret and its Basic form nowhere after a session of many commands', async () => {
    const secret = emulator.keySecret;
    const basic = Buffer.from(`${emulator.keyId}:${secret}`, 'utf8').toString('base64');
    const refusedBasic = Buffer.from(`${emulator.keyId}:${REFUSED_SECRET}`, 'utf8').toString('base64');

    // Add, with the checking request.
    const id = await run<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: secret,
      organizationId: orgId,
      serviceIds: [serviceA],
      label: 'Secrets (emulator)',
    });
    assert.equal(typeof id, 'string', outputs.join('\n'));
    connectionId = id!;
    assert.ok(api.connections.secretsInUse().includes(secret));

    // Browse every folder.
    const provider = api.tree.provider;
    const roots = await provider.getChildren();
    for (const root of roots) {
      for (const service of await provider.getChildren(root)) {
        for (const folder of await provider.getChildren(service)) {
          const children = await provider.getChildren(folder);
          outputs.push(...children.map((n) => describeValue(provider.getTreeItem(n))));
        }
      }
    }

    // Create, update, delete.
    const { dashboardId, tileId, webhookId } = alertTarget(emulator, serviceA);
    const draft = await run<string>('observability.createAlert', {
      connectionId,
      serviceId: serviceA,
      dashboardId,
      tileId,
      webhookId,
      threshold: 5,
      name: 'Secret session alert',
    });
    assert.ok(draft);
    const created = await run<ApplyResult>('observability.applyResource', { uri: draft });
    assert.equal(created?.outcome, 'applied', JSON.stringify(created));
    const edited = await run<string>('observability.editResource', {
      connectionId,
      serviceId: serviceA,
      alertId: created!.id,
    });
    assert.ok(edited);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === edited)!;
    await replaceText(doc, doc.getText().replace(/"threshold": \d+/, '"threshold": 6'));
    const updated = await run<ApplyResult>('observability.applyResource', { uri: edited, confirm: true });
    assert.equal(updated?.outcome, 'applied', JSON.stringify(updated));
    const deleted = await run<DeleteResult>('observability.deleteAlert', {
      connectionId,
      serviceId: serviceA,
      alertId: created!.id,
      skipConfirmation: true,
    });
    assert.equal(deleted?.deleted, true);

    // Failures: rejected key, server error, invalid document, a secret the check refuses, a bad base URL.
    const base = `/v1/organizations/${orgId}/services/${serviceA}/observability`;
    emulator.faults.add({
      path: `${base}/sources`,
      status: 401,
      body: { status: 401, error: 'Invalid credentials', requestId: 'r-401' },
    });
    await run('observability.refreshNode', provider.folder(connectionId, serviceA, 'sources'));
    const failed = await provider.getChildren(provider.folder(connectionId, serviceA, 'sources'));
    outputs.push(...failed.map((n) => describeValue(provider.getTreeItem(n))));
    emulator.faults.clear();
    const draft2 = await run<string>('observability.createAlert', {
      connectionId,
      serviceId: serviceA,
      dashboardId,
      tileId,
      webhookId,
      threshold: 7,
      name: 'Secret session failure',
    });
    emulator.faults.add({
      method: 'POST',
      path: `${base}/alerts`,
      status: 500,
      body: { status: 500, error: 'Internal error', requestId: 'r-500' },
    });
    const failedCreate = await run<ApplyResult>('observability.applyResource', { uri: draft2 });
    assert.equal(failedCreate?.outcome, 'failed');
    emulator.faults.clear();
    emulator.faults.add({
      method: 'GET',
      path: `/v1/organizations/${orgId}/services/${serviceA}/observability/alerts/nope`,
      reset: 'mid-body',
    });
    await run('observability.editResource', { connectionId, serviceId: serviceA, alertId: 'nope', name: 'Missing' });
    emulator.faults.clear();
    await run('observability.updateKeySecret', { connectionId, keySecret: REFUSED_SECRET });
    await run('observability.addConnection', {
      baseUrl: `http://${emulator.keyId}:${secret}@127.0.0.1:1`,
      keyId: emulator.keyId,
      keySecret: secret,
      organizationId: orgId,
      serviceIds: [serviceA],
    });
    await run('observability.editConnection', { connectionId, label: 'Secrets (renamed)', skipCheck: true });
    await run('observability.openJson', { connectionId, serviceId: serviceA, dashboardId });
    await run('observability.showFiringAlerts');

    // Collect what the extension wrote.
    const logFile = logFileOf(api);
    let logText = '';
    for (let i = 0; i < 30; i++) {
      logText = await readFile(logFile);
      if (/Secrets \(renamed\)|Updated|renamed/i.test(logText) || i === 29) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(logText, /POST \/v1\/.*\/alerts -> 200/, 'the log records requests');
    const state = api.connections.globalState;
    const sources: [string, string][] = [
      ['log', logText],
      ['global state', JSON.stringify(state.keys().map((key) => [key, state.get<unknown>(key)]))],
      ['settings (observability)', JSON.stringify(vscode.workspace.getConfiguration('observability'))],
      [
        'settings (inspect)',
        JSON.stringify(
          ['requestTimeoutSeconds', 'rateLimit.requestsPerWindow'].map((k) =>
            vscode.workspace.getConfiguration('observability').inspect(k),
          ),
        ),
      ],
      ['settings (http)', JSON.stringify(vscode.workspace.getConfiguration('http'))],
      ['command results and messages', outputs.join('\n')],
      ['open documents', vscode.workspace.textDocuments.map((d) => `${d.uri.toString()}\n${d.getText()}`).join('\n')],
    ];
    const userData = userDataDirAbove(api.logUri.fsPath);
    assert.ok(userData, `no user data folder above ${api.logUri.fsPath}`);
    sources.push(['User/settings.json', fs.readFileSync(path.join(userData, 'User', 'settings.json'), 'utf8')]);
    // Files of the extension's own storage folders and the extension logs, wherever the host keeps them.
    // The extension host's own logs too (next to the extension's log folder): errors of commands are written there.
    for (const file of [
      ...filesBelow(path.join(userData, 'User', 'globalStorage', EXTENSION_ID)),
      ...filesBelow(path.dirname(api.logUri.fsPath)),
    ]) {
      sources.push([path.relative(userData, file), fs.readFileSync(file).toString('latin1')]);
    }
    for (const ws of filesBelow(path.join(userData, 'User', 'workspaceStorage')).filter((f) =>
      f.includes(EXTENSION_ID),
    )) {
      sources.push([path.relative(userData, ws), fs.readFileSync(ws).toString('latin1')]);
    }

    const found: string[] = [];
    for (const [where, text] of sources) {
      for (const [what, needle] of [
        ['secret', secret],
        ['Basic credentials', basic],
        ['refused secret', REFUSED_SECRET],
        ['refused Basic credentials', refusedBasic],
      ] as const) {
        if (text.includes(needle)) found.push(`${what} in ${where}`);
      }
    }
    console.log(
      `Scanned for the secret: ${sources.map(([where, text]) => `${where} (${text.length} chars)`).join(', ')}`,
    );
    assert.deepEqual(found, []);
    assert.ok(sources.length >= 8);
  });

  it("does not follow a redirect to another host: the credentials go only to the connection's origin", async () => {
    assert.ok(connectionId, 'the connection of the previous test');
    const dashboardId = () => alertTarget(emulator, serviceA).dashboardId;
    const tileId = () => alertTarget(emulator, serviceA).tileId;
    const seen: { method: string; url: string; authorization: boolean }[] = [];
    const other = http.createServer((req, res) => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization !== undefined,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 200, requestId: 'other', result: [] }));
    });
    // Another loopback address where the system has one, so it is another host and not only another port.
    const host = await new Promise<string>((resolve) => {
      other.once('error', () => other.listen(0, '127.0.0.1', () => resolve('127.0.0.1')));
      other.listen(0, '127.0.0.2', () => resolve('127.0.0.2'));
    });
    try {
      const target = `http://${host}:${(other.address() as AddressInfo).port}`;
      const base = `/v1/organizations/${orgId}/services/${serviceA}/observability`;
      await vscode.commands.executeCommand('observability.updateKeySecret', {
        connectionId,
        keySecret: emulator.keySecret,
        skipCheck: true,
      });
      for (const status of [301, 302, 307, 308]) {
        emulator.faults.add({
          path: `${base}/dashboards`,
          status,
          body: '',
          headers: { location: `${target}${base}/dashboards` },
        });
        emulator.faults.add({
          method: 'POST',
          path: `${base}/alerts`,
          status,
          body: '',
          headers: { location: `${target}${base}/alerts` },
        });
        emulator.faults.add({
          method: 'DELETE',
          path: new RegExp(`${base}/alerts/`),
          status,
          body: '',
          headers: { location: `${target}/steal` },
        });
        const folder = api.tree.provider.folder(connectionId, serviceA, 'dashboards');
        await vscode.commands.executeCommand('observability.refreshNode', folder);
        const nodes = await api.tree.provider.getChildren(folder);
        const error = nodes.find((n) => n.type === 'error');
        assert.ok(error, `HTTP ${status}: the redirect is reported, not followed`);
        const tooltip = api.tree.provider.getTreeItem(error).tooltip;
        assert.match(
          typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? ''),
          new RegExp(`HTTP ${status}[\\s\\S]*Redirects are not followed`),
        );

        const alertId = [...data(serviceA).alerts.keys()][0]!;
        const deleted = await vscode.commands.executeCommand<DeleteResult>('observability.deleteAlert', {
          connectionId,
          serviceId: serviceA,
          alertId,
          skipConfirmation: true,
        });
        assert.equal(deleted.deleted, false);
        assert.match(deleted.error ?? '', new RegExp(`Delete alert failed: HTTP ${status}`));
        assert.ok(data(serviceA).alerts.has(alertId));

        const draft = await vscode.commands.executeCommand<string>('observability.createAlert', {
          connectionId,
          serviceId: serviceA,
          dashboardId: dashboardId(),
          tileId: tileId(),
          webhookId: [...data(serviceA).webhooks.keys()][0]!,
          threshold: 9,
          name: `Redirected ${status}`,
        });
        const before = data(serviceA).alerts.size;
        const applied = await vscode.commands.executeCommand<ApplyResult>('observability.applyResource', {
          uri: draft,
        });
        assert.equal(applied.outcome, 'failed', JSON.stringify(applied));
        assert.match(applied.error ?? '', new RegExp(`Create alert failed: HTTP ${status}`));
        assert.equal(data(serviceA).alerts.size, before);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
        emulator.faults.clear();
      }
      // The connection check of Add Connection as well.
      emulator.faults.add({
        path: /^\/v1\/organizations/,
        status: 302,
        body: '',
        headers: { location: `${target}/v1/organizations` },
      });
      await assert.rejects(
        Promise.resolve(
          vscode.commands.executeCommand('observability.addConnection', {
            baseUrl: emulator.url,
            keyId: emulator.keyId,
            keySecret: emulator.keySecret,
            organizationId: orgId,
            serviceIds: [serviceA],
            label: 'Redirected',
          }),
        ),
      );
      emulator.faults.clear();
      assert.deepEqual(seen, [], 'nothing reached the other host');
    } finally {
      emulator.faults.clear();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});

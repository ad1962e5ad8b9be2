/**
 * Self-hosted ClickStack / HyperDX connections against the emulator's OSS flavor (External API v2, Bearer key,
 * `{data}` bodies): adding one by argument object, the tree with the deployment as its one service (no organization
 * or service level, no query endpoint) and its read-only Team folder, alert files aimed by base URL, the OSS error
 * shapes, the refusal of what the v2 API lacks, and the plain-http confirmation with its withdrawal. Browsing, editing
 * and applying, and alert-file plans run on both kinds of connection in the journeys of tree.test.ts,
 * editors.test.ts and alertFiles.test.ts (`describeEachFlavor`).
 */
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import { ossData, SAMPLE_OSS_MEMBERS, SAMPLE_OSS_TEAM_NAME } from '../emulator/oss/seed';
import type { TreeApi as TreeHandle } from '../../src/features';
import type { Node } from '../../src/tree/nodes';
import type { ConnectionManager } from '../../src/connections/manager';
import {
  activate,
  configure,
  exportedApi,
  extension,
  iconOf,
  labelOf,
  rejection,
  setField,
  tooltipText,
  waitFor,
} from './support';

interface Api {
  readonly tree: TreeHandle;
  readonly connections: ConnectionManager;
}

interface ApplyResult {
  readonly outcome: string;
  readonly uri?: string;
}

describe('Self-hosted connections', function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let api: Api;
  let connectionId: string;
  const added: string[] = [];
  const tree = () => api.tree.provider;
  const data = () => ossData(emulator.state);
  const apply = (uri: string, extra: Record<string, unknown> = {}) =>
    vscode.commands.executeCommand<ApplyResult>('observability.applyResource', { uri, ...extra });

  async function root(id = connectionId): Promise<Node> {
    const node = (await tree().getChildren()).find((n) => n.type === 'connection' && n.connection.id === id);
    assert.ok(node, 'connection node missing');
    return node;
  }

  before(async () => {
    await configure('requestTimeoutSeconds', 2);
    await configure('autoSave', 'off', 'files');
    emulator = await startEmulator({ flavor: 'oss', rateLimit: false });
    api = await activate<Api>();
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: emulator.url,
      apiKey: emulator.ossApiKey,
    });
    added.push(connectionId);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const id of added) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId: id, noPrompt: true });
    }
    await emulator?.close();
  });

  it('adds a deployment by URL and personal API key: named after its team, the key only in secret storage', async () => {
    const stored = api.connections.get(connectionId);
    assert.ok(stored);
    assert.equal(stored.kind, 'selfHosted');
    assert.equal(stored.label, SAMPLE_OSS_TEAM_NAME);
    assert.ok(
      !JSON.stringify(api.connections.globalState.get('observability.connections') ?? []).includes(emulator.ossApiKey),
    );
    assert.equal(await api.connections.getSecret(connectionId), emulator.ossApiKey);
    const check = emulator.requests.find((r) => r.path === '/api/v2/team');
    assert.ok(check, 'the check read the team');
  });

  it('draws the deployment as one service: its folders directly under the connection, no query endpoint', async () => {
    const node = await root();
    const item = tree().getTreeItem(node);
    assert.match(String(item.contextValue), /\bselfHosted\b/);
    assert.doesNotMatch(String(item.contextValue), /\bplainHttp\b/);
    assert.match(tooltipText(item), /Self\\?-hosted ClickStack/);
    const folders = await tree().getChildren(node);
    const labels = folders.map((f) => labelOf(tree().getTreeItem(f)));
    assert.ok(
      folders.every((f) => f.type === 'folder'),
      `only folders: ${labels.join(', ')}`,
    );
    assert.ok(labels.includes('Dashboards') && labels.includes('Alerts') && labels.includes('Sources'), labels.join());
    assert.ok(!labels.includes('Query Endpoint'), 'the v2 API has no query endpoint');
    const dashboards = folders.find((f) => labelOf(tree().getTreeItem(f)) === 'Dashboards')!;
    assert.equal(tree().getParent(dashboards), node, 'a folder reveals under its connection');
    const mark = emulator.requests.length;
    const listed = await tree().getChildren(dashboards);
    const names = listed.filter((n) => n.type === 'dashboard').map((n) => labelOf(tree().getTreeItem(n)));
    assert.deepEqual(names.sort(), [...data().dashboards.values()].map((d) => String(d.name)).sort());
    const list = emulator.requests.slice(mark).find((r) => r.path === '/api/v2/dashboards');
    assert.ok(list, 'listed over /api/v2/dashboards');
    assert.equal(list.authorized, true, 'with the Bearer key');
  });

  it('shows the team and its members in a read-only Team folder, each openable as JSON', async () => {
    const node = await root();
    const folders = await tree().getChildren(node);
    const team = folders.find((f) => f.type === 'folder' && f.kind === 'team');
    assert.ok(team, 'a Team folder under the connection');
    assert.equal(labelOf(tree().getTreeItem(team)), 'Team');
    assert.equal(iconOf(tree().getTreeItem(team)), 'organization');
    const mark = emulator.requests.length;
    const members = await tree().getChildren(team);
    const sent = emulator.requests.slice(mark).map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(sent.sort(), ['GET /api/v2/team', 'GET /api/v2/team/members']);
    assert.match(String(tree().getTreeItem(team).description), new RegExp(`^${SAMPLE_OSS_TEAM_NAME} · 3$`));

    // The key's owner first, then by name; name as label, email (and "you") as description, all of it in the tooltip.
    const items = members.map((m) => tree().getTreeItem(m));
    assert.deepEqual(
      items.map((i) => labelOf(i)),
      ['Dana Okafor', 'Li Wen', 'Sam Ruiz'],
    );
    const [dana, li] = SAMPLE_OSS_MEMBERS as [(typeof SAMPLE_OSS_MEMBERS)[0], (typeof SAMPLE_OSS_MEMBERS)[0]];
    assert.equal(items[0]!.description, `${dana.email} · you`);
    assert.equal(items[1]!.description, li.email);
    assert.equal(iconOf(items[0]!), 'account');
    assert.equal(iconOf(items[1]!), 'person');
    const tip = tooltipText(items[1]!);
    assert.ok(tip.includes(li.name) && tip.includes(li.email) && tip.includes(li.id), tip);
    assert.equal(tree().getParent(members[0]!), team);

    // Read-only: no command of the tree's context menus but open, copy and refresh applies to a member or the folder.
    const menus = (
      extension().packageJSON as { contributes: { menus: Record<string, { command: string; when?: string }[]> } }
    ).contributes.menus['view/item/context']!;
    const commandsFor = (contextValue: string) =>
      menus
        .filter((m) => {
          const re = /viewItem =~ \/(.*?)\/(?: |$)/.exec(m.when ?? '');
          return re ? new RegExp(re[1]!).test(contextValue) : false;
        })
        .map((m) => m.command);
    const allowed = new Set(['observability.openJson', 'observability.copyId', 'observability.refreshNode']);
    for (const n of [team, ...members]) {
      const offered = commandsFor(String(tree().getTreeItem(n).contextValue));
      assert.ok(offered.includes('observability.openJson'), `Open JSON on ${labelOf(tree().getTreeItem(n))}`);
      const writes = offered.filter((c) => !allowed.has(c));
      assert.deepEqual(writes, [], `no write command on ${labelOf(tree().getTreeItem(n))}`);
    }

    // Open JSON from the cache, read-only, as the server sent it.
    const before = emulator.requests.length;
    const memberUri = await vscode.commands.executeCommand<vscode.Uri>('observability.openJson', members[1]);
    assert.ok(memberUri);
    assert.equal(memberUri.scheme, 'observability-readonly');
    const memberDoc = await vscode.workspace.openTextDocument(memberUri);
    assert.deepEqual(JSON.parse(memberDoc.getText()), { ...li });
    const teamUri = await vscode.commands.executeCommand<vscode.Uri>('observability.openJson', team);
    assert.ok(teamUri);
    const teamDoc = await vscode.workspace.openTextDocument(teamUri);
    assert.deepEqual(JSON.parse(teamDoc.getText()), { id: data().teamId, name: SAMPLE_OSS_TEAM_NAME });
    assert.equal(emulator.requests.length, before, 'served from what the folder loaded');

    // A server that sends a member's role: shown in the description and the tooltip.
    emulator.faults.add({
      method: 'GET',
      path: '/api/v2/team/members',
      times: 1,
      status: 200,
      body: { data: [{ ...li, role: 'admin' }] },
    });
    tree().refresh(team);
    const [withRole] = await tree().getChildren(team);
    assert.ok(withRole);
    assert.equal(tree().getTreeItem(withRole).description, `${li.email} · admin`);
    assert.match(tooltipText(tree().getTreeItem(withRole)), /Role: admin/);
    emulator.faults.clear();
    tree().refresh(team);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('exports an alert as a file that names the deployment by its base URL, applies it, and never aims it elsewhere', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'a workspace folder');
    const dir = vscode.Uri.joinPath(folder, 'self-hosted-alerts');
    await vscode.workspace.fs.createDirectory(dir);
    const alert = [...data().alerts.values()][0]!;
    const serviceId = api.connections.get(connectionId)!.serviceIds[0];
    const exported = await vscode.commands.executeCommand<string>('observability.exportAlertToFile', {
      connectionId,
      serviceId,
      alertId: alert.id,
      uri: vscode.Uri.joinPath(dir, 'exported.alert.json').toString(),
    });
    assert.ok(exported);
    const uri = vscode.Uri.parse(exported);
    const value = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri))) as Record<
      string,
      unknown
    >;
    assert.equal(value.baseUrl, emulator.url);
    assert.equal(value.id, alert.id);
    assert.ok(!('organizationId' in value) && !('serviceId' in value), 'no Cloud target in a self-hosted file');

    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode(JSON.stringify({ ...value, threshold: 777 }, null, 2)),
    );
    const mark = emulator.requests.length;
    const applied = await vscode.commands.executeCommand<{ outcome: string }>('observability.applyAlertFile', {
      uri: uri.toString(),
      confirm: true,
    });
    assert.equal(applied.outcome, 'updated', JSON.stringify(applied));
    assert.equal(data().alerts.get(alert.id)?.threshold, 777);
    assert.ok(emulator.requests.slice(mark).some((r) => r.method === 'PUT' && r.path === `/api/v2/alerts/${alert.id}`));

    // A file naming a host the user did not add never gets the stored key.
    const elsewhere = vscode.Uri.joinPath(dir, 'elsewhere.alert.json');
    await vscode.workspace.fs.writeFile(
      elsewhere,
      new TextEncoder().encode(
        JSON.stringify({ ...value, baseUrl: 'https://attacker.example', threshold: 1 }, null, 2),
      ),
    );
    // The file just applied has a "would have fired" lens that asks the deployment's chart series API in the
    // background after a pause in typing: let that settle, so the count below holds only what this file would send.
    for (let n = -1, waited = 0; n !== emulator.requests.length && waited < 15_000; waited += 3000) {
      n = emulator.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
    const before = emulator.requests.length;
    const refused = await vscode.commands.executeCommand<{ outcome: string }>('observability.applyAlertFile', {
      uri: elsewhere.toString(),
      confirm: true,
    });
    assert.equal(refused.outcome, 'noConnection');
    const sent = emulator.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(sent, [], 'nothing was sent');
    assert.equal(data().alerts.get(alert.id)?.threshold, 777);
    await vscode.workspace.fs.delete(dir, { recursive: true });
  });

  // The OSS error shapes: `{message}` JSON from the v2 routers, `{error}` from older routes, `sendStatus` plain text,
  // and a proxy's X-Request-Id (the server sends no request ID of its own).
  for (const fault of [
    {
      name: '400 {message}',
      status: 400,
      body: { message: 'threshold must be a number' },
      text: 'threshold must be a number',
    },
    { name: '409 {error}', status: 409, body: { error: 'Alert limit reached' }, text: 'Alert limit reached' },
    { name: '401 plain text', status: 401, body: 'Unauthorized', text: 'Unauthorized' },
    {
      name: '500 {message} with a proxy request ID',
      status: 500,
      body: { message: 'Internal error' },
      text: 'Internal error',
      headers: { 'x-request-id': 'proxy-req-7f3a' },
    },
  ] as const) {
    it(`keeps the typed alert dirty and names status, server text and request ID on ${fault.name}`, async () => {
      const alert = [...data().alerts.values()][1]!;
      const uri = await vscode.commands.executeCommand<string>('observability.editResource', {
        connectionId,
        serviceId: api.connections.get(connectionId)!.serviceIds[0],
        alertId: alert.id,
      });
      const doc = await waitFor('the alert document', () =>
        vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri),
      );
      await setField(doc, 'threshold', 31337);
      const typed = doc.getText();
      emulator.faults.add({
        method: 'PUT',
        path: `/api/v2/alerts/${alert.id}`,
        times: 5,
        status: fault.status,
        body: fault.body,
        ...('headers' in fault ? { headers: fault.headers } : {}),
      });
      try {
        const result = (await apply(uri!, { confirm: true })) as ApplyResult & { error?: string };
        assert.equal(result.outcome, 'failed', JSON.stringify(result));
        assert.match(result.error ?? '', /Update alert failed/);
        assert.match(result.error ?? '', new RegExp(`HTTP ${fault.status}`));
        assert.match(result.error ?? '', new RegExp(fault.text));
        if ('headers' in fault) assert.match(result.error ?? '', /proxy-req-7f3a/);
        assert.ok(!(result.error ?? '').includes(emulator.ossApiKey), 'the key is never in the error');
        assert.equal(doc.getText(), typed, 'text exactly as typed');
        assert.ok(doc.isDirty, 'still dirty');
        assert.notEqual(data().alerts.get(alert.id)?.threshold, 31337);
      } finally {
        emulator.faults.clear();
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
    });
  }

  it('refuses what the v2 API lacks before sending anything', async () => {
    const client = api.connections.clientFor(connectionId);
    const serviceId = api.connections.get(connectionId)!.serviceIds[0]!;
    const mark = emulator.requests.length;
    await assert.rejects(client.getQueryEndpoint(serviceId), /no service query endpoint/);
    await assert.rejects(client.listRoles(serviceId), /no roles/);
    assert.equal(emulator.requests.length, mark, 'nothing was sent');
  });

  it('never runs a SQL document on a self-hosted deployment: its key is not sent to any query host', async () => {
    const capture: string[] = [];
    const server = createServer((req, res) => {
      capture.push(`${req.method} ${req.url} ${req.headers.authorization ? 'with credentials' : ''}`);
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const serviceId = api.connections.get(connectionId)!.serviceIds[0]!;
      await vscode.commands.executeCommand('observability.setQueryHost', {
        connectionId,
        queryUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      });
      const doc = await vscode.workspace.openTextDocument({ language: 'sql', content: 'SELECT 1' });
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('observability.chooseQueryTarget', {
        uri: doc.uri.toString(),
        connectionId,
        serviceId,
      });
      const mark = emulator.requests.length;
      const outcome = await vscode.commands.executeCommand<{ ok: boolean; error?: string }>('observability.runQuery', {
        uri: doc.uri.toString(),
      });
      assert.equal(outcome?.ok, false);
      assert.match(String(outcome?.error), /is a self-hosted deployment: its API runs no SQL/);
      assert.deepEqual(capture, [], 'nothing reached the query host');
      assert.equal(emulator.requests.length, mark, 'nothing was sent');
    } finally {
      await vscode.commands.executeCommand('observability.setQueryHost', { connectionId, queryUrl: '' });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      server.close();
    }
  });

  it('refuses Choose Services on a self-hosted connection (its one service), pointing at Edit Connection', async () => {
    const before = api.connections.get(connectionId)!;
    const mark = emulator.requests.length;
    const refused = await rejection(
      vscode.commands.executeCommand('observability.selectServices', {
        connectionId,
        serviceIds: ['00000000-0000-4000-8000-000000000001'],
      }),
    );
    assert.match(refused.message, /is a self-hosted connection: .* applies to ClickHouse Cloud connections only/);
    assert.match(refused.message, /Edit Connection/);
    const cloudFields = await rejection(
      vscode.commands.executeCommand('observability.editConnection', { connectionId, keyId: 'some-key' }),
    );
    assert.match(cloudFields.message, /keyId apply to ClickHouse Cloud connections only/);
    assert.deepEqual(api.connections.get(connectionId), before, 'the connection is unchanged');
    assert.equal(emulator.requests.length, mark, 'nothing was sent');
  });

  it('edits a self-hosted connection in place: name, key (checked), and address (the key again); ClickHouse access and the MCP server follow', async () => {
    const mcpUris = () =>
      exportedApi<{ mcp: { provideMcpServerDefinitions(): { uri: vscode.Uri }[] } }>()
        .mcp.provideMcpServerDefinitions()
        .map((d) => d.uri.toString());
    await vscode.commands.executeCommand('observability.setClickHouseAccess', {
      connectionId,
      url: emulator.clickHouseHttpUrl,
      user: emulator.clickHouseUser,
      password: emulator.clickHousePassword,
      skipCheck: true,
    });
    const access = api.connections.get(connectionId)!.clickHouse;

    // The name, and the deployment's one service with it.
    await vscode.commands.executeCommand('observability.editConnection', { connectionId, label: 'Renamed HyperDX' });
    let now = api.connections.get(connectionId)!;
    assert.equal(now.label, 'Renamed HyperDX');
    assert.equal(now.services[0]?.name, 'Renamed HyperDX');

    // A wrong key is refused by the check and nothing changes; the right one is checked and stored.
    const wrongKey = 'hdx-wrong-key-0000';
    const refused = await rejection(
      vscode.commands.executeCommand('observability.updateKeySecret', { connectionId, keySecret: wrongKey }),
    );
    assert.match(refused.message, /did not work .*401/);
    assert.ok(!refused.message.includes(wrongKey));
    assert.equal(await api.connections.getSecret(connectionId), emulator.ossApiKey);
    const mark = emulator.requests.length;
    await vscode.commands.executeCommand('observability.updateKeySecret', {
      connectionId,
      keySecret: emulator.ossApiKey,
    });
    const check = emulator.requests.slice(mark).find((r) => r.path === '/api/v2/team');
    assert.ok(check?.authorized, 'the new key was checked against the deployment');
    assert.deepEqual(api.connections.get(connectionId)!.clickHouse, access, 'ClickHouse access survives a key change');
    assert.equal(await api.connections.getClickHousePassword(connectionId), emulator.clickHousePassword);

    // Another address (another origin of the same deployment) needs the key again.
    const moved = emulator.url.replace('127.0.0.1', 'localhost');
    const withoutKey = await rejection(
      vscode.commands.executeCommand('observability.editConnection', { connectionId, baseUrl: moved }),
    );
    assert.match(withoutKey.message, /needs apiKey too/);
    assert.equal(api.connections.get(connectionId)!.baseUrl, emulator.url);
    await vscode.commands.executeCommand('observability.editConnection', {
      connectionId,
      baseUrl: moved,
      apiKey: emulator.ossApiKey,
    });
    now = api.connections.get(connectionId)!;
    assert.equal(now.baseUrl, moved);
    assert.deepEqual(now.clickHouse, access, 'ClickHouse access survives the move');
    assert.ok(mcpUris().includes(`${moved}/api/mcp`), 'the MCP server follows the address');
    assert.ok(!mcpUris().includes(`${emulator.url}/api/mcp`));
    const node = await root();
    const folders = await tree().getChildren(node);
    assert.ok(folders.length > 0, 'the tree reads the deployment at its new address');

    // Back where the other tests expect it.
    await vscode.commands.executeCommand('observability.editConnection', {
      connectionId,
      baseUrl: emulator.url,
      apiKey: emulator.ossApiKey,
      label: SAMPLE_OSS_TEAM_NAME,
    });
    await vscode.commands.executeCommand('observability.removeClickHouseAccess', { connectionId, noPrompt: true });
  });

  it('allows plain http to another machine only after a per-connection confirmation, shows it, and withdraws it', async () => {
    const url = 'http://hyperdx.internal.example:8000';
    const refused = await rejection(
      vscode.commands.executeCommand('observability.addConnection', {
        kind: 'selfHosted',
        baseUrl: url,
        apiKey: emulator.ossApiKey,
        skipCheck: true,
      }),
    );
    assert.match(refused.message, /unencrypted/);
    assert.ok(!api.connections.list().some((c) => c.baseUrl === url), 'nothing saved');
    const id = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: url,
      apiKey: emulator.ossApiKey,
      allowPlainHttp: true,
      skipCheck: true,
      label: 'Internal HyperDX',
    });
    added.push(id);
    assert.equal(api.connections.get(id)?.allowPlainHttp, true);
    let item = tree().getTreeItem(await root(id));
    assert.match(String(item.contextValue), /\bplainHttp\b/);
    assert.match(String(item.description), /plain http/);
    assert.match(tooltipText(item), /unencrypted/);

    assert.equal(
      await vscode.commands.executeCommand('observability.withdrawPlainHttp', { connectionId: id, noPrompt: true }),
      true,
    );
    assert.equal(api.connections.get(id)?.allowPlainHttp, false);
    item = tree().getTreeItem(await root(id));
    assert.doesNotMatch(String(item.contextValue), /\bplainHttp\b/);
    assert.doesNotMatch(String(item.description), /plain http/);
    const serviceId = api.connections.get(id)!.serviceIds[0]!;
    await assert.rejects(
      Promise.resolve().then(() => api.connections.clientFor(id).listDashboards(serviceId)),
      /unencrypted/,
    );

    assert.equal(
      await vscode.commands.executeCommand('observability.allowPlainHttp', { connectionId: id, noPrompt: true }),
      true,
    );
    assert.equal(api.connections.get(id)?.allowPlainHttp, true);
  });
});

/**
 * A folder's first expansion, as VS Code's view runs it: the folder's row was drawn before its list was read, so the
 * provider announces the row's redraw once the rows settled, and the row then says the count, firing count and
 * offline mark of those rows. VS Code asks for the children again after that redraw: it gets the same rows. The
 * redraw waits while VS Code still waits for children under the folder (a dashboard's tiles), whose answer a redraw
 * would drop.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { TreeApi as TreeHandle } from '../../src/features';
import type { Node } from '../../src/tree/nodes';
import { activate, configure, labelOf, waitFor } from './support';

interface Api {
  readonly tree: TreeHandle;
}

/** A few turns of the extension host's event loop (no clock involved): what a pending redraw waits for. */
async function turns(n = 3): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

describe("Explorer tree: a folder's first expansion", function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let api: Api;
  let connectionId: string;
  let serviceA: string;
  let serviceB: string;
  /** Ids of the nodes whose redraw the provider announced, in order. */
  let redrawn: string[] = [];
  let subscription: vscode.Disposable | undefined;
  const tree = () => api.tree.provider;
  /** The announced redraws of one node. */
  const redraws = (node: Node) => redrawn.filter((id) => id === node.id);
  const item = (node: Node) => tree().getTreeItem(node);
  const children = (node?: Node) => tree().getChildren(node);

  /** The folders of a service, each drawn as VS Code draws them when the service is expanded. */
  async function drawnFolder(serviceId: string, label: string): Promise<Node> {
    const [root] = (await children()).filter((n) => n.type === 'connection' && n.connection.id === connectionId);
    assert.ok(root);
    const service = (await children(root)).find((n) => n.type === 'service' && n.serviceId === serviceId);
    assert.ok(service);
    const folders = await children(service);
    const drawn = folders.map((f) => ({ node: f, item: item(f) }));
    const folder = drawn.find((f) => labelOf(f.item) === label);
    assert.ok(folder, `folder ${label}`);
    assert.equal(folder.item.description, undefined, 'the row is drawn before its list is read: no count yet');
    return folder.node;
  }

  /** Resolves with the folder's row as VS Code draws it when its redraw is announced (it asks for the row first). */
  function rowAtRedraw(folder: Node): Promise<vscode.TreeItem> {
    return new Promise((resolve) => {
      const sub = tree().onDidChangeTreeData((n) => {
        if (n?.id !== folder.id) return;
        sub.dispose();
        resolve(item(folder));
      });
    });
  }

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('rateLimit.windowSeconds', 1);
    emulator = await startEmulator({ rateLimit: { requests: 100_000, windowMs: 1000 } });
    api = await activate<Api>();
    [serviceA, serviceB] = emulator.serviceIds as [string, string];
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [serviceA, serviceB],
      label: 'First expansion (emulator)',
      skipCheck: true,
    });
    subscription = tree().onDidChangeTreeData((n) => redrawn.push(n?.id ?? '<root>'));
  });

  after(async () => {
    subscription?.dispose();
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('rateLimit.windowSeconds', undefined);
    await emulator?.close();
  });

  afterEach(() => emulator.faults.clear());

  it('draws the Alerts folder with the count and firing count of its rows once they are shown', async () => {
    const folder = await drawnFolder(serviceA, 'Alerts');
    const stored = [...emulator.state.data.get(serviceA)!.alerts.values()];
    const now = Date.now();
    const firing = stored.filter(
      (a) => a.state === 'ALERT' && !(a.silenced && Date.parse(a.silenced.until) > now),
    ).length;
    assert.ok(firing > 0, 'the sample service has firing alerts');
    redrawn = [];
    const redraw = rowAtRedraw(folder);

    const rows = await children(folder);
    assert.deepEqual(redraws(folder), [], 'no redraw while VS Code registers the rows it was given');
    assert.deepEqual(
      rows
        .filter((n) => n.type === 'alert')
        .map((n) => (n.type === 'alert' ? n.alert.id : ''))
        .sort(),
      stored.map((a) => a.id).sort(),
      'every alert of the service is a row',
    );
    assert.equal(rows.length, stored.length, 'and nothing else');

    // The row as VS Code draws it again, with no refresh asked for: the count and firing count of these rows.
    const row = await redraw;
    assert.equal(row.description, `${stored.length} · ${firing} firing`);
    // After a redraw VS Code asks for the folder's children again: the same rows, not new ones.
    const again = await children(folder);
    assert.equal(again.length, rows.length);
    assert.ok(
      again.every((n, i) => n === rows[i]),
      'the rows VS Code registered are the rows it gets again',
    );
    await turns();
    assert.equal(redraws(folder).length, 1, 'the folder is redrawn once');
  });

  it("holds the Dashboards folder's redraw while a dashboard's tiles are read", async () => {
    const folder = await drawnFolder(serviceB, 'Dashboards');
    const stored = [...emulator.state.data.get(serviceB)!.dashboards.values()];
    // The tiles are drawn with the alerts that watch them: that read is held back at the emulator.
    emulator.faults.add({ path: new RegExp(`/services/${serviceB}/observability/alerts`), hold: true });
    redrawn = [];
    const redraw = rowAtRedraw(folder);

    const rows = await children(folder);
    const dashboard = rows.find((n) => n.type === 'dashboard' && (n.dashboard.tiles?.length ?? 0) > 0);
    assert.ok(dashboard && dashboard.type === 'dashboard');
    // The user opens a dashboard as soon as it shows.
    const tiles = children(dashboard);
    await waitFor('the alerts read to be held', () => emulator.faults.holding > 0);
    await turns();
    assert.deepEqual(redraws(folder), [], "no redraw while the dashboard's tiles are read (it would drop them)");

    emulator.faults.clear();
    assert.equal((await tiles).length, dashboard.dashboard.tiles!.length, 'the dashboard shows its tiles');
    const row = await redraw;
    assert.equal(row.description, String(stored.length), 'then the folder is drawn with its count');
    const again = await children(folder);
    assert.ok(again.length === rows.length && again.every((n, i) => n === rows[i]), 'VS Code gets the same rows again');
    assert.equal((await children(dashboard)).length, dashboard.dashboard.tiles!.length, 'with their tiles');
    await turns();
    assert.equal(redraws(folder).length, 1, 'the folder is redrawn once');
  });
});

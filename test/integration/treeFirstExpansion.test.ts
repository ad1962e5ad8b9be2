/**
 * A folder's first expansion, as VS Code's view runs it: the folder's row was drawn before its list was read, so once
 * the list is read the provider announces the row's redraw and waits until VS Code has drawn it (the row then says
 * the count, firing count and offline mark of the rows) before it hands the rows over. VS Code asks for the children
 * again after that redraw: it gets the same rows, and nothing above them is redrawn while a dashboard is opened.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { TreeApi as TreeHandle } from '../../src/features';
import type { Node } from '../../src/tree/nodes';
import { activate, configure, labelOf } from './support';

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

  it('draws the Alerts folder with the count and firing count of its rows before it hands them over', async () => {
    const folder = await drawnFolder(serviceA, 'Alerts');
    const stored = [...emulator.state.data.get(serviceA)!.alerts.values()];
    const now = Date.now();
    const firing = stored.filter(
      (a) => a.state === 'ALERT' && !(a.silenced && Date.parse(a.silenced.until) > now),
    ).length;
    assert.ok(firing > 0, 'the sample service has firing alerts');
    redrawn = [];
    let handedOver = false;
    const redraw = rowAtRedraw(folder).then((row) => ({ row, handedOver }));

    const rows = await children(folder).then((nodes) => {
      handedOver = true;
      return nodes;
    });
    // The row as VS Code draws it again, with no refresh asked for: the count and firing count of these rows, drawn
    // before the rows are handed over (a redraw after would make VS Code forget the rows it was just given).
    const { row, handedOver: before } = await redraw;
    assert.equal(before, false, 'the row is redrawn before its rows are handed over');
    assert.equal(row.description, `${stored.length} · ${firing} firing`);
    assert.deepEqual(
      rows
        .filter((n) => n.type === 'alert')
        .map((n) => (n.type === 'alert' ? n.alert.id : ''))
        .sort(),
      stored.map((a) => a.id).sort(),
      'every alert of the service is a row',
    );
    assert.equal(rows.length, stored.length, 'and nothing else');
    // After a redraw VS Code asks for the folder's children again: the same rows, not new ones, and no new redraw.
    const again = await children(folder);
    assert.ok(
      again.length === rows.length && again.every((n, i) => n === rows[i]),
      'the rows VS Code registered are the rows it gets again',
    );
    await turns();
    assert.equal(redraws(folder).length, 1, 'the folder is redrawn once');
  });

  it('opens a dashboard right after the Dashboards folder first shows it: its tiles, no redraw above them', async () => {
    const folder = await drawnFolder(serviceB, 'Dashboards');
    const stored = [...emulator.state.data.get(serviceB)!.dashboards.values()];
    redrawn = [];
    const redraw = rowAtRedraw(folder);
    const rows = await children(folder);
    assert.equal((await redraw).description, String(stored.length), 'the folder is drawn with its count');
    const dashboard = rows.find((n) => n.type === 'dashboard' && (n.dashboard.tiles?.length ?? 0) > 0);
    assert.ok(dashboard && dashboard.type === 'dashboard');
    // The user opens a dashboard as soon as it shows: the folder above it is not redrawn any more (that would make
    // VS Code forget the dashboard while it reads its tiles).
    const tiles = await children(dashboard);
    assert.equal(tiles.length, dashboard.dashboard.tiles!.length, 'the dashboard shows its tiles');
    await turns();
    assert.equal(redraws(folder).length, 1, 'the folder was redrawn once, before its rows were handed over');
    const again = await children(folder);
    assert.ok(again.length === rows.length && again.every((n, i) => n === rows[i]), 'VS Code gets the same rows again');
  });

  it('does not redraw a folder VS Code has not drawn', async () => {
    // Everything read again, drawn anew: no folder row drawn yet.
    tree().refresh();
    const [root] = (await children()).filter((n) => n.type === 'connection' && n.connection.id === connectionId);
    assert.ok(root);
    const service = (await children(root)).find((n) => n.type === 'service' && n.serviceId === serviceB)!;
    const sources = (await children(service)).find((n) => n.type === 'folder' && n.kind === 'sources')!;
    redrawn = [];
    assert.ok((await children(sources)).length > 0);
    await turns();
    assert.deepEqual(redraws(sources), []);
  });
});

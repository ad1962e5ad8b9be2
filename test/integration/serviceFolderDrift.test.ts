/**
 * Drift of a service folder in a real VS Code against the emulator, once per connection kind: a pulled folder shows no
 * change; a file edited and saved is marked (Explorer badge and tooltip, Source Control list) without a request; a
 * change made through the service's API shows on the view's Refresh (one list per kind, not one request per file) and
 * Pull brings it back; a resource with no file is listed as only on the service.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ObservabilityApi } from '../../src/api/client';
import { editableBody } from '../../src/serviceFolders/files';
import type { FolderDriftReport } from '../../src/serviceFolders/driftView';
import type { PullResult } from '../../src/serviceFolders/service';
import { describeEachFlavor, exportedApi, readFile, replaceText, tooltipText, waitFor } from './support';

type Json = Record<string, unknown>;

describeEachFlavor('Service folder drift', (run) => {
  let folder: vscode.Uri;

  const fileOf = (path: string) => vscode.Uri.joinPath(folder, ...path.split('/'));
  const read = async (path: string) => JSON.parse(await readFile(fileOf(path))) as Json;
  const filesOf = async (sub: string) =>
    (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder, sub))).map(([name]) => `${sub}/${name}`);
  const pull = () =>
    vscode.commands.executeCommand<PullResult>('observability.pullServiceToFolder', {
      connectionId: run.connectionId,
      serviceId: run.serviceId,
      folder: folder.toString(),
      noPrompt: true,
    });
  const mine = (reports: FolderDriftReport[]) => {
    const report = reports.find((r) => r.folder === folder.toString());
    assert.ok(report, 'the folder is compared with its service');
    return report;
  };
  const shown = async () =>
    mine(
      await vscode.commands.executeCommand<FolderDriftReport[]>('observability.refreshServiceFolderChanges', {
        shown: true,
      }),
    );
  const client = () =>
    (exportedApi().connections as unknown as { clientFor(id: string): ObservabilityApi }).clientFor(run.connectionId);
  const gets = (from: number) =>
    run.emulator.requests
      .slice(from)
      .filter((r) => r.method === 'GET')
      .map((r) => r.path);

  interface TreeNode {
    readonly type: string;
    readonly item?: { readonly id: string };
    readonly dashboard?: { readonly id: string };
    readonly parent?: TreeNode;
  }
  const tree = () =>
    exportedApi().tree.provider as unknown as {
      folder(connectionId: string, serviceId: string, kind: string): TreeNode | undefined;
      getChildren(node?: TreeNode): Promise<TreeNode[]>;
      getTreeItem(node: TreeNode): vscode.TreeItem;
    };
  /** The Observability tree's item of a webhook or saved search of the service, as the view draws it. */
  const treeItemOf = async (folderKind: 'savedSearches' | 'webhooks' | 'dashboards', id: string) => {
    const provider = tree();
    const parent = provider.folder(run.connectionId, run.serviceId, folderKind);
    assert.ok(parent, `the ${folderKind} folder`);
    const node = (await provider.getChildren(parent)).find((n) => (n.item ?? n.dashboard)?.id === id);
    assert.ok(node, `${folderKind} ${id} in the tree`);
    return provider.getTreeItem(node);
  };

  let searchPath = '';
  let searchId = '';
  let dashboardPath = '';

  before(async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the test host opens a workspace folder');
    folder = vscode.Uri.joinPath(workspace.uri, `service-drift-${run.flavor.emulatorFlavor}-${Date.now()}`);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (folder) await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
    await vscode.commands.executeCommand('observability.refreshServiceFolderChanges');
  });

  it('a folder just pulled differs in nothing', async () => {
    await pull();
    const pulled = await shown();
    assert.deepEqual(pulled.changes, [], 'compared with the lists the pull read');
    const mark = run.emulator.requests.length;
    const [report] = await vscode.commands.executeCommand<FolderDriftReport[]>(
      'observability.refreshServiceFolderChanges',
      { folder: folder.toString() },
    );
    assert.equal(report?.error, undefined);
    assert.deepEqual(report?.changes, []);
    // One list per kind (its pages), not one request per file.
    const read = gets(mark);
    assert.equal(new Set(read.map((p) => p.split('?')[0])).size, 5, read.join('\n'));
    for (const collection of ['dashboards', 'alerts', 'webhooks', 'sources']) {
      assert.ok(
        read.some((p) => p.split('?')[0] === run.path(collection)),
        `${collection} listed: ${read.join(', ')}`,
      );
    }
  });

  it('a file edited and saved is marked in the Explorer and listed as differing, without a request', async () => {
    [searchPath] = await filesOf('saved-searches');
    const value = await read(searchPath);
    searchId = String(value.id);
    const doc = await vscode.workspace.openTextDocument(fileOf(searchPath));
    await vscode.window.showTextDocument(doc);
    const mark = run.emulator.requests.length;
    await replaceText(doc, `${JSON.stringify({ ...value, where: 'SeverityText:error AND drift' }, null, 2)}\n`);
    assert.ok(await doc.save(), 'saved');
    const report = await waitFor('the saved file marked', async () => {
      const r = await shown();
      return r.changes.some((c) => c.path === searchPath) ? r : undefined;
    });
    assert.deepEqual(
      report.changes.map((c) => [c.path, c.state, c.group, c.badge]),
      [[searchPath, 'changed', 'changed', 'M']],
    );
    assert.match(report.changes[0]!.tooltip, /^Differs from .+: where$/);
    assert.deepEqual(gets(mark), [], 'a save compares with the lists read last');

    // The Observability tree marks the saved search (and its service) through the same decoration provider.
    const item = await treeItemOf('savedSearches', searchId);
    assert.equal(item.label, value.name, 'the label stays the name');
    assert.ok(item.iconPath instanceof vscode.ThemeIcon, 'the icon stays the one set');
    assert.ok(item.resourceUri, 'the tree item carries its drift URI');
    const marks = new Map((report.treeMarks ?? []).map((m) => [m.uri, m]));
    const searchMark = marks.get(item.resourceUri.toString());
    assert.equal(searchMark?.badge, 'M', JSON.stringify(report.treeMarks));
    assert.match(searchMark!.tooltip, /^Differs from .+: where$/);
    const serviceNode = tree().folder(run.connectionId, run.serviceId, 'savedSearches')!.parent!;
    const serviceItem = tree().getTreeItem(serviceNode);
    assert.ok(serviceItem.resourceUri, 'the service item carries its drift URI');
    assert.match(marks.get(serviceItem.resourceUri.toString())?.tooltip ?? '', /^1 file of a service folder differs/);
    // The row drawn for the service carries that mark: the service on Cloud, the connection on self-hosted.
    const drawn = tree().getTreeItem((await run.folderParent()) as unknown as TreeNode);
    assert.equal(drawn.resourceUri?.toString(), serviceItem.resourceUri.toString(), 'the drawn service row is marked');
    // An unchanged resource is not marked.
    const [webhookFile] = await filesOf('webhooks');
    const webhookItem = await treeItemOf('webhooks', String((await read(webhookFile!)).id));
    assert.ok(webhookItem.resourceUri);
    assert.equal(marks.get(webhookItem.resourceUri.toString()), undefined, 'an unchanged webhook has no mark');
    assert.equal(marks.size, 2, JSON.stringify(report.treeMarks));

    // The tree says the same words as the Explorer, at the end of the items' tooltips.
    const words = (item: vscode.TreeItem) => tooltipText(item).replace(/\\(.)/g, '$1');
    const searchTip = words(await treeItemOf('savedSearches', searchId));
    assert.ok(searchTip.startsWith(String(value.name)), `the tooltip keeps its own lines: ${searchTip}`);
    assert.ok(searchTip.endsWith(searchMark!.tooltip), `the saved search says why it is marked: ${searchTip}`);
    const serviceWords = marks.get(serviceItem.resourceUri.toString())!.tooltip;
    const serviceTip = words(tree().getTreeItem((await run.folderParent()) as unknown as TreeNode));
    assert.ok(serviceTip.endsWith(serviceWords), `the service row says it too: ${serviceTip}`);
    assert.ok(!words(webhookItem).includes('Differs from'), 'an unchanged webhook says nothing');
  });

  it("a change made on the service shows on the view's Refresh, and Pull brings it back", async () => {
    const dashboards = await filesOf('dashboards');
    let dashboard: Json | undefined;
    for (const p of dashboards) {
      const v = await read(p);
      if (typeof v.name === 'string') {
        dashboardPath = p;
        dashboard = v;
        break;
      }
    }
    assert.ok(dashboard, 'a dashboard file');
    const live = (await client().getDashboard(run.serviceId, String(dashboard.id))).data;
    const body = editableBody('dashboard', live);
    await client().updateDashboard(run.serviceId, String(dashboard.id), {
      ...body,
      tags: ['changed-on-the-service'],
    } as never);

    await vscode.commands.executeCommand('observability.refresh');
    const report = await waitFor('the service change shown', async () => {
      const r = await shown();
      return r.changes.some((c) => c.path === dashboardPath) ? r : undefined;
    });
    assert.deepEqual(
      report.changes.map((c) => [c.path, c.state, c.badge]),
      [
        [dashboardPath, 'changed', 'M'],
        [searchPath, 'changed', 'M'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    assert.match(report.changes.find((c) => c.path === dashboardPath)!.tooltip, /: tags$/);
    const dashboardUri = (await treeItemOf('dashboards', String(dashboard.id))).resourceUri?.toString();
    assert.ok(dashboardUri, 'the dashboard item carries its drift URI');
    assert.match(
      report.treeMarks?.find((m) => m.uri === dashboardUri)?.tooltip ?? '',
      /: tags$/,
      'the Refresh marks the dashboard in the tree',
    );

    const pulled = await pull();
    assert.deepEqual(pulled.written, [dashboardPath], 'the edited saved search keeps its edit');
    assert.deepEqual((await read(dashboardPath)).tags, ['changed-on-the-service']);
    const after = await waitFor('the pulled file no longer marked', async () => {
      const r = await shown();
      return r.changes.some((c) => c.path === dashboardPath) ? undefined : r;
    });
    assert.deepEqual(
      after.changes.map((c) => c.path),
      [searchPath],
    );
    assert.equal(
      after.treeMarks?.find((m) => m.uri === dashboardUri),
      undefined,
      'the pulled dashboard is no longer marked in the tree',
    );
  });

  it('a resource with no file is listed as only on the service; a file for nothing there as only in the folder', async () => {
    const [webhookPath] = await filesOf('webhooks');
    const webhook = await read(webhookPath!);
    await vscode.workspace.fs.delete(fileOf(webhookPath!));
    const newPath = 'saved-searches/Drift only here.savedsearch.json';
    await vscode.workspace.fs.writeFile(
      fileOf(newPath),
      new TextEncoder().encode(
        `${JSON.stringify({ ...(await read(searchPath)), id: undefined, name: 'Drift only here' }, null, 2)}\n`,
      ),
    );
    const [report] = await vscode.commands.executeCommand<FolderDriftReport[]>(
      'observability.refreshServiceFolderChanges',
      { folder: folder.toString() },
    );
    const byPath = new Map(report!.changes.map((c) => [c.path, c]));
    const gone = byPath.get(webhookPath!);
    assert.equal(gone?.state, 'serviceOnly');
    assert.equal(gone?.group, 'serviceOnly');
    assert.equal(gone?.badge, undefined, 'no file, no Explorer mark');
    const added = byPath.get(newPath);
    assert.equal(added?.state, 'folderOnly', added?.tooltip);
    assert.equal(added?.badge, 'A');
    assert.match(added!.tooltip, /Apply creates it/);

    await vscode.workspace.fs.delete(fileOf(newPath));
    await pull();
    assert.equal((await read(webhookPath!)).id, webhook.id, 'Pull writes the file again');
    // The saved search is put back as the service has it: nothing differs.
    const doc = await vscode.workspace.openTextDocument(fileOf(searchPath));
    const live = (await client().getSavedSearch(run.serviceId, searchId)).data as Json;
    const value = JSON.parse(doc.getText()) as Json;
    await replaceText(doc, `${JSON.stringify({ ...value, where: live.where }, null, 2)}\n`);
    await doc.save();
    const clean = await waitFor('nothing differs', async () => {
      const r = await shown();
      return r.changes.length === 0 ? r : undefined;
    });
    assert.deepEqual(clean.changes, []);
    assert.deepEqual(clean.treeMarks, [], 'nothing marked in the tree either');
  });
});

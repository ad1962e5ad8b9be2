/**
 * Editor help in the files of a service folder, in a real VS Code against the emulator: completion and hover of the
 * name fields (a saved search's source, an alert's dashboard, tile and webhook) from the folder and the service, a
 * diagnostic on a name that resolves to nothing, and CodeLens Compare with Service on a file that differs.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FolderDriftReport } from '../../src/serviceFolders/driftView';
import { describeEachFlavor, readFile, replaceText, waitFor } from './support';

type Json = Record<string, unknown>;

describeEachFlavor('Service folder editor help', (run) => {
  let folder: vscode.Uri;
  const fileOf = (path: string) => vscode.Uri.joinPath(folder, ...path.split('/'));
  const read = async (path: string) => JSON.parse(await readFile(fileOf(path))) as Json;
  const filesOf = async (sub: string) =>
    (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder, sub))).map(([name]) => `${sub}/${name}`);
  /** The position just inside the string value of the first `"key": "…"` of a document. */
  const valueOf = (doc: vscode.TextDocument, key: string) => {
    const at = doc.getText().indexOf(`"${key}": "`);
    assert.ok(at >= 0, `${key} in ${doc.uri.path}`);
    return doc.positionAt(at + key.length + 5);
  };
  const completions = async (doc: vscode.TextDocument, key: string) => {
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      valueOf(doc, key),
    );
    return list.items
      .filter((i) => i.kind === vscode.CompletionItemKind.Reference)
      .map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
  };
  const hoverText = async (doc: vscode.TextDocument, key: string) => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      valueOf(doc, key),
    );
    return hovers
      .flatMap((h) => h.contents)
      .map((c) => (typeof c === 'string' ? c : c.value))
      .join('\n')
      .replace(/&nbsp;/g, ' ')
      .replace(/\\(.)/g, '$1');
  };

  before(async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the test host opens a workspace folder');
    folder = vscode.Uri.joinPath(workspace.uri, `service-editing-${run.flavor.emulatorFlavor}-${Date.now()}`);
    await vscode.commands.executeCommand('observability.pullServiceToFolder', {
      connectionId: run.connectionId,
      serviceId: run.serviceId,
      folder: folder.toString(),
      noPrompt: true,
    });
    const reports = await vscode.commands.executeCommand<FolderDriftReport[]>(
      'observability.refreshServiceFolderChanges',
      { shown: true },
    );
    assert.ok(reports.some((r) => r.folder === folder.toString() && !r.error));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (folder) await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
    await vscode.commands.executeCommand('observability.refreshServiceFolderChanges');
  });

  it("completes and explains a saved search's source name from the folder and the service", async () => {
    const [searchPath] = await filesOf('saved-searches');
    const doc = await vscode.workspace.openTextDocument(fileOf(searchPath!));
    await vscode.window.showTextDocument(doc);
    const sourceNames = [...run.data().sources.values()].map((s) => String(s.name)).sort();
    assert.deepEqual((await completions(doc, 'sourceName')).sort(), sourceNames);
    const search = await read(searchPath!);
    const source = [...run.data().sources.values()].find((s) => s.name === search.sourceName)!;
    const hover = await hoverText(doc, 'sourceName');
    assert.match(hover, /in the folder: sources\//);
    assert.ok(hover.includes(String(source.id)), hover);
  });

  it("completes an alert's dashboard, the tiles of that dashboard and the webhooks", async () => {
    let alertPath = '';
    for (const p of await filesOf('alerts')) {
      const v = await read(p);
      if (typeof v.tileName === 'string' && isObject(v.channel) && typeof v.channel.webhookName === 'string') {
        alertPath = p;
      }
    }
    assert.ok(alertPath, 'an alert on a tile with a webhook');
    const alert = await read(alertPath);
    const doc = await vscode.workspace.openTextDocument(fileOf(alertPath));
    await vscode.window.showTextDocument(doc);
    const data = run.data();
    assert.ok((await completions(doc, 'dashboardName')).includes(String(alert.dashboardName)));
    const dashboard = [...data.dashboards.values()].find((d) => d.name === alert.dashboardName)!;
    const tileNames = (dashboard.tiles as unknown as { name?: string }[])
      .map((t) => t.name)
      .filter((n): n is string => typeof n === 'string');
    assert.deepEqual((await completions(doc, 'tileName')).sort(), [...new Set(tileNames)].sort());
    assert.deepEqual(
      (await completions(doc, 'webhookName')).sort(),
      [...new Set([...data.webhooks.values()].map((w) => String(w.name)))].sort(),
    );
  });

  it('offers Compare with Service on a file that differs, and marks a name that resolves to nothing', async () => {
    const [searchPath] = await filesOf('saved-searches');
    const doc = await vscode.workspace.openTextDocument(fileOf(searchPath!));
    await vscode.window.showTextDocument(doc);
    const value = JSON.parse(doc.getText()) as Json;
    await replaceText(doc, `${JSON.stringify({ ...value, where: 'edited in the folder' }, null, 2)}\n`);
    await doc.save();
    const lens = await waitFor('the Compare lens', async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      return lenses.find((l) => l.command?.title === 'Compare with Service');
    });
    // VS Code runs `vscode.diff` as its own `_workbench.diff`.
    assert.match(lens.command?.command ?? '', /^(vscode|_workbench)\.diff$/);
    const [left, right] = lens.command!.arguments as vscode.Uri[];
    assert.equal(right!.toString(), doc.uri.toString());
    const serviceText = (await vscode.workspace.openTextDocument(left!)).getText();
    assert.equal((JSON.parse(serviceText) as Json).where, value.where, "the service's version");

    await replaceText(doc, `${JSON.stringify({ ...value, sourceName: 'No such source' }, null, 2)}\n`);
    const problem = await waitFor('the diagnostic on the name', () =>
      vscode.languages
        .getDiagnostics(doc.uri)
        .find((d) => d.source === 'Observability' && /No such source/.test(d.message)),
    );
    assert.equal(problem.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(problem.range.start.line, valueOf(doc, 'sourceName').line, problem.message);
    const hover = await hoverText(doc, 'sourceName');
    assert.match(hover, /No source of that name/);

    await replaceText(doc, `${JSON.stringify(value, null, 2)}\n`);
    await doc.save();
    await waitFor('no diagnostic', () =>
      vscode.languages.getDiagnostics(doc.uri).every((d) => d.source !== 'Observability'),
    );
  });

  it("checks a dashboard file by the folder's schema, with the parts it shares with the dashboard schema", async () => {
    const dashboardPath = (await filesOf('dashboards')).find((p) => p.endsWith('.dashboard.json'));
    assert.ok(dashboardPath, 'a dashboard file in the folder');
    const doc = await vscode.workspace.openTextDocument(fileOf(dashboardPath));
    await vscode.window.showTextDocument(doc);
    const value = JSON.parse(doc.getText()) as { tiles: Json[] };
    assert.ok(value.tiles.length > 0, 'a dashboard with tiles');
    // A tile's position is checked by the rule the folder's schema takes from dashboard.schema.json.
    value.tiles[0]!.x = 'left';
    await replaceText(doc, `${JSON.stringify(value, null, 2)}\n`);
    const json = () => vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source !== 'Observability');
    const typed = await waitFor(
      'the JSON support flags the tile position',
      () => json().find((d) => /Incorrect type/.test(d.message) && /"x"/.test(doc.lineAt(d.range.start.line).text)),
      30_000,
    );
    assert.match(typed.message, /number/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

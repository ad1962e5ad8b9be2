/**
 * Alert files in the workspace against the in-process emulator: diagnostics at the right lines, CodeLens titles,
 * create with the ID written back and a second apply that updates, Export to File, the plan (create / update /
 * unchanged / drift) and Apply Plan finishing the rest after a failure.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { ApplyPlanResult, FileResult } from '../../src/alertFiles/service';
import type { AlertPlan } from '../../src/alertFiles/plan';
import { activate, alertTarget, configure, describeEachFlavor, readFile, waitFor, writeFile } from './support';

interface Api {
  readonly tree: {
    readonly provider: {
      getChildren(node?: unknown): Promise<{ type: string; alert?: { id: string } }[]>;
      folder(connectionId: string, serviceId: string, kind: string): unknown;
    };
  };
}

describe('Alert files', function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let connectionId: string;
  let orgId: string;
  let serviceA: string;
  let serviceB: string;
  let root: vscode.Uri;
  let api: Api;
  let counter = 0;

  const data = (serviceId: string) => emulator.state.data.get(serviceId)!;
  const alertCount = (serviceId: string) => data(serviceId).alerts.size;

  const target = (serviceId: string) => alertTarget(emulator, serviceId);

  function alertFile(serviceId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    const t = target(serviceId);
    return {
      organizationId: orgId,
      serviceId,
      name: `File alert ${++counter}`,
      source: 'tile',
      dashboardId: t.dashboardId,
      tileId: t.tileId,
      threshold: 10,
      thresholdType: 'above',
      interval: '5m',
      channel: { type: 'webhook', webhookId: t.webhookId },
      ...extra,
    };
  }

  async function folder(name: string): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(root, name);
    await vscode.workspace.fs.createDirectory(uri);
    return uri;
  }

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('rateLimit.windowSeconds', 1);
    await configure('requestTimeoutSeconds', 5);
    emulator = await startEmulator({ rateLimit: { requests: 100_000, windowMs: 1000 } });
    api = await activate<Api>();
    orgId = emulator.organizationId;
    [serviceA, serviceB] = emulator.serviceIds as [string, string];
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: orgId,
      serviceIds: [serviceA, serviceB],
      label: 'Alert files (emulator)',
    });
    assert.equal(typeof connectionId, 'string');
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the test host opens a workspace folder');
    root = vscode.Uri.joinPath(workspace.uri, `alert-files-test-${Date.now()}`);
    await vscode.workspace.fs.createDirectory(root);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (root) await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false });
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('rateLimit.windowSeconds', undefined);
    await configure('requestTimeoutSeconds', undefined);
    await emulator?.close();
  });

  afterEach(async () => {
    emulator.faults.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('reports problems of a bad file at the right lines', async () => {
    const dir = await folder('bad');
    const uri = vscode.Uri.joinPath(dir, 'bad.alert.json');
    const body = alertFile(serviceA, { dashboardId: 'nosuchdashboard', thresholdType: 'between', name: '' });
    await writeFile(uri, `${JSON.stringify(body, null, 2)}\n`);
    const text = await readFile(uri);
    const lineOf = (key: string) => text.split('\n').findIndex((l) => l.includes(`"${key}"`));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);

    // While typing: the live reference and the range rule, without any command.
    const live = await waitFor('live diagnostics', () => {
      const found = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Observability');
      return found.some((d) => d.message.includes('nosuchdashboard')) ? found : undefined;
    });
    assert.equal(live.find((d) => d.message.includes('nosuchdashboard'))?.range.start.line, lineOf('dashboardId'));
    assert.equal(live.find((d) => d.message.includes('thresholdMax'))?.range.start.line, lineOf('thresholdType'));
    assert.equal(live.find((d) => d.message.includes('Empty text'))?.range.start.line, lineOf('name'));

    const problems = await vscode.commands.executeCommand<string[]>('observability.validateAlertFile', {
      uri: uri.toString(),
      quiet: true,
    });
    assert.ok(
      problems.some((p) => p.startsWith(`${lineOf('dashboardId') + 1}:`) && p.includes('nosuchdashboard')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith(`${lineOf('name') + 1}:`)),
      problems.join('\n'),
    );

    const before = alertCount(serviceA);
    const result = await vscode.commands.executeCommand<FileResult>('observability.applyAlertFile', {
      uri: uri.toString(),
      confirm: true,
    });
    assert.equal(result.outcome, 'invalid');
    assert.equal(alertCount(serviceA), before, 'nothing was sent');
  });

  it('gets the alert file JSON Schema in workspace files, and editor documents keep theirs', async () => {
    const dir = await folder('schema');
    const uri = vscode.Uri.joinPath(dir, 'schema.alert.json');
    await writeFile(
      uri,
      `${JSON.stringify(alertFile(serviceA, { serviceId: undefined, thresholdType: 'sideways' }), null, 2)}\n`,
    );
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const fromJson = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source !== 'Observability');
    await waitFor(
      'JSON schema diagnostics',
      () =>
        fromJson().some((d) => /serviceId/.test(d.message)) &&
        fromJson().some((d) => /Value is not accepted/.test(d.message)),
      30_000,
    );

    // An alert document of the resource editors has no target fields: the file schema must not apply to it.
    const t = target(serviceA);
    const editorUri = await vscode.commands.executeCommand<string>('observability.createAlert', {
      connectionId,
      serviceId: serviceA,
      dashboardId: t.dashboardId,
      tileId: t.tileId,
      webhookId: t.webhookId,
      threshold: 1,
      name: 'Editor doc',
    });
    const editorDoc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === editorUri);
    assert.ok(editorDoc);
    const editDoc = new vscode.WorkspaceEdit();
    const at = editorDoc.getText().indexOf('"above"');
    editDoc.replace(
      editorDoc.uri,
      new vscode.Range(editorDoc.positionAt(at), editorDoc.positionAt(at + 7)),
      '"sideways"',
    );
    assert.ok(await vscode.workspace.applyEdit(editDoc));
    await waitFor(
      'the editor document schema diagnostic',
      () => vscode.languages.getDiagnostics(editorDoc.uri).some((d) => /Value is not accepted/.test(d.message)),
      30_000,
    );
    const targetErrors = vscode.languages
      .getDiagnostics(editorDoc.uri)
      .filter((d) => /organizationId|serviceId/.test(d.message));
    assert.deepEqual(
      targetErrors.map((d) => d.message),
      [],
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('shows Create on <service> without id, and Update / Compare / Validate with one', async () => {
    const dir = await folder('lenses');
    const fresh = vscode.Uri.joinPath(dir, 'fresh.alert.json');
    const managed = vscode.Uri.joinPath(dir, 'managed.alert.json');
    await writeFile(fresh, `${JSON.stringify(alertFile(serviceA), null, 2)}\n`);
    await writeFile(
      managed,
      `${JSON.stringify(alertFile(serviceA, { id: 'abc123', name: 'Checkout latency' }), null, 2)}\n`,
    );
    const titles = async (uri: vscode.Uri) => {
      await vscode.workspace.openTextDocument(uri);
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
      return lenses
        .map((l) => l.command?.title ?? '')
        .filter((t) => t)
        .map((t) => t.replace(/^\$\([a-z-]+\) /, ''));
    };
    // After the file's own lenses, the backtest of the alert: "backtest…" while it runs, then its result (here the
    // service has no query endpoint set up, so it says why it could not run: on Cloud the connection to the emulator
    // has no query host, so the lens does not run and says so).
    const backtest =
      /^(\$\(sync~spin\) backtest…|backtest failed: .+|backtest not run: .+|would (have|not have) fired .+)$/;
    const fresh3 = await titles(fresh);
    assert.deepEqual(fresh3.slice(0, 2), ['Create on checkout-prod', 'Validate']);
    assert.equal(fresh3.length, 3, fresh3.join(' | '));
    assert.match(fresh3[2]!, backtest);
    const managed4 = await titles(managed);
    assert.deepEqual(managed4.slice(0, 3), ['Update Checkout latency', 'Compare with Service', 'Validate']);
    assert.equal(managed4.length, 4, managed4.join(' | '));
    assert.match(managed4[3]!, backtest);
  });

  it('completes live dashboard IDs (with names) in a workspace file', async () => {
    const dir = await folder('completion');
    const uri = vscode.Uri.joinPath(dir, 'complete.alert.json');
    await writeFile(uri, `${JSON.stringify(alertFile(serviceA, { dashboardId: '' }), null, 2)}\n`);
    const doc = await vscode.workspace.openTextDocument(uri);
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => l.includes('"dashboardId"'));
    const position = new vscode.Position(line, doc.lineAt(line).text.indexOf('""') + 1);
    const names = [...data(serviceA).dashboards.values()].map((d) => d.name as string);
    const labels = await waitFor('dashboard completion', async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        uri,
        position,
      );
      const found = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
      return names.every((n) => found.includes(n)) ? found : undefined;
    });
    assert.ok(labels.length >= names.length);
  });

  it('exports an alert from the explorer tree as a file that manages it', async () => {
    const dir = await folder('export');
    const alerts = await api.tree.provider.getChildren(api.tree.provider.folder(connectionId, serviceA, 'alerts'));
    const node = alerts.find((n) => n.type === 'alert' && n.alert);
    assert.ok(node?.alert);
    // The save dialog is the only prompt; a target passed along with the node stands in for it here.
    const target = vscode.Uri.joinPath(dir, 'from-tree.alert.json');
    const written = await vscode.commands.executeCommand<string>(
      'observability.exportAlertToFile',
      Object.assign(Object.create(node) as object, { uri: target.toString() }),
    );
    assert.equal(written, target.toString());
    const value = JSON.parse(await readFile(target)) as Record<string, unknown>;
    assert.equal(value.id, node.alert.id);
    assert.equal(value.serviceId, serviceA);
    const titles = (
      await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', target)
    ).map((l) => l.command?.title ?? '');
    assert.ok(titles[0]?.includes('Update'), titles.join());
    const plan = await vscode.commands.executeCommand<AlertPlan>('observability.planAlertFiles', {
      folder: dir.toString(),
      show: false,
    });
    assert.equal(plan.services[0]?.entries[0]?.action, 'unchanged');
  });

  it('creates from a file, writes the id back keeping comments, and a second apply updates the same alert', async () => {
    const dir = await folder('create');
    const uri = vscode.Uri.joinPath(dir, 'checkout errors.alert.json');
    const json = JSON.stringify(alertFile(serviceA, { name: 'Checkout errors' }), null, 4);
    await writeFile(uri, json.replace('{\n', '{\n    // Owned by the checkout team\n'));
    const before = alertCount(serviceA);

    const created = await vscode.commands.executeCommand<FileResult>('observability.applyAlertFile', {
      uri: uri.toString(),
      confirm: true,
    });
    assert.equal(created.outcome, 'created', JSON.stringify(created));
    assert.ok(created.id);
    assert.equal(alertCount(serviceA), before + 1);
    const text = await waitFor('the id on disk', async () => {
      const t = await readFile(uri);
      return t.includes(created.id as string) ? t : undefined;
    });
    assert.match(text, /\/\/ Owned by the checkout team/);
    assert.match(text, new RegExp(`"serviceId": "${serviceA}",\\n {4}"id": "${created.id}",`), text);

    // Edit in the editor (unsaved) and apply again: the same alert is updated and the file saved.
    const doc = await vscode.workspace.openTextDocument(uri);
    await waitFor('the editor to show the id', () => doc.getText().includes(created.id as string));
    const at = doc.getText().indexOf('"threshold": 10');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      uri,
      new vscode.Range(doc.positionAt(at), doc.positionAt(at + '"threshold": 10'.length)),
      '"threshold": 25',
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);
    const updated = await vscode.commands.executeCommand<FileResult>('observability.applyAlertFile', {
      uri: uri.toString(),
      confirm: true,
    });
    assert.equal(updated.outcome, 'updated', JSON.stringify(updated));
    assert.equal(updated.id, created.id);
    assert.equal(alertCount(serviceA), before + 1, 'no duplicate');
    assert.equal(data(serviceA).alerts.get(created.id as string)?.threshold, 25);
    assert.equal(doc.isDirty, false);
    assert.match(await readFile(uri), /"threshold": 25/);

    const again = await vscode.commands.executeCommand<FileResult>('observability.applyAlertFile', {
      uri: uri.toString(),
      confirm: true,
    });
    assert.equal(again.outcome, 'unchanged');

    // Compare with Service: the live alert, as a file, against the file.
    data(serviceA).alerts.get(created.id as string)!.threshold = 30;
    assert.equal(
      await vscode.commands.executeCommand<boolean>('observability.compareAlertFile', { uri: uri.toString() }),
      true,
    );
    const diff = await waitFor('the diff tab', () =>
      vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff
        ? vscode.window.tabGroups.activeTabGroup.activeTab.input
        : undefined,
    );
    assert.equal(diff.modified.toString(), uri.toString());
    const left = await vscode.workspace.openTextDocument(diff.original);
    const leftValue = JSON.parse(left.getText()) as Record<string, unknown>;
    assert.equal(leftValue.id, created.id);
    assert.equal(leftValue.threshold, 30);
  });

  it('does not create twice when Create is clicked twice', async () => {
    const dir = await folder('twice');
    const uri = vscode.Uri.joinPath(dir, 'twice.alert.json');
    await writeFile(uri, JSON.stringify(alertFile(serviceA), null, 2));
    const before = alertCount(serviceA);
    emulator.faults.add({ method: 'POST', path: /\/alerts$/, times: 1, delayMs: 300 });
    const results = await Promise.all(
      [1, 2].map(() =>
        vscode.commands.executeCommand<FileResult>('observability.applyAlertFile', {
          uri: uri.toString(),
          confirm: true,
        }),
      ),
    );
    assert.deepEqual(results.map((r) => r.outcome).sort(), ['busy', 'created']);
    assert.equal(alertCount(serviceA), before + 1);
  });

  it('says a refused create in the words of every write (operation, HTTP status, message, request ID) and keeps the file as typed', async () => {
    const dir = await folder('refused');
    const uri = vscode.Uri.joinPath(dir, 'refused.alert.json');
    const typed = `${JSON.stringify(alertFile(serviceA), null, 2)}\n`;
    await writeFile(uri, typed);
    const before = alertCount(serviceA);
    emulator.faults.add({
      method: 'POST',
      path: /\/alerts$/,
      times: 1,
      status: 400,
      body: { status: 400, error: 'Alert refused <b>here</b>', requestId: '00000000-0000-4000-8000-000000000401' },
    });
    const result = await vscode.commands.executeCommand<FileResult>('observability.applyAlertFile', {
      uri: uri.toString(),
    });
    assert.equal(result.outcome, 'failed', JSON.stringify(result));
    assert.match(result.error ?? '', /^Create alert failed: HTTP 400/);
    assert.match(result.error ?? '', /Alert refused/);
    assert.match(result.error ?? '', /requestId 00000000-0000-4000-8000-000000000401/);
    assert.equal(result.requestId, '00000000-0000-4000-8000-000000000401');
    assert.equal(await readFile(uri), typed, 'the file is left as typed (no id written)');
    assert.equal(alertCount(serviceA), before);
  });

  it('plans create, update, unchanged and drift per service; Export to File writes a managed file', async () => {
    const dir = await folder('plan');
    const live = [...data(serviceB).alerts.values()].filter((a) => a.source === 'tile');
    assert.ok(live.length >= 2, 'service B has tile alerts');
    const first = live[0]!;
    const second = live[1]!;
    const exported = await vscode.commands.executeCommand<string>('observability.exportAlertToFile', {
      connectionId,
      serviceId: serviceB,
      alertId: first.id,
      uri: vscode.Uri.joinPath(dir, 'unchanged.alert.json').toString(),
    });
    assert.ok(exported);
    const exportedValue = JSON.parse(await readFile(vscode.Uri.parse(exported))) as Record<string, unknown>;
    assert.equal(exportedValue.id, first.id);
    assert.equal(exportedValue.organizationId, orgId);
    assert.equal(exportedValue.serviceId, serviceB);

    const toUpdate = vscode.Uri.joinPath(dir, 'update.alert.json');
    await vscode.commands.executeCommand('observability.exportAlertToFile', {
      connectionId,
      serviceId: serviceB,
      alertId: second.id,
      uri: toUpdate.toString(),
    });
    const updateValue = JSON.parse(await readFile(toUpdate)) as Record<string, unknown>;
    await writeFile(
      toUpdate,
      JSON.stringify({ ...updateValue, threshold: Number(updateValue.threshold) + 1 }, null, 2),
    );
    await writeFile(vscode.Uri.joinPath(dir, 'new.alert.json'), JSON.stringify(alertFile(serviceB), null, 2));

    const plan = await vscode.commands.executeCommand<AlertPlan>('observability.planAlertFiles', {
      folder: dir.toString(),
    });
    assert.equal(plan.services.length, 1);
    const service = plan.services[0]!;
    assert.equal(service.serviceLabel, 'search-staging');
    const actions = Object.fromEntries(service.entries.map((e) => [e.label.split('/').pop(), e.action]));
    assert.deepEqual(actions, {
      'new.alert.json': 'create',
      'unchanged.alert.json': 'unchanged',
      'update.alert.json': 'update',
    });
    assert.deepEqual(
      service.drift.map((d) => d.id).sort(),
      [...data(serviceB).alerts.keys()].filter((id) => id !== first.id && id !== second.id).sort(),
    );
    // The plan just shown (documents of earlier plans may still be open in the workspace).
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(
      doc && doc.uri.scheme === 'observability-alert-files' && doc.uri.path.endsWith('Alert plan.md'),
      'the plan is shown',
    );
    assert.match(doc.getText(), /### Create \(1\)/);
    assert.match(doc.getText(), /### Live alerts without a file/);
  });

  it('plans no update for fields only the service has (channels beside channel, fields it adds or keeps), so Apply Plan sends nothing', async () => {
    const dir = await folder('service-fields');
    const live = [...data(serviceA).alerts.values()]
      .filter((a) => a.source === 'tile' && a.channels.length === 1)
      .at(-1)!;
    const file = vscode.Uri.joinPath(dir, 'kept.alert.json');
    await vscode.commands.executeCommand('observability.exportAlertToFile', {
      connectionId,
      serviceId: serviceA,
      alertId: live.id,
      uri: file.toString(),
    });
    const value = JSON.parse(await readFile(file)) as Record<string, unknown>;
    assert.equal('channels' in value, false, 'the file names one channel');
    delete value.numConsecutiveWindows;
    await writeFile(file, JSON.stringify(value, null, 2));
    // The service adds a field to its channel list and keeps a value the file leaves out.
    (live.channels[0] as Record<string, unknown>).deliveryMode = 'digest';
    live.numConsecutiveWindows = 3;
    const plan = await vscode.commands.executeCommand<AlertPlan>('observability.planAlertFiles', {
      folder: dir.toString(),
      show: false,
    });
    assert.equal(plan.services[0]?.entries[0]?.action, 'unchanged', JSON.stringify(plan.services[0]?.entries));
    const mark = emulator.requests.length;
    const applied = await vscode.commands.executeCommand<ApplyPlanResult>('observability.applyAlertPlan', {
      folder: dir.toString(),
      confirm: true,
    });
    assert.deepEqual(
      applied.done.map((d) => d.action),
      [],
    );
    assert.equal(emulator.requests.slice(mark).filter((r) => r.method === 'PUT').length, 0, 'no PUT sent again');
  });

  it('applies a plan one request at a time; after an injected failure a second run finishes the rest', async () => {
    const dir = await folder('apply');
    const uris = [1, 2, 3].map((n) => vscode.Uri.joinPath(dir, `alert-${n}.alert.json`));
    for (const uri of uris) await writeFile(uri, JSON.stringify(alertFile(serviceB), null, 2));
    const before = alertCount(serviceB);
    emulator.faults.add({
      method: 'POST',
      path: /\/alerts$/,
      times: 1,
      status: 400,
      body: { status: 400, error: 'Injected failure', requestId: 'x' },
    });

    const first = await vscode.commands.executeCommand<ApplyPlanResult>('observability.applyAlertPlan', {
      folder: dir.toString(),
      confirm: true,
    });
    assert.equal(first.outcome, 'partial');
    assert.equal(first.done.length, 2);
    assert.equal(first.failed.length, 1);
    assert.match(first.failed[0]!.error, /Injected failure/);
    assert.equal(alertCount(serviceB), before + 2);
    const withIds = (await Promise.all(uris.map(readFile))).filter((t) => /"id":/.test(t)).length;
    assert.equal(withIds, 2, 'ids written back as each create succeeded');

    const shown = await vscode.commands.executeCommand<AlertPlan>('observability.planAlertFiles', {
      folder: dir.toString(),
    });
    assert.equal(shown.counts.create, 1);
    const planDoc = vscode.window.activeTextEditor?.document;
    assert.ok(planDoc && planDoc.uri.scheme === 'observability-alert-files');
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      planDoc.uri,
    );
    assert.ok(lenses.some((l) => l.command?.command === 'observability.applyAlertPlan'));

    const second = await vscode.commands.executeCommand<ApplyPlanResult>('observability.applyAlertPlan', {
      folder: dir.toString(),
      confirm: true,
    });
    assert.equal(second.outcome, 'applied', JSON.stringify(second));
    assert.deepEqual(
      second.done.map((d) => d.action),
      ['create'],
    );
    assert.equal(second.plan?.counts.unchanged, 2);
    assert.equal(alertCount(serviceB), before + 3);
    for (const uri of uris) assert.match(await readFile(uri), /"id":/);
    // The plan on screen shows the new state.
    await waitFor('the refreshed plan', () => /^0 to create, 0 to update, 3 unchanged/m.test(planDoc.getText()));

    const third = await vscode.commands.executeCommand<ApplyPlanResult>('observability.applyAlertPlan', {
      folder: dir.toString(),
      confirm: true,
    });
    assert.equal(third.outcome, 'nothingToDo');
  });

  it('keeps Apply Plan within the configured rate limit', async () => {
    const dir = await folder('limit');
    for (const n of [1, 2, 3, 4]) {
      await writeFile(
        vscode.Uri.joinPath(dir, `limited-${n}.alert.json`),
        JSON.stringify(alertFile(serviceB), null, 2),
      );
    }
    await configure('rateLimit.requestsPerWindow', 3);
    await configure('rateLimit.windowSeconds', 1);
    try {
      const started = Date.now();
      const result = await vscode.commands.executeCommand<ApplyPlanResult>('observability.applyAlertPlan', {
        folder: dir.toString(),
        confirm: true,
      });
      assert.equal(result.outcome, 'applied', JSON.stringify(result));
      assert.equal(result.done.length, 4);
      const requests = emulator.requests.filter((r) => r.at >= started && r.path.startsWith('/v1/'));
      assert.ok(requests.length >= 5, `${requests.length} requests recorded`);
      assert.ok(
        requests.every((r) => r.status !== 429),
        'no request was refused',
      );
      for (const r of requests) {
        const inWindow = requests.filter((o) => o.at >= r.at && o.at < r.at + 1000).length;
        assert.ok(inWindow <= 3, `${inWindow} requests within one second`);
      }
    } finally {
      await configure('rateLimit.requestsPerWindow', 1000);
      await configure('rateLimit.windowSeconds', 1);
    }
  });
});

// The alert-file journey, once per connection kind: a Cloud file names its service by organization and service ID,
// a self-hosted one its deployment by base URL; planning and applying are the same.
describeEachFlavor('Alert files journey', (run) => {
  let dir: vscode.Uri;

  before(async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the test host opens a workspace folder');
    dir = vscode.Uri.joinPath(workspace.uri, `alert-files-journey-${run.flavor.emulatorFlavor}-${Date.now()}`);
    await vscode.workspace.fs.createDirectory(dir);
  });

  after(async () => {
    if (dir) await vscode.workspace.fs.delete(dir, { recursive: true, useTrash: false });
  });

  it('exports an alert to a file, plans the edited file as an update and a copy without ID as a create, and applies the plan', async () => {
    const alert = [...run.data().alerts.values()].find((a) => a.source === 'tile')!;
    const managed = vscode.Uri.joinPath(dir, 'managed.alert.json');
    const exported = await vscode.commands.executeCommand<string>('observability.exportAlertToFile', {
      connectionId: run.connectionId,
      serviceId: run.serviceId,
      alertId: alert.id,
      uri: managed.toString(),
    });
    assert.ok(exported);
    const value = JSON.parse(await readFile(managed)) as Record<string, unknown>;
    assert.equal(value.id, alert.id);
    if (run.flavor.emulatorFlavor === 'oss') assert.equal(value.baseUrl, run.emulator.url);
    else assert.equal(value.serviceId, run.serviceId);

    const threshold = Number(value.threshold) + 5;
    await writeFile(managed, JSON.stringify({ ...value, threshold }, null, 2));
    const { id: _id, ...copy } = value;
    const created = vscode.Uri.joinPath(dir, 'copy.alert.json');
    await writeFile(created, JSON.stringify({ ...copy, name: `Journey copy (${run.flavor.name})` }, null, 2));

    const plan = await vscode.commands.executeCommand<AlertPlan>('observability.planAlertFiles', {
      folder: dir.toString(),
    });
    assert.equal(plan.services.length, 1);
    const actions = Object.fromEntries(plan.services[0]!.entries.map((e) => [e.label.split('/').pop(), e.action]));
    assert.deepEqual(actions, { 'copy.alert.json': 'create', 'managed.alert.json': 'update' });

    const before = run.data().alerts.size;
    const mark = run.emulator.requests.length;
    const applied = await vscode.commands.executeCommand<ApplyPlanResult>('observability.applyAlertPlan', {
      folder: dir.toString(),
      confirm: true,
    });
    assert.equal(applied.outcome, 'applied', JSON.stringify(applied));
    assert.deepEqual(applied.done.map((d) => d.action).sort(), ['create', 'update']);
    assert.equal(run.data().alerts.get(alert.id)?.threshold, threshold);
    assert.equal(run.data().alerts.size, before + 1);
    // Writes only: a self-hosted deployment's reads of data (the fired-count lens's chart series, searches) are POSTs too.
    const writes = run.emulator.requests
      .slice(mark)
      .filter((r) => r.method !== 'GET' && !/\/(charts\/series|search)$/.test(r.path));
    assert.deepEqual(writes.map((r) => `${r.method} ${r.path}`).sort(), [
      `POST ${run.path('alerts')}`,
      `PUT ${run.path('alerts')}/${alert.id}`,
    ]);
    const createdId = (JSON.parse(await readFile(created)) as { id?: string }).id;
    assert.ok(createdId && run.data().alerts.has(createdId), 'the new ID is written back into the file');

    const again = await vscode.commands.executeCommand<ApplyPlanResult>('observability.applyAlertPlan', {
      folder: dir.toString(),
      confirm: true,
    });
    assert.equal(again.outcome, 'nothingToDo');
  });
});

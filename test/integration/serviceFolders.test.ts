/**
 * Service folders in a real VS Code against the emulator, once per connection kind: pull a service into a folder (no
 * change in the plan, no webhook secret in a file), edit three kinds (exactly those in the plan, each sent once, then
 * nothing), a change made on the service shows in the plan and pulls back, a missing reference stops the apply
 * before any write, and the folder promoted to another service creates its resources with names resolved there.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { FolderPlan } from '../../src/serviceFolders/plan';
import type { ApplyResult, PullResult } from '../../src/serviceFolders/service';
import { describeEachFlavor, readFile, writeFile, SELF_HOSTED_FLAVOR } from './support';

type Json = Record<string, unknown>;

const changing = (plan: FolderPlan) =>
  plan.steps.filter((s) => s.action !== 'unchanged').map((s) => `${s.action} ${s.kind} ${s.name}`);

describeEachFlavor('Service folders journey', (run) => {
  let folder: vscode.Uri;
  let other: { emulator: Emulator; connectionId: string; serviceId: string } | undefined;
  let ownEmulator: Emulator | undefined;

  const writes = (emulator: Emulator, from: number) =>
    emulator.requests
      .slice(from)
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`);
  const fileOf = (path: string) => vscode.Uri.joinPath(folder, ...path.split('/'));
  const read = async (path: string) => JSON.parse(await readFile(fileOf(path))) as Json;
  const edit = async (path: string, change: (value: Json) => void) => {
    const value = await read(path);
    change(value);
    await writeFile(fileOf(path), `${JSON.stringify(value, null, 2)}\n`);
  };
  const plan = () =>
    vscode.commands.executeCommand<FolderPlan>('observability.planServiceFolder', {
      folder: folder.toString(),
      noPrompt: true,
    });
  const filesOf = async (sub: string) =>
    (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder, sub))).map(([name]) => `${sub}/${name}`);

  before(async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the test host opens a workspace folder');
    folder = vscode.Uri.joinPath(workspace.uri, `service-folder-${run.flavor.emulatorFlavor}-${Date.now()}`);
  });

  after(async () => {
    if (folder) await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
    if (other) {
      await vscode.commands.executeCommand('observability.removeConnection', {
        connectionId: other.connectionId,
        noPrompt: true,
      });
    }
    await ownEmulator?.close();
  });

  it('pulls the service into a folder: one file per resource, names instead of IDs, no webhook secret, nothing to apply', async () => {
    const result = await vscode.commands.executeCommand<PullResult>('observability.pullServiceToFolder', {
      connectionId: run.connectionId,
      serviceId: run.serviceId,
      folder: folder.toString(),
      noPrompt: true,
    });
    const data = run.data();
    const counts = {
      dashboards: data.dashboards.size,
      alerts: data.alerts.size,
      webhooks: data.webhooks.size,
      'saved-searches': data.savedSearches.size,
      sources: data.sources.size,
    };
    for (const [sub, count] of Object.entries(counts)) assert.equal((await filesOf(sub)).length, count, sub);
    assert.equal(result.written.length, Object.values(counts).reduce((a, b) => a + b, 0) + 1);
    const target = await read('service.observability.json');
    if (run.flavor.emulatorFlavor === 'oss') assert.equal(target.baseUrl, run.emulator.url);
    else assert.equal(target.serviceId, run.serviceId);

    const texts = await Promise.all((await filesOf('webhooks')).map((p) => readFile(fileOf(p))));
    for (const w of data.webhooks.values()) {
      const url = String(w.url ?? '');
      const token = url.split('/').pop() ?? '';
      if (token.length >= 16) {
        assert.ok(!texts.some((t) => t.includes(token)), `the token of ${String(w.name)} is not in a file`);
      }
    }
    const alerts = await Promise.all((await filesOf('alerts')).map(read));
    const tileAlert = alerts.find((a) => a.source === 'tile');
    assert.ok(tileAlert && typeof tileAlert.dashboardName === 'string' && typeof tileAlert.tileName === 'string');
    assert.ok(!('dashboardId' in tileAlert));

    const first = await plan();
    assert.deepEqual(first.problems, []);
    assert.deepEqual(changing(first), []);
  });

  it("an alert of the folder is not taken for an alert file, and offers the folder's Plan and Apply", async () => {
    const [path] = await filesOf('alerts');
    const doc = await vscode.workspace.openTextDocument(fileOf(path!));
    await vscode.window.showTextDocument(doc);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    assert.ok(!lenses.some((l) => /Create on|Update/.test(l.command?.title ?? '')), 'no alert file lens');
    assert.deepEqual(
      lenses.map((l) => l.command?.title),
      ['Plan Service Folder', 'Apply Service Folder'],
    );
    assert.deepEqual(lenses[0]!.command?.arguments, [{ folder: folder.toString() }]);
    const problems = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'Observability');
    assert.deepEqual(
      problems.map((d) => d.message),
      [],
    );
  });

  it('plans exactly the three edited kinds, applies each once, then has nothing to apply', async () => {
    const [dashboardPath] = await filesOf('dashboards');
    const [searchPath] = await filesOf('saved-searches');
    const alertPaths = await filesOf('alerts');
    let alertPath = '';
    for (const p of alertPaths) {
      const v = await read(p);
      if (typeof v.threshold === 'number' && typeof v.name === 'string') alertPath = p;
    }
    await edit(dashboardPath!, (v) => (v.tags = [...((v.tags as string[]) ?? []), 'as-code']));
    await edit(searchPath!, (v) => (v.where = 'SeverityText:error AND service-folder'));
    await edit(alertPath, (v) => (v.threshold = (v.threshold as number) + 3));
    const names = [await read(dashboardPath!), await read(searchPath!), await read(alertPath)].map((v) => v.name);

    const planned = await plan();
    assert.deepEqual(planned.problems, []);
    assert.deepEqual(
      changing(planned).sort(),
      [`update dashboard ${names[0]}`, `update savedSearch ${names[1]}`, `update alert ${names[2]}`].sort(),
    );
    const mark = run.emulator.requests.length;
    const result = await vscode.commands.executeCommand<ApplyResult>('observability.applyServiceFolder', {
      folder: folder.toString(),
      noPrompt: true,
    });
    assert.equal(result.outcome, 'applied', result.message);
    const sent = writes(run.emulator, mark);
    assert.equal(sent.length, 3, sent.join('\n'));
    assert.ok(
      sent.every((w) => w.startsWith('PUT ') || w.startsWith('PATCH ')),
      sent.join('\n'),
    );

    assert.deepEqual(changing(await plan()), []);
    const again = run.emulator.requests.length;
    const second = await vscode.commands.executeCommand<ApplyResult>('observability.applyServiceFolder', {
      folder: folder.toString(),
      noPrompt: true,
    });
    assert.equal(second.outcome, 'nothing');
    assert.deepEqual(writes(run.emulator, again), []);
  });

  it('shows a change made on the service as drift and pulls it back into the file', async () => {
    const dashboard = [...run.data().dashboards.values()][0]!;
    let file = '';
    for (const p of await filesOf('dashboards')) if ((await read(p)).id === dashboard.id) file = p;
    assert.ok(file, 'the file of the dashboard');
    (dashboard as unknown as Json).tags = ['changed-on-the-service'];
    const drift = await plan();
    assert.deepEqual(changing(drift), [`update dashboard ${String(dashboard.name)}`]);
    assert.deepEqual(
      drift.steps.find((s) => s.action === 'update')!.changes.map((c) => [c.path, c.before]),
      [['tags', ['changed-on-the-service']]],
    );
    const pulled = await vscode.commands.executeCommand<PullResult>('observability.pullServiceToFolder', {
      connectionId: run.connectionId,
      serviceId: run.serviceId,
      folder: folder.toString(),
      noPrompt: true,
    });
    assert.deepEqual(pulled.written, [file]);
    assert.deepEqual(pulled.conflicts, []);
    assert.deepEqual((await read(file)).tags, ['changed-on-the-service']);
    assert.deepEqual(changing(await plan()), []);
  });

  it('reports a name that resolves to nothing before any write', async () => {
    const [searchPath] = await filesOf('saved-searches');
    const original = await readFile(fileOf(searchPath!));
    await edit(searchPath!, (v) => {
      delete v.sourceId;
      v.sourceName = 'No such source';
    });
    const mark = run.emulator.requests.length;
    const result = await vscode.commands.executeCommand<ApplyResult>('observability.applyServiceFolder', {
      folder: folder.toString(),
      noPrompt: true,
    });
    assert.equal(result.outcome, 'refused');
    assert.match(result.message, /No such source/);
    assert.deepEqual(writes(run.emulator, mark), []);
    await writeFile(fileOf(searchPath!), original);
  });

  it('promotes the folder to another service: every resource created there, names resolved on it', async () => {
    if (run.flavor.emulatorFlavor === 'oss') {
      ownEmulator = await startEmulator({ flavor: 'oss', rateLimit: false, data: 'empty' });
      const connected = await SELF_HOSTED_FLAVOR.connect(ownEmulator, 'Service folders promote target');
      other = { emulator: ownEmulator, ...connected };
    } else {
      const serviceId = run.emulator.serviceIds[2]!;
      const connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
        baseUrl: run.emulator.url,
        keyId: run.emulator.keyId,
        keySecret: run.emulator.keySecret,
        organizationId: run.emulator.organizationId,
        serviceIds: [serviceId],
        label: 'Service folders promote target',
        skipCheck: true,
      });
      other = { emulator: run.emulator, connectionId, serviceId };
    }
    // A webhook of a kind the API does not write cannot be promoted; the plan says so before anything is sent.
    const unwritable: string[] = [];
    for (const p of await filesOf('webhooks')) {
      const v = await read(p);
      if (!['slack', 'incidentio', 'generic'].includes(String(v.service))) unwritable.push(String(v.name));
    }
    const target = { connectionId: other.connectionId, serviceId: other.serviceId };
    if (unwritable.length > 0) {
      const mark = other.emulator.requests.length;
      const refused = await vscode.commands.executeCommand<ApplyResult>('observability.promoteServiceFolder', {
        folder: folder.toString(),
        ...target,
        noPrompt: true,
      });
      assert.equal(refused.outcome, 'refused');
      assert.deepEqual(writes(other.emulator, mark), []);
      for (const p of await filesOf('webhooks')) {
        if (unwritable.includes(String((await read(p)).name))) await vscode.workspace.fs.delete(fileOf(p));
      }
      for (const p of await filesOf('alerts')) {
        const v = await read(p);
        const channels = [v.channel, ...((v.channels as unknown[]) ?? [])] as ({ webhookName?: string } | undefined)[];
        if (channels.some((c) => c?.webhookName && unwritable.includes(c.webhookName))) {
          await vscode.workspace.fs.delete(fileOf(p));
        }
      }
    }
    const files: Record<string, Json[]> = {};
    for (const sub of ['sources', 'saved-searches', 'webhooks', 'dashboards', 'alerts']) {
      files[sub] = await Promise.all((await filesOf(sub)).map(read));
    }
    const there =
      other.emulator.flavor === 'oss'
        ? SELF_HOSTED_FLAVOR.data(other.emulator, other.serviceId)
        : other.emulator.state.data.get(other.serviceId)!;
    // The sources name the ClickHouse connection of the folder's own service; the new service has its own, which no
    // source there names yet (the API lists no connections): the plan refuses with the reason, nothing is sent.
    const ownConnection = String(files.sources![0]!.connection);
    const mark = other.emulator.requests.length;
    const unresolved = await vscode.commands.executeCommand<ApplyResult>('observability.promoteServiceFolder', {
      folder: folder.toString(),
      ...target,
      noPrompt: true,
    });
    assert.equal(unresolved.outcome, 'refused', unresolved.message);
    assert.match(unresolved.message, new RegExp(`ClickHouse connection ${ownConnection} belongs to the folder's own`));
    assert.match(unresolved.message, /connectionMap/);
    assert.deepEqual(
      unresolved.plan.connectionChoices?.map((c) => c.id),
      [ownConnection],
    );
    assert.deepEqual(writes(other.emulator, mark), []);
    const theirConnection = [...there.connections.keys()][0]!;
    const result = await vscode.commands.executeCommand<ApplyResult>('observability.promoteServiceFolder', {
      folder: folder.toString(),
      ...target,
      connectionMap: { [ownConnection]: theirConnection },
      noPrompt: true,
    });
    assert.equal(result.outcome, 'applied', result.message);
    for (const s of there.sources.values()) assert.equal(s.connection, theirConnection, String(s.name));
    const named = (map: Map<string, Json>, name: unknown) => [...map.values()].filter((v) => v.name === name);
    for (const d of files.dashboards!) {
      assert.equal(named(there.dashboards as never, d.name).length, 1, `dashboard ${String(d.name)}`);
    }
    for (const s of files.sources!) {
      assert.equal(named(there.sources as never, s.name).length, 1, `source ${String(s.name)}`);
    }
    for (const w of files.webhooks!) {
      assert.equal(named(there.webhooks as never, w.name).length, 1, `webhook ${String(w.name)}`);
    }
    for (const a of files.alerts!.filter((x) => x.source === 'tile' && typeof x.name === 'string')) {
      const [alert] = named(there.alerts as never, a.name);
      assert.ok(alert, `alert ${String(a.name)}`);
      const dashboard = [...there.dashboards.values()].find((d) => d.id === alert.dashboardId) as Json | undefined;
      assert.equal(dashboard?.name, a.dashboardName, 'the alert watches the dashboard of the same name there');
      const tile = (dashboard?.tiles as Json[]).find((t) => t.id === alert.tileId);
      assert.equal(tile?.name, a.tileName, 'and its tile of the same name');
    }
    // The files keep the IDs of their own service.
    for (const d of files.dashboards!) assert.ok(run.data().dashboards.has(String(d.id)));
  });
});

/**
 * Pruning a service folder in a real VS Code against the emulator: a resource whose file is removed is deleted only
 * when the target file opts in (`"prune": true`); the plan and the apply's question name the deletion and what it takes
 * along (a dashboard's alerts); the apply deletes exactly those, and a second plan has nothing to do.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { applyConfirmation } from '../../src/serviceFolders/confirm';
import type { FolderPlan } from '../../src/serviceFolders/plan';
import type { ApplyResult } from '../../src/serviceFolders/service';
import { describeEachFlavor, readFile, writeFile } from './support';

type Json = Record<string, unknown>;

const changing = (plan: FolderPlan) =>
  plan.steps.filter((s) => s.action !== 'unchanged').map((s) => `${s.action} ${s.kind} ${s.name}`);

describeEachFlavor('Service folder prune', (run) => {
  let folder: vscode.Uri;
  const fileOf = (path: string) => vscode.Uri.joinPath(folder, ...path.split('/'));
  const read = async (path: string) => JSON.parse(await readFile(fileOf(path))) as Json;
  const filesOf = async (sub: string) =>
    (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder, sub))).map(([name]) => `${sub}/${name}`);
  const plan = () =>
    vscode.commands.executeCommand<FolderPlan>('observability.planServiceFolder', {
      folder: folder.toString(),
      noPrompt: true,
    });
  const writes = (from: number) =>
    run.emulator.requests
      .slice(from)
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`);

  before(async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the test host opens a workspace folder');
    folder = vscode.Uri.joinPath(workspace.uri, `service-prune-${run.flavor.emulatorFlavor}-${Date.now()}`);
    await vscode.commands.executeCommand('observability.pullServiceToFolder', {
      connectionId: run.connectionId,
      serviceId: run.serviceId,
      folder: folder.toString(),
      noPrompt: true,
    });
  });

  after(async () => {
    if (folder) await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
    await vscode.commands.executeCommand('observability.refreshServiceFolderChanges');
  });

  it('deletes a dashboard whose file is gone only when the folder opts in, naming the alerts it takes along', async () => {
    const data = run.data();
    const alertsOn = (id: unknown) => [...data.alerts.values()].filter((a) => a.dashboardId === id);
    const dashboard = [...data.dashboards.values()].find((d) => alertsOn(d.id).length > 0);
    assert.ok(dashboard, 'a dashboard with alerts');
    const alertIds = alertsOn(dashboard.id).map((a) => String(a.id));
    let dashboardFile = '';
    for (const p of await filesOf('dashboards')) if ((await read(p)).id === dashboard.id) dashboardFile = p;
    await vscode.workspace.fs.delete(fileOf(dashboardFile));
    const alertNames: string[] = [];
    for (const p of await filesOf('alerts')) {
      const v = await read(p);
      if (alertIds.includes(String(v.id))) {
        alertNames.push(String(v.name ?? v.id));
        await vscode.workspace.fs.delete(fileOf(p));
      }
    }

    // Not opted in: a resource without a file is left alone.
    const mark = run.emulator.requests.length;
    const kept = await plan();
    assert.deepEqual(changing(kept), []);
    const nothing = await vscode.commands.executeCommand<ApplyResult>('observability.applyServiceFolder', {
      folder: folder.toString(),
      noPrompt: true,
    });
    assert.equal(nothing.outcome, 'nothing');
    assert.deepEqual(writes(mark), []);

    const target = await read('service.observability.json');
    await writeFile(fileOf('service.observability.json'), `${JSON.stringify({ ...target, prune: true }, null, 2)}\n`);
    const pruning = await plan();
    assert.deepEqual(
      changing(pruning).sort(),
      [`delete dashboard ${String(dashboard.name)}`, ...alertNames.map((n) => `delete alert ${n}`)].sort(),
    );
    const step = pruning.steps.find((s) => s.action === 'delete' && s.kind === 'dashboard')!;
    assert.equal(step.cascade.length, alertIds.length);
    for (const name of alertNames) {
      assert.ok(
        step.cascade.some((c) => c.includes(name)),
        `${name} named`,
      );
    }
    const question = applyConfirmation(pruning);
    assert.match(question.message, /^Apply \d+ change\(s\) to /);
    assert.ok(question.detail.includes(`Deletes dashboard "${String(dashboard.name)}" and with it`), question.detail);
    for (const name of alertNames) assert.ok(question.detail.includes(name), question.detail);

    const before = run.emulator.requests.length;
    const applied = await vscode.commands.executeCommand<ApplyResult>('observability.applyServiceFolder', {
      folder: folder.toString(),
      noPrompt: true,
    });
    assert.equal(applied.outcome, 'applied', applied.message);
    const sent = writes(before);
    assert.ok(
      sent.every((w) => w.startsWith('DELETE ')),
      sent.join('\n'),
    );
    assert.equal(sent.length, 1 + alertIds.length, sent.join('\n'));
    assert.ok(!data.dashboards.has(String(dashboard.id)), 'the dashboard is gone');
    for (const id of alertIds) assert.ok(!data.alerts.has(id), 'its alerts are gone');
    assert.deepEqual(changing(await plan()), []);
  });
});

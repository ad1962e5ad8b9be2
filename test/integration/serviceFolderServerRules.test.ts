/**
 * Checks that follow the server, in a real VS Code against the emulator: a series `aggFn: "increase"` (accepted by
 * HyperDX for sum metrics, not listed by the Cloud API) and a `STATIC_LIST` dashboard filter (newer HyperDX) are sent to
 * a self-hosted deployment with a warning in the plan, and blocked before sending on Cloud. The self-hosted server's
 * answer decides: the newest HyperDX stores them; an older deployment (the emulator's `hyperdxVersion: 'older'`)
 * refuses the write, and the apply says so.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FolderPlan } from '../../src/serviceFolders/plan';
import type { ApplyResult } from '../../src/serviceFolders/service';
import { describeEachFlavor, readFile, SELF_HOSTED_FLAVOR, writeFile, type FlavorRun } from './support';

type Json = Record<string, unknown>;

describeEachFlavor('Service folder checks that follow the server', (run) => rules(run, 'newest'));
describeEachFlavor('Service folder checks that follow the server', (run) => rules(run, 'older'), {
  flavors: [SELF_HOSTED_FLAVOR],
  hyperdxVersion: 'older',
});

/** The journey on the newest HyperDX (and Cloud), or on an older self-hosted deployment. */
function rules(run: FlavorRun, deployment: 'newest' | 'older'): void {
  let folder: vscode.Uri;
  const fileOf = (path: string) => vscode.Uri.joinPath(folder, ...path.split('/'));
  const read = async (path: string) => JSON.parse(await readFile(fileOf(path))) as Json;
  const writes = (from: number) =>
    run.emulator.requests
      .slice(from)
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.path}`);

  before(async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the test host opens a workspace folder');
    folder = vscode.Uri.joinPath(
      workspace.uri,
      `service-rules-${run.flavor.emulatorFlavor}-${deployment}-${Date.now()}`,
    );
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

  if (deployment === 'newest') {
    it('a filter added to a pulled dashboard is sent with an ID (an update takes every filter with one) and stored; the next plan is empty', async () => {
      const dir = vscode.Uri.joinPath(folder, 'dashboards');
      let path = '';
      let dashboard: Json | undefined;
      for (const [name] of await vscode.workspace.fs.readDirectory(dir)) {
        const v = await read(`dashboards/${name}`);
        const filters = (v.filters as Json[] | undefined) ?? [];
        const sourceName = filters.find((f) => typeof f.sourceName === 'string')?.sourceName;
        if (sourceName !== undefined) {
          v.filters = [...filters, { type: 'QUERY_EXPRESSION', name: 'Host', expression: 'Host', sourceName }];
          path = `dashboards/${name}`;
          dashboard = v;
          break;
        }
      }
      assert.ok(dashboard, 'a pulled dashboard with a filter');
      await writeFile(fileOf(path), `${JSON.stringify(dashboard, null, 2)}\n`);
      const planned = await vscode.commands.executeCommand<FolderPlan>('observability.planServiceFolder', {
        folder: folder.toString(),
        noPrompt: true,
      });
      assert.deepEqual(planned.problems, []);
      const step = planned.steps.find((s) => s.path === path)!;
      assert.equal(step.action, 'update');
      // A newer server sends every alert's displayName and tags: what the server itself sent is not warned about.
      const alerts = planned.steps.filter((s) => s.kind === 'alert');
      assert.ok(alerts.length > 0, 'the pulled folder holds alerts');
      for (const a of alerts) {
        assert.ok(!a.notes.some((n) => /an alert "(displayName|tags)"/.test(n)), `${a.path}: ${a.notes.join('; ')}`);
      }
      const mark = run.emulator.requests.length;
      const applied = await vscode.commands.executeCommand<ApplyResult>('observability.applyServiceFolder', {
        folder: folder.toString(),
        noPrompt: true,
      });
      assert.equal(applied.outcome, 'applied', applied.message);
      assert.equal(writes(mark).length, 1, writes(mark).join('\n'));
      assert.match(writes(mark)[0]!, /^PUT .*dashboards\//);
      const stored = run.data().dashboards.get(String(step.live?.id ?? ''));
      const host = stored?.filters.find((f) => f.name === 'Host');
      assert.ok(host && typeof host.id === 'string' && host.id.length > 0, 'the new filter is stored with an ID');
      assert.equal(host.expression, 'Host');
      const again = await vscode.commands.executeCommand<FolderPlan>('observability.planServiceFolder', {
        folder: folder.toString(),
        noPrompt: true,
      });
      assert.deepEqual(
        again.steps.filter((s) => s.action !== 'unchanged').map((s) => `${s.action} ${s.path}`),
        [],
        'the second plan is empty',
      );
    });
  }

  const title =
    deployment === 'older'
      ? 'a series aggFn "increase": a warning and sent; an older deployment refuses it and the apply says so'
      : 'a series aggFn "increase" and a STATIC_LIST filter: warnings, sent and stored on a self-hosted deployment, blocked before sending on Cloud';
  it(title, async () => {
    const dir = vscode.Uri.joinPath(folder, 'dashboards');
    let path = '';
    let dashboard: Json | undefined;
    for (const [name] of await vscode.workspace.fs.readDirectory(dir)) {
      const v = await read(`dashboards/${name}`);
      const tiles = (v.tiles as Json[] | undefined) ?? [];
      const tile = tiles.find((t) => Array.isArray((t.config as Json | undefined)?.select));
      if (tile) {
        const select = (tile.config as Json).select as Json[];
        select[0] = { ...select[0], aggFn: 'increase', valueExpression: 'Value' };
        path = `dashboards/${name}`;
        dashboard = v;
        // The newest HyperDX's filter type (an older deployment is only sent the increase, so its refusal is that).
        if (deployment === 'newest') {
          v.filters = [
            ...((v.filters as Json[] | undefined) ?? []),
            { type: 'STATIC_LIST', name: 'Region', values: ['eu', 'us'] },
          ];
        }
        break;
      }
    }
    assert.ok(dashboard, 'a dashboard with a builder tile');
    await writeFile(fileOf(path), `${JSON.stringify(dashboard, null, 2)}\n`);

    const planned = await vscode.commands.executeCommand<FolderPlan>('observability.planServiceFolder', {
      folder: folder.toString(),
      noPrompt: true,
    });
    const mark = run.emulator.requests.length;
    const applied = await vscode.commands.executeCommand<ApplyResult>('observability.applyServiceFolder', {
      folder: folder.toString(),
      noPrompt: true,
    });
    if (run.flavor.emulatorFlavor === 'oss') {
      assert.deepEqual(planned.problems, []);
      const step = planned.steps.find((s) => s.path === path)!;
      assert.equal(step.action, 'update');
      assert.ok(
        step.notes.some((n) => /aggFn "increase" is accepted by newer HyperDX versions only/.test(n)),
        step.notes.join('\n'),
      );
      // Not blocked here: the request is sent once, and the server's answer decides.
      assert.equal(writes(mark).length, 1, writes(mark).join('\n'));
      if (deployment === 'newest') {
        assert.ok(
          step.notes.some((n) => /filter type "STATIC_LIST" is accepted by newer HyperDX versions only/.test(n)),
          step.notes.join('\n'),
        );
        // The newest HyperDX (HyperDX b52a6fa8 already accepts "increase") stores both as sent.
        assert.equal(applied.outcome, 'applied', applied.message);
        const stored = run.data().dashboards.get(String(step.live?.id ?? ''));
        assert.ok(stored, 'the dashboard is on the service');
        assert.ok(
          stored.tiles.some(
            (t) => ((t.config as Json | undefined)?.select as Json[] | undefined)?.[0]?.aggFn === 'increase',
          ),
          'the increase tile is stored',
        );
        const filter = stored.filters.find((f) => f.type === 'STATIC_LIST');
        assert.deepEqual([filter?.name, filter?.values], ['Region', ['eu', 'us']]);
      } else {
        // An older deployment follows its OpenAPI document, which does not list "increase", and refuses it.
        assert.equal(applied.outcome, 'partial', applied.message);
        assert.match(applied.message, /HTTP 400 — Body validation failed: tiles\.\d+\.config\.select\.0\.aggFn/);
      }
    } else {
      assert.ok(
        planned.problems.some(
          (p) => p.path === path && /aggFn "increase" is not accepted by ClickHouse Cloud/.test(p.message),
        ),
        JSON.stringify(planned.problems),
      );
      assert.equal(applied.outcome, 'refused');
      assert.deepEqual(writes(mark), [], 'nothing is sent');
    }
  });
}

/**
 * Nothing changes behind the user's back, in a real VS Code against the emulator: a folder pulled from one Cloud
 * service and promoted to another (each its own team with its own ClickHouse connection, which the server checks)
 * takes that service's connection; a write that fails part-way is reported exactly (applied, failed, not applied) and
 * a second promote completes the rest without duplicates; an apply that would put back a value changed on the service
 * since the pull names the field, and can take the service's value into the file instead.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FolderPlan } from '../../src/serviceFolders/plan';
import type { ApplyResult, PullResult } from '../../src/serviceFolders/service';
import { CLOUD_FLAVOR, describeEachFlavor, readFile } from './support';

type Json = Record<string, unknown>;

describeEachFlavor(
  'Service folder promote and drift',
  (run) => {
    let folder: vscode.Uri;
    let other: { connectionId: string; serviceId: string } | undefined;
    const fileOf = (path: string) => vscode.Uri.joinPath(folder, ...path.split('/'));
    const read = async (path: string) => JSON.parse(await readFile(fileOf(path))) as Json;
    const filesOf = async (sub: string) =>
      (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(folder, sub))).map(([name]) => `${sub}/${name}`);
    const writes = (from: number) =>
      run.emulator.requests
        .slice(from)
        .filter((r) => r.method !== 'GET')
        .map((r) => `${r.method} ${r.path}`);
    const servicePath = (serviceId: string, collection: string) =>
      `/v1/organizations/${run.emulator.organizationId}/services/${serviceId}/observability/${collection}`;

    before(async () => {
      const workspace = vscode.workspace.workspaceFolders?.[0];
      assert.ok(workspace, 'the test host opens a workspace folder');
      folder = vscode.Uri.joinPath(workspace.uri, `service-folder-promote-${Date.now()}`);
      await vscode.commands.executeCommand<PullResult>('observability.pullServiceToFolder', {
        connectionId: run.connectionId,
        serviceId: run.serviceId,
        folder: folder.toString(),
        noPrompt: true,
      });
      // Webhooks of a kind the API does not write cannot be promoted (the plan says so): left out, with their alerts.
      const unwritable: string[] = [];
      for (const p of await filesOf('webhooks')) {
        const v = await read(p);
        if (!['slack', 'incidentio', 'generic'].includes(String(v.service))) {
          unwritable.push(String(v.name));
          await vscode.workspace.fs.delete(fileOf(p));
        }
      }
      for (const p of await filesOf('alerts')) {
        const v = await read(p);
        const channels = [v.channel, ...((v.channels as unknown[]) ?? [])] as ({ webhookName?: string } | undefined)[];
        if (channels.some((c) => c?.webhookName && unwritable.includes(c.webhookName))) {
          await vscode.workspace.fs.delete(fileOf(p));
        }
      }
    });

    after(async () => {
      if (folder) await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
      if (other) {
        await vscode.commands.executeCommand('observability.removeConnection', {
          connectionId: other.connectionId,
          noPrompt: true,
        });
      }
    });

    it('promotes to another service with its own ClickHouse connection: a failed write is reported exactly, a second promote completes the rest once', async () => {
      const serviceId = run.emulator.serviceIds[1]!;
      const connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
        baseUrl: run.emulator.url,
        keyId: run.emulator.keyId,
        keySecret: run.emulator.keySecret,
        organizationId: run.emulator.organizationId,
        serviceIds: [serviceId],
        label: 'Promote target with its own connection',
        skipCheck: true,
      });
      other = { connectionId, serviceId };
      const there = run.emulator.state.data.get(serviceId)!;
      const theirConnection = [...there.connections.keys()][0]!;
      const ownConnection = String((await read((await filesOf('sources'))[0]!)).connection);
      assert.notEqual(ownConnection, theirConnection, 'each service has its own connection');

      // The plan takes the other service's one connection for the folder's, and says so.
      const planned = await vscode.commands.executeCommand<FolderPlan>('observability.planServiceFolder', {
        folder: folder.toString(),
        ...other,
        noPrompt: true,
      });
      assert.deepEqual(planned.problems, []);
      assert.ok(
        planned.steps.some((s) => s.kind === 'source' && s.notes.some((n) => n.includes(`becomes ${theirConnection}`))),
        'the plan names the connection it takes',
      );
      const created = planned.steps.filter((s) => s.action === 'create');
      const dashboard = created.find((s) => s.kind === 'dashboard');
      assert.ok(dashboard, 'the promote creates a dashboard');
      const total = planned.steps.filter((s) => s.action !== 'unchanged').length;

      // One write fails part-way: the creation of that dashboard.
      run.emulator.faults.add({
        method: 'POST',
        path: servicePath(serviceId, 'dashboards'),
        times: 1,
        status: 400,
        body: { status: 400, error: 'Injected failure' },
      });
      const mark = run.emulator.requests.length;
      const partial = await vscode.commands.executeCommand<ApplyResult>('observability.promoteServiceFolder', {
        folder: folder.toString(),
        ...other,
        noPrompt: true,
      });
      assert.equal(partial.outcome, 'partial', partial.message);
      assert.equal(partial.failed?.length, 1, partial.message);
      assert.match(partial.failed![0]!, new RegExp(`^create dashboard ${JSON.stringify(dashboard.name)}: .*400`));
      assert.ok(
        partial.notApplied!.every((n) => n.endsWith(`dashboard ${JSON.stringify(dashboard.name)} was not applied`)),
        partial.notApplied!.join('\n'),
      );
      assert.equal(partial.applied!.length + partial.failed!.length + partial.notApplied!.length, total);
      assert.match(partial.message, new RegExp(`${partial.applied!.length} of ${total} change\\(s\\) applied`));
      for (const line of [...partial.applied!, ...partial.failed!, ...partial.notApplied!]) {
        assert.ok(partial.message.includes(line), `the message says: ${line}`);
      }
      assert.ok(writes(mark).length > 0);
      // Every source there names that service's own connection (the server refuses any other).
      for (const s of there.sources.values()) assert.equal(s.connection, theirConnection, String(s.name));

      const finish = await vscode.commands.executeCommand<ApplyResult>('observability.promoteServiceFolder', {
        folder: folder.toString(),
        ...other,
        noPrompt: true,
      });
      assert.equal(finish.outcome, 'applied', finish.message);
      assert.ok(finish.applied!.includes(`create dashboard ${JSON.stringify(dashboard.name)}`), finish.message);
      // Each resource of the folder is on the other service exactly once.
      for (const [sub, map] of [
        ['sources', there.sources],
        ['saved-searches', there.savedSearches],
        ['webhooks', there.webhooks],
        ['dashboards', there.dashboards],
        ['alerts', there.alerts],
      ] as const) {
        for (const p of await filesOf(sub)) {
          const name = (await read(p)).name;
          if (typeof name !== 'string') continue;
          const same = [...(map as Map<string, Json>).values()].filter((v) => v.name === name);
          assert.equal(same.length, 1, `${sub} ${name}`);
        }
      }
      const again = await vscode.commands.executeCommand<FolderPlan>('observability.planServiceFolder', {
        folder: folder.toString(),
        ...other,
        noPrompt: true,
      });
      assert.deepEqual(
        again.steps.filter((s) => s.action === 'create').map((s) => s.name),
        [],
      );
    });

    it("names a field changed on the service since the pull before putting the file's value back, and can take the service's value instead", async () => {
      let path = '';
      let alert: { threshold: number } | undefined;
      for (const p of await filesOf('alerts')) {
        const found = run.data().alerts.get(String((await read(p)).id));
        if (!alert && found && typeof found.threshold === 'number') [path, alert] = [p, found];
      }
      assert.ok(alert, 'an alert with its file');
      const pulled = (await read(path)).threshold as number;
      alert.threshold = pulled + 25;
      const mark = run.emulator.requests.length;
      const asked = await vscode.commands.executeCommand<ApplyResult>('observability.applyServiceFolder', {
        folder: folder.toString(),
        noPrompt: true,
        serviceChanges: 'cancel',
      });
      assert.equal(asked.outcome, 'cancelled');
      assert.match(asked.confirmation!.message, /revert 1 field\(s\) changed on the service since the last pull/);
      assert.ok(
        asked.confirmation!.detail.includes(
          `${path}: threshold: ${pulled + 25} on the service → ${pulled} from the file`,
        ),
        asked.confirmation!.detail,
      );
      assert.deepEqual(writes(mark), []);

      const taken = await vscode.commands.executeCommand<ApplyResult>('observability.applyServiceFolder', {
        folder: folder.toString(),
        noPrompt: true,
        serviceChanges: 'takeService',
      });
      assert.deepEqual(taken.tookFromService, [path]);
      assert.equal(taken.outcome, 'nothing', taken.message);
      assert.equal((await read(path)).threshold, pulled + 25);
      assert.deepEqual(writes(mark), []);

      // Applied anyway (the automation's default), the result still says what was put back.
      alert.threshold = pulled + 50;
      const anyway = await vscode.commands.executeCommand<ApplyResult>('observability.applyServiceFolder', {
        folder: folder.toString(),
        noPrompt: true,
      });
      assert.equal(anyway.outcome, 'applied', anyway.message);
      assert.deepEqual(anyway.reverted, [`${path}: threshold: ${pulled + 50} → ${pulled + 25}`]);
      assert.match(anyway.message, /Put back over the service's newer value: .*threshold/);
      const id = String((await read(path)).id);
      assert.equal(run.data().alerts.get(id)?.threshold, pulled + 25, "the PUT sent the file's value");
    });
  },
  { flavors: [CLOUD_FLAVOR] },
);

/**
 * Webhooks, saved searches, sources and roles in the explorer against the emulator: their folders, masked webhook
 * secrets, and deletes with what the service does about their users — a webhook in use is refused (named first,
 * nothing sent; the server's own 409 when the alerts cannot be checked), a saved search takes its alerts with it,
 * a source leaves its tiles, saved searches and alerts pointing at nothing, a predefined role is never sent.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { TreeApi as TreeHandle } from '../../src/features';
import type { Node } from '../../src/tree/nodes';
import type { DeleteResult } from '../../src/tree/commands';
import { activate, configure, iconOf, labelOf, tooltipText } from './support';

interface Api {
  readonly tree: TreeHandle;
}

describe('Webhooks, saved searches, sources and roles', function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let api: Api;
  let connectionId: string;
  let serviceId: string;
  const tree = () => api.tree.provider;
  const item = (node: Node) => tree().getTreeItem(node);
  const children = (node?: Node) => tree().getChildren(node);
  const data = () => emulator.state.data.get(serviceId)!;
  const deletesSince = (mark: number) => emulator.requests.slice(mark).filter((r) => r.method === 'DELETE');

  async function folderNode(label: string): Promise<Node> {
    const roots = await children();
    const root = roots.find((n) => n.type === 'connection' && n.connection.id === connectionId)!;
    const services = await children(root);
    const service = services.find((n) => n.type === 'service' && n.serviceId === serviceId)!;
    const folder = (await children(service)).find((n) => labelOf(item(n)) === label);
    assert.ok(folder, `folder ${label} missing`);
    return folder;
  }

  async function itemsOf(label: string): Promise<Node[]> {
    return (await children(await folderNode(label))).filter((n) => n.type === 'item');
  }

  const alertName = (a: { id: string; name: string | null }) => a.name ?? `Alert ${a.id}`;
  const usesWebhook = (a: { channels: unknown[] }, id: string) =>
    a.channels.some((c) => (c as { webhookId?: string }).webhookId === id);

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('rateLimit.windowSeconds', 1);
    emulator = await startEmulator({ rateLimit: { requests: 100_000, windowMs: 1000 } });
    api = await activate<Api>();
    serviceId = emulator.serviceIds[0]!;
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [serviceId],
      label: 'Resources (emulator)',
      skipCheck: true,
    });
  });

  after(async () => {
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('rateLimit.windowSeconds', undefined);
    await emulator?.close();
  });

  afterEach(() => emulator.faults.clear());

  it('lists webhooks with their use and the Slack secret masked in tooltip and JSON', async () => {
    const nodes = await itemsOf('Webhooks');
    const stored = [...data().webhooks.values()];
    assert.deepEqual(nodes.map((n) => labelOf(item(n))).sort(), stored.map((w) => w.name).sort());
    const slack = stored.find((w) => w.url.includes('hooks.slack.com'))!;
    const secret = slack.url.split('/').pop()!;
    const node = nodes.find((n) => n.type === 'item' && n.item.id === slack.id)!;
    const tooltip = tooltipText(item(node));
    assert.match(tooltip, /hooks\.slack\.com/);
    assert.ok(!tooltip.includes(secret), 'the token in the Slack URL is not shown');
    const users = [...data().alerts.values()].filter((a) => usesWebhook(a, slack.id)).length;
    assert.match(item(node).contextValue ?? '', /\bwebhook\b.*\bdeletable\b/);
    if (users > 0) assert.match(String(item(node).description), new RegExp(`${users} alert`));
    const uri = await vscode.commands.executeCommand<vscode.Uri>('observability.openJson', node);
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    assert.ok(text.includes(slack.id) && !text.includes(secret), 'read-only JSON masks the URL');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('lists saved searches and roles; predefined roles are locked and not deletable', async () => {
    const searches = await itemsOf('Saved Searches');
    assert.deepEqual(
      searches.map((n) => labelOf(item(n))).sort(),
      [...data().savedSearches.values()].map((s) => s.name).sort(),
    );
    const roles = await itemsOf('Roles');
    assert.deepEqual(roles.map((n) => labelOf(item(n))).sort(), [...data().roles.values()].map((r) => r.name).sort());
    const admin = roles.find((n) => labelOf(item(n)) === 'Admin')!;
    assert.equal(iconOf(item(admin)), 'lock');
    assert.doesNotMatch(item(admin).contextValue ?? '', /\bdeletable\b/);
  });

  it('refuses to delete a webhook alerts use: names them and sends nothing', async () => {
    const hook = [...data().webhooks.values()].find((w) =>
      [...data().alerts.values()].some((a) => usesWebhook(a, w.id)),
    )!;
    const users = [...data().alerts.values()].filter((a) => usesWebhook(a, hook.id)).map(alertName);
    const mark = emulator.requests.length;
    const result = await vscode.commands.executeCommand<DeleteResult>('observability.deleteWebhook', {
      connectionId,
      serviceId,
      webhookId: hook.id,
      noPrompt: true,
    });
    assert.equal(result.deleted, false);
    assert.deepEqual([...(result.blockedBy ?? [])].sort(), users.sort());
    assert.match(result.error ?? '', new RegExp(`used by ${users.length} alert`));
    assert.equal(deletesSince(mark).length, 0, 'no DELETE sent');
    assert.ok(data().webhooks.has(hook.id));
  });

  it("says the server's 409 (status, message, request ID) when the alerts could not be checked", async () => {
    const hook = [...data().webhooks.values()].find((w) =>
      [...data().alerts.values()].some((a) => usesWebhook(a, w.id)),
    )!;
    emulator.faults.add({ method: 'GET', path: /\/alerts$/, status: 503, body: { status: 503, error: 'busy' } });
    const result = await vscode.commands.executeCommand<DeleteResult>('observability.deleteWebhook', {
      connectionId,
      serviceId,
      webhookId: hook.id,
      noPrompt: true,
    });
    assert.equal(result.deleted, false);
    assert.match(result.error ?? '', /409/);
    assert.match(result.error ?? '', /still reference it/);
    assert.match(result.error ?? '', /requestId [0-9a-f-]{8,}/i);
    assert.ok(data().webhooks.has(hook.id), 'nothing deleted');
  });

  it('deletes a webhook no alert uses, and the folder drops it', async () => {
    // A webhook made on the service by someone else, used by no alert; the refresh shows it.
    const hook = {
      id: '66a1d960a4e66ef5c0ffee01',
      name: 'Spare relay',
      service: 'generic',
      url: 'https://relay.example.com/hook',
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    };
    data().webhooks.set(hook.id, hook);
    await vscode.commands.executeCommand('observability.refreshNode', await folderNode('Webhooks'));
    assert.ok((await itemsOf('Webhooks')).some((n) => n.type === 'item' && n.item.id === hook.id));
    const result = await vscode.commands.executeCommand<DeleteResult>('observability.deleteWebhook', {
      connectionId,
      serviceId,
      webhookId: hook.id,
      noPrompt: true,
    });
    assert.equal(result.deleted, true, result.error);
    assert.equal(data().webhooks.has(hook.id), false);
    const nodes = await itemsOf('Webhooks');
    assert.ok(!nodes.some((n) => n.type === 'item' && n.item.id === hook.id));
  });

  it('deletes a saved search with the alerts on it, named before', async () => {
    const search = [...data().savedSearches.values()].find((s) =>
      [...data().alerts.values()].some((a) => a.savedSearchId === s.id),
    )!;
    const doomed = [...data().alerts.values()].filter((a) => a.savedSearchId === search.id);
    const result = await vscode.commands.executeCommand<DeleteResult>('observability.deleteSavedSearch', {
      connectionId,
      serviceId,
      savedSearchId: search.id,
      noPrompt: true,
    });
    assert.equal(result.deleted, true, result.error);
    assert.deepEqual([...(result.alsoDeleted ?? [])].sort(), doomed.map(alertName).sort());
    assert.equal(data().savedSearches.has(search.id), false);
    for (const a of doomed) assert.equal(data().alerts.has(a.id), false, 'the service deleted its alerts');
    const alerts = await children(await folderNode('Alerts'));
    assert.ok(!alerts.some((n) => n.type === 'alert' && doomed.some((d) => d.id === n.alert.id)));
    const searches = await itemsOf('Saved Searches');
    assert.ok(!searches.some((n) => n.type === 'item' && n.item.id === search.id));
  });

  it('deletes a source after naming the tiles, saved searches and alerts that keep pointing at it', async () => {
    const d = data();
    const sourceId = [...d.savedSearches.values()][0]!.sourceId;
    const searches = [...d.savedSearches.values()].filter((s) => s.sourceId === sourceId);
    const tiles = [...d.dashboards.values()].flatMap((db) =>
      (db.tiles as { id: string; name: string; config?: { sourceId?: string } }[])
        .filter((t) => t.config?.sourceId === sourceId)
        .map((t) => t.name),
    );
    const result = await vscode.commands.executeCommand<DeleteResult>('observability.deleteSource', {
      connectionId,
      serviceId,
      sourceId,
      noPrompt: true,
    });
    assert.equal(result.deleted, true, result.error);
    assert.equal(d.sources.has(sourceId), false);
    const dangling = result.leftDangling ?? [];
    for (const s of searches) assert.ok(dangling.includes(`saved search "${s.name}"`), `names ${s.name}`);
    for (const t of tiles) {
      assert.ok(
        dangling.some((x) => x.startsWith(`tile "${t}"`)),
        `names tile ${t}`,
      );
    }
    for (const s of searches) assert.ok(d.savedSearches.has(s.id), 'the service keeps saved searches (no cascade)');
    const sources = await children(await folderNode('Sources'));
    assert.ok(!sources.some((n) => n.type === 'source' && n.source.id === sourceId));
  });

  it('never sends the delete of a predefined role; deletes a custom one; says the refusal of an assigned one', async () => {
    const roles = [...data().roles.values()];
    const admin = roles.find((r) => r.isPredefined)!;
    const mark = emulator.requests.length;
    const refused = await vscode.commands.executeCommand<DeleteResult>('observability.deleteRole', {
      connectionId,
      serviceId,
      roleId: admin.id,
      noPrompt: true,
    });
    assert.equal(refused.deleted, false);
    assert.match(refused.error ?? '', /predefined/);
    assert.equal(deletesSince(mark).length, 0);

    const free = roles.find((r) => !r.isPredefined && !r.isDefault && r.userCount === 0);
    assert.ok(free, 'the seed has an unassigned custom role');
    const deleted = await vscode.commands.executeCommand<DeleteResult>('observability.deleteRole', {
      connectionId,
      serviceId,
      roleId: free.id,
      noPrompt: true,
    });
    assert.equal(deleted.deleted, true, deleted.error);
    assert.equal(data().roles.has(free.id), false);
    assert.ok(!(await itemsOf('Roles')).some((n) => n.type === 'item' && n.item.id === free.id));

    const assigned = roles.find((r) => !r.isPredefined && r.userCount > 0);
    assert.ok(assigned, 'the seed has an assigned custom role');
    const failed = await vscode.commands.executeCommand<DeleteResult>('observability.deleteRole', {
      connectionId,
      serviceId,
      roleId: assigned.id,
      noPrompt: true,
    });
    assert.equal(failed.deleted, false);
    assert.match(failed.error ?? '', /400/);
    assert.match(failed.error ?? '', /assigned to 3 user/);
    assert.ok(data().roles.has(assigned.id));
  });
});

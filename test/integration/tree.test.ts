/**
 * The explorer tree against the in-process emulator: structure and rendering at each level, lazy loading (one list
 * request per expanded folder, none at activation), error nodes with Retry, offline fallback, filter, read-only JSON,
 * delete with the server's cascade, and speed with 10 000 alerts.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { RecordedRequest } from '../emulator/types';
import type { TreeApi as TreeHandle } from '../../src/features';
import type { Node } from '../../src/tree/nodes';
import type { DeleteResult } from '../../src/tree/commands';
import {
  activate,
  configure,
  describeEachFlavor,
  extension,
  iconOf,
  labelOf,
  tooltipText,
  type JourneyNode,
  type StoredTile,
} from './support';

const FAST_LIMIT = { requests: 100_000, windowMs: 1000 };

interface Api {
  readonly tree: TreeHandle;
  readonly connections: { list(): readonly { id: string; label: string }[] };
}

const STATE_ICONS: Record<string, string> = {
  ALERT: 'bell-dot',
  OK: 'pass',
  PENDING: 'clock',
  INSUFFICIENT_DATA: 'question',
  DISABLED: 'circle-slash',
};
/** A silenced alert and one whose last run failed have icons of their own, whatever the state underneath. */
const SILENCED_ICON = 'bell-slash';
const EXECUTION_ERROR_ICON = 'warning';
/** The part of package.json the menu checks read. */
interface PackageJson {
  readonly contributes: { readonly menus: Record<string, readonly { command: string; when?: string }[]> };
}
/** The icon a stored alert is drawn with. */
const expectedIcon = (a: {
  silenced?: unknown;
  state: string;
  executionErrors: readonly unknown[];
}): string | undefined =>
  a.silenced
    ? SILENCED_ICON
    : a.state === 'OK' && a.executionErrors.length > 0
      ? EXECUTION_ERROR_ICON
      : STATE_ICONS[a.state];
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

describe('Explorer tree', function () {
  this.timeout(120_000);
  let emulator: Emulator;
  let api: Api;
  let connectionId: string;
  let orgId: string;
  let serviceA: string;
  let serviceB: string;
  const tree = () => api.tree.provider;

  const item = (node: Node) => tree().getTreeItem(node);
  const children = (node?: Node) => tree().getChildren(node);
  const requestsSince = (mark: number, pathPart = ''): RecordedRequest[] =>
    emulator.requests.slice(mark).filter((r) => r.path.includes(pathPart));
  const firstPage = (r: RecordedRequest): boolean => (r.query.offset ?? '0') === '0';

  async function serviceNode(serviceId: string): Promise<Node> {
    const roots = await children();
    const root = roots.find((n) => n.type === 'connection' && n.connection.id === connectionId);
    assert.ok(root, 'connection node missing');
    const services = await children(root);
    const service = services.find((n) => n.type === 'service' && n.serviceId === serviceId);
    assert.ok(service, `service ${serviceId} missing`);
    return service;
  }

  async function folderNode(serviceId: string, label: string): Promise<Node> {
    const folders = await children(await serviceNode(serviceId));
    const folder = folders.find((n) => labelOf(item(n)) === label);
    assert.ok(folder, `folder ${label} missing`);
    return folder;
  }

  before(async () => {
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('rateLimit.windowSeconds', 1);
    await configure('requestTimeoutSeconds', 2);
    emulator = await startEmulator({ rateLimit: FAST_LIMIT });
    api = await activate<Api>();
    assert.ok(api.tree, 'the extension API exposes the tree');
    orgId = emulator.organizationId;
    [serviceA, serviceB] = emulator.serviceIds as [string, string];
    const before = emulator.requests.length;
    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: orgId,
      serviceIds: [serviceA, serviceB],
      label: 'Northwind (emulator)',
      skipCheck: true,
    });
    assert.equal(typeof connectionId, 'string');
    assert.equal(emulator.requests.length, before, 'adding a connection with skipCheck sends nothing');
  });

  after(async () => {
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('rateLimit.windowSeconds', undefined);
    await configure('requestTimeoutSeconds', undefined);
    await emulator?.close();
  });

  afterEach(() => emulator.faults.clear());

  it('draws connection, services and folders without any request', async () => {
    const mark = emulator.requests.length;
    const roots = await children();
    const root = roots.find((n) => n.type === 'connection' && n.connection.id === connectionId);
    assert.ok(root);
    assert.equal(labelOf(item(root)), 'Northwind (emulator)');
    // At the default sidebar width the row leads with what identifies it: the label, then the host.
    assert.equal(String(item(root).description).split(' · ')[0], new URL(emulator.url).host);
    assert.match(item(root).contextValue ?? '', /\bconnection\b/);
    const services = await children(root);
    assert.deepEqual(
      services.map((s) => (s.type === 'service' ? s.serviceId : '')),
      [serviceA, serviceB],
    );
    const folders = await children(services[0]);
    assert.deepEqual(
      folders.map((f) => labelOf(item(f))),
      ['Dashboards', 'Alerts', 'Webhooks', 'Saved Searches', 'Sources', 'Roles', 'Query Endpoint'],
    );
    assert.deepEqual(
      folders.map((f) => iconOf(item(f))),
      ['dashboard', 'bell', 'send', 'search', 'database', 'shield', 'plug'],
    );
    for (const f of folders) assert.equal(item(f).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.equal(emulator.requests.length, mark, 'no request before a folder is expanded');
  });

  it('leads a connection row with its label, then the host, then an organization name that differs', async () => {
    const host = new URL(emulator.url).host;
    const descriptionOf = async (label: string) => {
      const id = await vscode.commands.executeCommand<string>('observability.addConnection', {
        baseUrl: emulator.url,
        keyId: emulator.keyId,
        keySecret: emulator.keySecret,
        organizationId: orgId,
        organizationName: 'Northwind Traders',
        serviceIds: [serviceA],
        label,
        skipCheck: true,
      });
      try {
        const node = (await children()).find((n) => n.type === 'connection' && n.connection.id === id);
        assert.ok(node, 'the connection is listed');
        assert.equal(labelOf(item(node)), label);
        return item(node).description;
      } finally {
        await vscode.commands.executeCommand('observability.removeConnection', { connectionId: id, noPrompt: true });
      }
    };
    assert.equal(await descriptionOf('Production'), `${host} · Northwind Traders`);
    assert.equal(await descriptionOf('Northwind Traders'), host, 'the organization is not repeated');
  });

  it('lists dashboards by name with one request, cached until refresh', async () => {
    const folder = await folderNode(serviceA, 'Dashboards');
    const mark = emulator.requests.length;
    const nodes = await children(folder);
    const listed = requestsSince(mark);
    assert.equal(listed.length, 1, `one request, got ${listed.map((r) => r.path).join(', ')}`);
    assert.equal(listed[0]?.path, `/v1/organizations/${orgId}/services/${serviceA}/observability/dashboards`);
    const expected = [...emulator.state.data.get(serviceA)!.dashboards.values()]
      .map((d) => d.name as string)
      .sort(collator.compare);
    assert.deepEqual(
      nodes.map((n) => labelOf(item(n))),
      expected,
    );
    for (const n of nodes) assert.match(item(n).contextValue ?? '', /\bdashboard\b.*\bdeletable\b/);
    await children(folder);
    assert.equal(emulator.requests.length, mark + 1, 'the second expansion is served from the cache');
  });

  it('lists alerts firing first, with state icons, descriptions and tooltips', async () => {
    const folder = await folderNode(serviceA, 'Alerts');
    const mark = emulator.requests.length;
    const nodes = await children(folder);
    // A list read is its first page; later pages (the empty page that ends a list without totalCount) belong to it.
    const paths = requestsSince(mark)
      .filter(firstPage)
      .map((r) => r.path.replace(/^.*\/observability\//, ''));
    assert.deepEqual(paths.sort(), ['alerts', 'webhooks'], 'the alert list and the webhook names, once');
    const data = emulator.state.data.get(serviceA)!;
    const stored = [...data.alerts.values()];
    const label = (a: { id: string; name: string | null }) => a.name ?? `Alert ${a.id}`;
    const expected = [...stored].sort((a, b) => {
      const fa = a.state === 'ALERT';
      const fb = b.state === 'ALERT';
      return fa === fb ? collator.compare(label(a), label(b)) : fa ? -1 : 1;
    });
    assert.deepEqual(
      nodes.map((n) => labelOf(item(n))),
      expected.map(label),
    );
    for (const [i, n] of nodes.entries()) {
      const a = expected[i]!;
      assert.equal(iconOf(item(n)), expectedIcon(a), `icon of ${label(a)}`);
    }
    assert.equal(
      new Set(nodes.map((n) => iconOf(item(n)))).size,
      7,
      'firing, silenced, pending, OK, insufficient data, disabled and execution error: seven icons',
    );
    const latency = nodes.find((n) => labelOf(item(n)) === 'Checkout p95 latency above 1.5 s');
    assert.ok(latency);
    assert.equal(item(latency).description, 'at least 1500 · 5m · #oncall-checkout');
    assert.match(item(latency).contextValue ?? '', /\balert firing\b/);
    const silenced = nodes.find((n) => labelOf(item(n)) === 'Payment declines spike');
    assert.ok(silenced);
    // The condition first (what a narrow sidebar still shows), then the silence.
    assert.match(String(item(silenced).description), /^at least 25 · silenced · 1m · PagerDuty/);
    assert.match(item(silenced).contextValue ?? '', /\bsilenced\b/);
    const resolved = await tree().resolveTreeItem(item(latency), latency);
    assert.match(tooltipText(resolved), /Firing/);
    assert.match(tooltipText(resolved), /#oncall\\-checkout/);
    // Tooltips escape Markdown; read them as the user does.
    const silencedTip = tooltipText(await tree().resolveTreeItem(item(silenced), silenced)).replace(/\\(.)/g, '$1');
    assert.match(silencedTip, /Silenced \(firing\)/);
    assert.match(silencedTip, /Silenced by maria\.keller@example\.com until /, 'words around the silence keep spaces');
    assert.equal(silenced.type, 'alert');
    const search = data.savedSearches.get(String(silenced.alert.savedSearchId));
    assert.ok(search?.name);
    assert.ok(
      silencedTip.includes(`Saved search: [${search.name}](command:observability.searchEvents?`),
      `the saved search by its name, a link opening it in Search: ${silencedTip}`,
    );
    const folderItem = item(folder);
    assert.match(String(folderItem.description), new RegExp(`^${stored.length}\\b`));
  });

  it('loads the alert list once when a dashboard is expanded before the Alerts folder', async () => {
    const folder = await folderNode(serviceB, 'Dashboards');
    const dashboards = await children(folder);
    const withTiles = dashboards.find((n) => n.type === 'dashboard' && (n.dashboard.tiles?.length ?? 0) > 0);
    assert.ok(withTiles);
    const mark = emulator.requests.length;
    const tiles = await children(withTiles);
    assert.ok(tiles.length > 0);
    const paths = requestsSince(mark)
      .filter(firstPage)
      .map((r) => r.path.replace(/^.*\/observability\//, ''));
    assert.deepEqual(paths.sort(), ['alerts', 'webhooks']);
  });

  it('shows tiles with display-type icons and the alerts that watch them', async () => {
    const folder = await folderNode(serviceA, 'Dashboards');
    const dashboards = await children(folder);
    const data = emulator.state.data.get(serviceA)!;
    const watched = [...data.alerts.values()].find((a) => a.dashboardId && a.tileId);
    assert.ok(watched, 'sample data has a tile alert');
    const dashNode = dashboards.find((n) => n.type === 'dashboard' && n.dashboard.id === watched.dashboardId);
    assert.ok(dashNode);
    const mark = emulator.requests.length;
    const tiles = await children(dashNode);
    assert.equal(requestsSince(mark).length, 0, 'alerts are already cached');
    const stored = data.dashboards.get(watched.dashboardId!)!;
    const storedTiles = stored.tiles as { id: string; name: string; config?: { displayType?: string } }[];
    assert.deepEqual(
      tiles.map((t) => labelOf(item(t))),
      storedTiles.map((t) => t.name),
    );
    const icons: Record<string, string> = {
      line: 'graph-line',
      stacked_bar: 'graph',
      table: 'table',
      number: 'symbol-number',
      markdown: 'markdown',
      pie: 'pie-chart',
      search: 'search',
    };
    for (const [i, t] of tiles.entries()) {
      const type = storedTiles[i]!.config?.displayType;
      if (type && icons[type]) assert.equal(iconOf(item(t)), icons[type], `icon of tile ${storedTiles[i]!.name}`);
      assert.match(tooltipText(item(t)), new RegExp(storedTiles[i]!.id));
    }
    const tile = tiles.find((t) => t.type === 'tile' && t.tile.id === watched.tileId);
    assert.ok(tile);
    assert.equal(item(tile).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const tileAlerts = await children(tile);
    const expected = [...data.alerts.values()].filter(
      (a) => a.dashboardId === watched.dashboardId && a.tileId === watched.tileId,
    );
    assert.deepEqual(
      tileAlerts.map((a) => (a.type === 'alert' ? a.alert.id : '')).sort(),
      expected.map((a) => a.id).sort(),
    );
  });

  it('shows sources with kind and table, and the query endpoint state', async () => {
    const sources = await children(await folderNode(serviceA, 'Sources'));
    const stored = [...emulator.state.data.get(serviceA)!.sources.values()] as {
      name: string;
      kind: string;
      from: { databaseName: string; tableName: string };
    }[];
    const byName = [...stored].sort((a, b) => collator.compare(a.name, b.name));
    assert.deepEqual(
      sources.map((s) => labelOf(item(s))),
      byName.map((s) => s.name),
    );
    for (const [i, s] of sources.entries()) {
      const src = byName[i]!;
      const table = [src.from.databaseName, src.from.tableName].filter((x) => x).join('.');
      assert.equal(item(s).description, table ? `${src.kind} · ${table}` : src.kind);
    }
    const qeFolder = await folderNode(serviceA, 'Query Endpoint');
    const mark = emulator.requests.length;
    const none = await children(qeFolder);
    assert.equal(requestsSince(mark, '/serviceQueryEndpoint').length, 1);
    assert.deepEqual(
      none.map((n) => labelOf(item(n))),
      ['Not configured'],
    );

    emulator.state.data.get(serviceA)!.queryEndpoint = {
      id: 'qe-1',
      roles: ['sql_console_read_only'],
      openApiKeys: ['a', 'b'],
      allowedOrigins: 'https://a.example.com,https://b.example.com',
    };
    await vscode.commands.executeCommand('observability.refreshNode', qeFolder);
    const lines = await children(qeFolder);
    assert.deepEqual(
      lines.map((n) => `${labelOf(item(n))}: ${String(item(n).description)}`),
      ['Roles: sql_console_read_only', 'API keys: 2', 'Allowed origins: https://a.example.com, https://b.example.com'],
    );
    const uri = await vscode.commands.executeCommand<vscode.Uri>('observability.openJson', lines[0]);
    assert.ok(uri, 'Open as JSON works from a property line');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.equal((JSON.parse(doc.getText()) as { id: string }).id, 'qe-1');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it("redraws a folder's count with its rows after an alert is created and deleted", async () => {
    const folder = await folderNode(serviceA, 'Alerts');
    await children(folder);
    const data = emulator.state.data.get(serviceA)!;
    const before = data.alerts.size;
    assert.match(String(item(folder).description), new RegExp(`^${before}\\b`));
    /** The folder's row as VS Code draws it when the folder's redraw is announced (it asks for the row first). */
    const rowAtRedraw = () =>
      new Promise<string>((resolve) => {
        const sub = tree().onDidChangeTreeData((n) => {
          if (n?.id !== folder.id) return;
          sub.dispose();
          resolve(String(item(folder).description));
        });
      });

    // Created on the service, then the folder refreshed (what Apply does after a create).
    const template = [...data.alerts.values()].find((a) => a.state !== 'ALERT')!;
    const created = { ...template, id: 'c0ffee00c0ffee00c0ffee00', name: 'Created in the tree test' };
    data.alerts.set(created.id, created);
    let drawn = rowAtRedraw();
    tree().refreshKinds(connectionId, serviceA, ['alerts']);
    assert.match(await drawn, new RegExp(`^${before + 1}\\b`), 'the count is the new one when the row is redrawn');
    assert.equal((await children(folder)).filter((n) => n.type === 'alert').length, before + 1);

    drawn = rowAtRedraw();
    const result = await vscode.commands.executeCommand<DeleteResult>('observability.deleteAlert', {
      connectionId,
      serviceId: serviceA,
      alertId: created.id,
      noPrompt: true,
    });
    assert.equal(result.deleted, true, result.error);
    assert.match(await drawn, new RegExp(`^${before}\\b`), 'the count drops with the deleted row');
    assert.equal((await children(folder)).filter((n) => n.type === 'alert').length, before);
  });

  it('after the key secret is updated, each folder recovers as soon as its own reads return', async () => {
    const alerts = await folderNode(serviceA, 'Alerts');
    const dashboards = await folderNode(serviceA, 'Dashboards');
    const rejected = { status: 401, body: { status: 401, error: 'Unauthorized', requestId: 'r-key-rotated' } };
    emulator.faults.add({ path: new RegExp(`/services/${serviceA}/observability/`), ...rejected });
    tree().refresh(await serviceNode(serviceA));
    const isError = (nodes: Node[]) => nodes.length === 1 && nodes[0]!.type === 'error';
    assert.ok(isError(await children(alerts)), 'the Alerts folder shows the rejected key');
    assert.ok(isError(await children(dashboards)), 'the Dashboards folder too');
    emulator.faults.clear();
    // The dashboards list is held back at the emulator: the Alerts folder must not wait for it.
    emulator.faults.add({ path: new RegExp(`/services/${serviceA}/observability/dashboards`), hold: true });
    let wholeTree = false;
    const alertsRedrawn = new Promise<void>((resolve) => {
      const sub = tree().onDidChangeTreeData((n) => {
        if (n === undefined) wholeTree = true;
        if (n?.id !== alerts.id) return;
        sub.dispose();
        resolve();
      });
    });
    await vscode.commands.executeCommand('observability.updateKeySecret', {
      connectionId,
      keySecret: emulator.keySecret,
      skipCheck: true,
    });
    await alertsRedrawn;
    assert.equal(wholeTree, false, 'the folders are redrawn one by one, not the whole tree');
    assert.ok(emulator.faults.holding > 0, 'the dashboards read is still held');
    const recovered = await children(alerts);
    assert.ok(recovered.length > 0 && recovered.every((n) => n.type === 'alert'), 'the Alerts folder shows its alerts');
    assert.match(String(item(alerts).description), new RegExp(`^${recovered.length}\\b`));
    emulator.faults.clear();
    const back = await children(dashboards);
    assert.ok(back.length > 0 && back.every((n) => n.type === 'dashboard'), 'the Dashboards folder recovers too');
  });

  it('redraws only the refreshed folder', async () => {
    const folder = await folderNode(serviceA, 'Sources');
    const fired: (Node | undefined)[] = [];
    let redrawn!: () => void;
    const done = new Promise<void>((resolve) => (redrawn = resolve));
    const sub = tree().onDidChangeTreeData((n) => {
      fired.push(n as Node | undefined);
      redrawn();
    });
    try {
      // A folder already expanded is read again first and redrawn once its list is back.
      await vscode.commands.executeCommand('observability.refreshNode', folder);
      await done;
      assert.deepEqual(
        fired.map((n) => n?.id),
        [folder.id],
      );
    } finally {
      sub.dispose();
    }
  });

  it('shows an error node for 401 with Update Key Secret, and Retry recovers', async () => {
    const folder = await folderNode(serviceB, 'Dashboards');
    emulator.faults.add({
      path: `/v1/organizations/${orgId}/services/${serviceB}/observability/dashboards`,
      status: 401,
      body: { status: 401, error: 'Unauthorized', requestId: '00000000-0000-4000-8000-000000000401' },
    });
    // Refresh reads the list again at once (the fault is in place before).
    await vscode.commands.executeCommand('observability.refreshNode', folder);
    const failed = await children(folder);
    assert.equal(failed.length, 1);
    const errorItem = item(failed[0]!);
    assert.equal(iconOf(errorItem), 'error');
    assert.match(labelOf(errorItem), /401/);
    assert.match(errorItem.contextValue ?? '', /\berror\b.*\bretryable\b.*\bupdateSecret\b/);
    assert.match(tooltipText(errorItem), /HTTP status/);
    emulator.faults.clear();
    await vscode.commands.executeCommand('observability.retry', failed[0]);
    const recovered = await children(folder);
    assert.ok(recovered.length > 0);
    assert.ok(
      recovered.every((n) => n.type === 'dashboard'),
      'dashboards after retry',
    );
  });

  it('explains an HTML 404 as a wrong path segment', async () => {
    const folder = await folderNode(serviceB, 'Sources');
    emulator.faults.add({
      path: `/v1/organizations/${orgId}/services/${serviceB}/observability/sources`,
      status: 404,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<!DOCTYPE html>\n<html lang="en"><head><title>Error</title></head><body><pre>Cannot GET</pre></body></html>\n',
    });
    const failed = await children(folder);
    assert.equal(failed.length, 1);
    const errorItem = item(failed[0]!);
    assert.match(labelOf(errorItem), /HTML 404 for …\/observability\/sources: check the product path segment/);
    assert.match(errorItem.contextValue ?? '', /\beditConnection\b/);
    emulator.faults.clear();
    await vscode.commands.executeCommand('observability.retry', failed[0]);
    assert.ok((await children(folder)).every((n) => n.type === 'source' || n.type === 'info'));
  });

  it('keeps the last good items with a warning when the service stops answering', async () => {
    const folder = await folderNode(serviceB, 'Alerts');
    const good = await children(folder);
    assert.ok(good.length > 0);
    emulator.faults.add({ path: new RegExp(`/services/${serviceB}/observability/(alerts|webhooks)`), delayMs: 8000 });
    await vscode.commands.executeCommand('observability.refreshNode', folder);
    const stale = await children(folder);
    const first = item(stale[0]!);
    assert.equal(iconOf(first), 'warning');
    assert.match(first.contextValue ?? '', /\bwarning offline retryable\b/);
    assert.deepEqual(
      stale.slice(1).map((n) => n.id),
      good.map((n) => n.id),
      'the previous alerts stay visible',
    );
    assert.match(String(item(folder).description), /offline/);
    emulator.faults.clear();
    await vscode.commands.executeCommand('observability.retry', stale[0]);
    const back = await children(folder);
    assert.deepEqual(
      back.map((n) => n.id),
      good.map((n) => n.id),
    );
  });

  it('filters by name and clears the filter', async () => {
    const folder = await folderNode(serviceA, 'Alerts');
    const all = await children(folder);
    await vscode.commands.executeCommand('observability.filter', 'latency');
    try {
      const some = await children(folder);
      const alerts = some.filter((n) => n.type === 'alert');
      assert.ok(alerts.length > 0 && alerts.length < all.length);
      for (const a of alerts) assert.match(labelOf(item(a)).toLowerCase(), /latency/);
      assert.ok(some.some((n) => n.type === 'info' && /hidden by the filter/.test(labelOf(item(n)))));
    } finally {
      await vscode.commands.executeCommand('observability.clearFilter');
    }
    assert.equal((await children(folder)).length, all.length);
  });

  it('opens an alert as read-only JSON from the cache', async () => {
    const data = emulator.state.data.get(serviceA)!;
    const alert = [...data.alerts.values()][0]!;
    const mark = emulator.requests.length;
    const uri = await vscode.commands.executeCommand<vscode.Uri>('observability.openJson', {
      connectionId,
      serviceId: serviceA,
      alertId: alert.id,
    });
    assert.ok(uri);
    assert.equal(uri.scheme, 'observability-readonly');
    const doc = await vscode.workspace.openTextDocument(uri);
    const parsed = JSON.parse(doc.getText()) as { id: string };
    assert.equal(parsed.id, alert.id);
    assert.match(doc.getText(), /\n {2}"/, 'pretty-printed');
    assert.equal(emulator.requests.length, mark, 'served from the cache');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('deletes a dashboard with its alerts and refreshes dashboards and alerts', async () => {
    const data = emulator.state.data.get(serviceA)!;
    const dashboardId = [...data.alerts.values()].find((a) => a.dashboardId)!.dashboardId!;
    const doomed = [...data.alerts.values()]
      .filter((a) => a.dashboardId === dashboardId)
      .map((a) => a.name ?? `Alert ${a.id}`);
    const result = await vscode.commands.executeCommand<DeleteResult>('observability.deleteDashboard', {
      connectionId,
      serviceId: serviceA,
      dashboardId,
      skipConfirmation: true,
    });
    assert.equal(result.deleted, true, result.error);
    assert.deepEqual([...(result.alsoDeleted ?? [])].sort(), doomed.sort());
    assert.equal(data.dashboards.has(dashboardId), false, 'gone on the server');
    assert.equal(
      [...data.alerts.values()].some((a) => a.dashboardId === dashboardId),
      false,
      'its alerts are gone too',
    );
    const dashboards = await children(await folderNode(serviceA, 'Dashboards'));
    assert.ok(!dashboards.some((n) => n.type === 'dashboard' && n.dashboard.id === dashboardId));
    const alerts = await children(await folderNode(serviceA, 'Alerts'));
    assert.ok(!alerts.some((n) => n.type === 'alert' && n.alert.dashboardId === dashboardId));
  });

  it('deletes an alert', async () => {
    const data = emulator.state.data.get(serviceA)!;
    const alert = [...data.alerts.values()][0]!;
    const result = await vscode.commands.executeCommand<DeleteResult>('observability.deleteAlert', {
      connectionId,
      serviceId: serviceA,
      alertId: alert.id,
      skipConfirmation: true,
    });
    assert.equal(result.deleted, true, result.error);
    assert.equal(data.alerts.has(alert.id), false);
    const alerts = await children(await folderNode(serviceA, 'Alerts'));
    assert.ok(!alerts.some((n) => n.type === 'alert' && n.alert.id === alert.id));
  });

  it('reveals and selects an alert (stable ids and getParent)', async () => {
    const firing = [...emulator.state.data.get(serviceA)!.alerts.values()].find((a) => a.state === 'ALERT')!;
    assert.equal(await api.tree.revealAlert(connectionId, serviceA, firing.id), true);
    const selected = api.tree.view.selection[0];
    assert.ok(selected && selected.type === 'alert' && selected.alert.id === firing.id);
    const parent = tree().getParent(selected);
    assert.ok(parent && parent.type === 'folder' && parent.kind === 'alerts');
  });

  it('counts firing alerts in the status bar from the cache, silenced ones apart', async () => {
    await api.tree.status.tick();
    const stored = [serviceA, serviceB].flatMap((s) =>
      [...emulator.state.data.get(s)!.alerts.values()].filter((a) => a.state === 'ALERT'),
    );
    const loud = stored.filter((a) => !a.silenced);
    const quiet = stored.filter((a) => a.silenced);
    assert.ok(loud.length > 0 && quiet.length > 0, 'the sample data has firing and silenced firing alerts');
    assert.deepEqual(api.tree.status.firing.map((f) => f.alert.id).sort(), loud.map((a) => a.id).sort());
    assert.deepEqual(api.tree.status.silenced.map((f) => f.alert.id).sort(), quiet.map((a) => a.id).sort());
    // Show Firing Alerts lists them (and ends once the list shows, so automation is not held by it).
    const shown = await vscode.commands.executeCommand('observability.showFiringAlerts');
    assert.deepEqual(shown, { firing: loud.length, silenced: quiet.length });
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  describe('with 10 000 alerts', () => {
    let big: Emulator;
    let bigConnection: string;
    before(async () => {
      big = await startEmulator({ rateLimit: FAST_LIMIT, alertCount: 10_000 });
      bigConnection = await vscode.commands.executeCommand<string>('observability.addConnection', {
        baseUrl: big.url,
        keyId: big.keyId,
        keySecret: big.keySecret,
        organizationId: big.organizationId,
        serviceIds: [big.serviceIds[0]],
        label: 'Large',
        skipCheck: true,
      });
    });
    after(async () => {
      await vscode.commands.executeCommand('observability.removeConnection', {
        connectionId: bigConnection,
        skipConfirmation: true,
      });
      await big.close();
    });

    // How fast is the benchmark's (scripts/bench.mjs: 1,000 and 10,000 alerts against their targets).
    it('loads, sorts and draws the alerts folder', async () => {
      const roots = await children();
      const root = roots.find((n) => n.type === 'connection' && n.connection.id === bigConnection)!;
      const [service] = await children(root);
      const folder = (await children(service)).find((n) => n.type === 'folder' && n.kind === 'alerts')!;
      const nodes = await children(folder);
      const total = big.state.data.get(big.serviceIds[0]!)!.alerts.size;
      assert.equal(nodes.filter((n) => n.type === 'alert').length, total);
      const again = await children(folder);
      assert.equal(again.length, nodes.length, 'the folder lists the same alerts again');
      for (const n of again) item(n);
      const firstQuiet = nodes.findIndex((n) => n.type === 'alert' && n.alert.state !== 'ALERT');
      assert.ok(
        nodes.slice(firstQuiet).every((n) => n.type !== 'alert' || n.alert.state !== 'ALERT'),
        'firing alerts come first',
      );
    });
  });
});

// The main browsing journey, once per connection kind (Cloud service, self-hosted deployment).
describeEachFlavor('Explorer tree journey', (run) => {
  const item = (node: JourneyNode) => run.tree().getTreeItem(node);
  const children = (node?: JourneyNode) => run.tree().getChildren(node);

  it('browses folders, dashboards, tiles and the alerts that watch them, and opens an alert as read-only JSON', async () => {
    const mark = run.emulator.requests.length;
    const folders = await children(await run.folderParent());
    assert.deepEqual(
      folders.map((f) => labelOf(item(f))),
      run.flavor.folders,
    );
    assert.equal(run.emulator.requests.length - mark, 0, 'no request before a folder is expanded');

    // The connection's row: its label, then the host at the start of the description.
    const root = (await children()).find((n) => n.type === 'connection' && n.connection?.id === run.connectionId);
    assert.ok(root, 'the connection is listed');
    const host = new URL(run.emulator.url).host;
    assert.equal(String(item(root).description).split(' · ')[0], host);
    assert.ok(!labelOf(item(root)).includes(host), 'the host is not repeated in the label');

    const dashboards = await children(await run.folder('Dashboards'));
    assert.deepEqual(
      dashboards.map((n) => labelOf(item(n))),
      [...run.data().dashboards.values()].map((d) => d.name as string).sort(collator.compare),
    );
    const listed = run.emulator.requests.slice(mark).map((r) => r.path);
    assert.ok(listed.includes(run.path('dashboards')), `listed at ${run.path('dashboards')}: ${listed.join(', ')}`);

    // A dashboard with a watched tile: its tiles, and under the tile the alerts on it.
    const watched = [...run.data().alerts.values()].find((a) => a.dashboardId && a.tileId)!;
    assert.ok(watched, 'the sample data has a tile alert');
    const dashboard = dashboards.find((n) => n.dashboard?.id === watched.dashboardId);
    assert.ok(dashboard, 'the watched dashboard is listed');
    const tiles = await children(dashboard);
    const stored = run.data().dashboards.get(watched.dashboardId!)!;
    assert.deepEqual(
      tiles.filter((t) => t.type === 'tile').map((t) => t.tile?.id),
      (stored.tiles as unknown as StoredTile[]).map((t) => t.id),
    );
    const tile = tiles.find((t) => t.tile?.id === watched.tileId)!;
    // The alerts watching a tile lead its description (its icon shows the display type).
    assert.match(String(item(tile).description), /^\d+ alerts? · /);
    const onTile = (await children(tile)).map((a) => a.alert?.id);
    const expectedOnTile = [...run.data().alerts.values()]
      .filter((a) => a.dashboardId === watched.dashboardId && a.tileId === watched.tileId)
      .map((a) => a.id);
    assert.deepEqual(onTile.sort(), expectedOnTile.sort());

    const alerts = (await children(await run.folder('Alerts'))).filter((n) => n.type === 'alert');
    assert.deepEqual(alerts.map((a) => a.alert?.id).sort(), [...run.data().alerts.keys()].sort());
    for (const a of alerts) assert.equal(iconOf(item(a)), expectedIcon(run.data().alerts.get(a.alert!.id)!));

    const before = run.emulator.requests.length;
    const uri = await vscode.commands.executeCommand<vscode.Uri>('observability.openJson', {
      connectionId: run.connectionId,
      serviceId: run.serviceId,
      alertId: watched.id,
    });
    assert.ok(uri);
    assert.equal(uri.scheme, 'observability-readonly');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.equal((JSON.parse(doc.getText()) as { id: string }).id, watched.id);
    assert.equal(run.emulator.requests.length, before, 'served from the cache');
  });

  it('offers Open in Web App on dashboards, alerts and saved searches of a self-hosted deployment only', async () => {
    // The tree's context menu shows the command where the row's contextValue fits the menu's `when` clause.
    const menus = (extension().packageJSON as PackageJson).contributes.menus['view/item/context'];
    const when = menus.find((m) => m.command === 'observability.openInWebApp')?.when ?? '';
    const pattern = /viewItem =~ \/(.+)\/$/.exec(when)?.[1];
    assert.ok(pattern, `the menu's when clause tests the row's contextValue: ${when}`);
    const offered = (node: JourneyNode) => new RegExp(pattern).test(item(node).contextValue ?? '');

    const dashboard = (await children(await run.folder('Dashboards'))).find((n) => n.type === 'dashboard');
    const alert = (await children(await run.folder('Alerts'))).find((n) => n.type === 'alert');
    const search = (await children(await run.folder('Saved Searches'))).find((n) => n.kind === 'savedSearch');
    assert.ok(dashboard?.dashboard && alert?.alert && search, 'a dashboard, an alert and a saved search are listed');
    const searchId = (search as unknown as Node & { item: { id: string } }).item.id;
    const source = (await children(await run.folder('Sources')))[0];
    assert.ok(source && !offered(source), 'never offered on a source');

    const open = (node: JourneyNode) =>
      vscode.commands.executeCommand<string | undefined>('observability.openInWebApp', node);
    if (run.flavor.emulatorFlavor === 'oss') {
      for (const node of [dashboard, alert, search]) assert.ok(offered(node), `offered on ${item(node).contextValue}`);
      // The command returns the address it opened in the browser: the deployment's own pages.
      assert.equal(await open(dashboard), `${run.emulator.url}/dashboards/${dashboard.dashboard.id}`);
      assert.equal(await open(alert), `${run.emulator.url}/alerts`);
      assert.equal(await open(search), `${run.emulator.url}/search/${searchId}`);
      assert.equal(
        await vscode.commands.executeCommand('observability.openInWebApp', {
          connectionId: run.connectionId,
          savedSearchId: searchId,
        }),
        `${run.emulator.url}/search/${searchId}`,
      );
    } else {
      // A Cloud console's address for the service is not known: not offered, and nothing opened when invoked anyway.
      for (const node of [dashboard, alert, search]) {
        assert.ok(!offered(node), `not offered on ${item(node).contextValue}`);
      }
      for (const node of [dashboard, alert, search]) assert.equal(await open(node), undefined);
    }
  });
});

/**
 * Load against the in-process emulator with its rate limit on (a request over the limit gets 429): refreshing every
 * folder of many services and applying a plan of 200 alert files stay free of 429s, and browsing 10 000 alerts again
 * and again keeps the heap bounded.
 *
 * The live limit is 10 requests per 10 s per key. Here the emulator and the extension's `observability.rateLimit.*`
 * settings are set to the same shorter window, 25 requests per 2.5 s, so each burst needs several windows and the
 * suite stays short. The code path is the one used with the live numbers: the settings configure the shared per-key
 * sliding-window limiter, and the emulator, like the service, refuses any request beyond its own sliding window of
 * arrivals. The limiter's safety margin for delivery delays is 250 ms here as with the live window (10 % of the
 * window, at most 250 ms), so the test leaves the client no more slack than the service does. Only the time scale
 * changes; a control burst that skips the extension shows that the emulator does refuse requests over the limit.
 */
import * as assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { RecordedRequest } from '../emulator/types';
import type { TreeHandle } from '../../src/tree';
import type { Node } from '../../src/tree/nodes';
import type { ApplyPlanResult } from '../../src/alertFiles/service';
import type { AlertPlan } from '../../src/alertFiles/plan';
import { activate, configure, isAlertableTile, labelOf, readFile, type StoredTile } from './support';

/** The same limit for the emulator and for the extension's settings. */
const LIMIT = { requests: 25, windowMs: 2500 };
const EXTRA_SERVICES = 10;
const ALERT_FILES = 200;
const BIG_ALERTS = 10_000;
const BROWSE_CYCLES = 5;
const HEAP_GROWTH_BOUND_MB = 30;

interface Api {
  readonly tree: TreeHandle;
}

const apiRequests = (emulator: Emulator, mark: number): RecordedRequest[] =>
  emulator.requests.slice(mark).filter((r) => r.path.startsWith('/v1/'));

/** The largest number of recorded requests that arrived within any one window. */
function busiestWindow(requests: readonly RecordedRequest[], windowMs: number): number {
  const times = requests.map((r) => r.at).sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while ((times[end] as number) - (times[start] as number) >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

function describeRefused(requests: readonly RecordedRequest[]): string {
  const refused = requests.filter((r) => r.status === 429);
  return `${refused.length} of ${requests.length} requests got 429: ${refused
    .slice(0, 5)
    .map((r) => `${r.method} ${r.path}`)
    .join(', ')}`;
}

function collectGarbage(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc: unknown = vm.runInNewContext('gc');
  assert.equal(typeof gc, 'function', 'garbage collection can be forced');
  return () => {
    (gc as () => void)();
    (gc as () => void)();
  };
}

describe('Load with the rate limit on', function () {
  this.timeout(60_000);
  let emulator: Emulator;
  let api: Api;
  let connectionId: string;
  let root: vscode.Uri | undefined;
  const tree = () => api.tree.provider;
  const item = (node: Node) => tree().getTreeItem(node);

  async function connectionNode(id: string): Promise<Node> {
    const roots = await tree().getChildren();
    const node = roots.find((n) => n.type === 'connection' && n.connection.id === id);
    assert.ok(node, 'connection node missing');
    return node;
  }

  before(async () => {
    await configure('rateLimit.requestsPerWindow', LIMIT.requests);
    await configure('rateLimit.windowSeconds', LIMIT.windowMs / 1000);
    emulator = await startEmulator({ rateLimit: LIMIT, extraServices: EXTRA_SERVICES });
    api = await activate<Api>();

    // Control: a burst that skips the extension's limiter is refused beyond the limit.
    const mark = emulator.requests.length;
    const auth = `Basic ${Buffer.from(`${emulator.keyId}:${emulator.keySecret}`).toString('base64')}`;
    const statuses = await Promise.all(
      Array.from(
        { length: LIMIT.requests + 5 },
        async () =>
          (
            await fetch(`${emulator.url}/v1/organizations/${emulator.organizationId}`, {
              headers: { authorization: auth },
            })
          ).status,
      ),
    );
    assert.equal(statuses.filter((s) => s === 429).length, 5, `the emulator enforces its limit: ${statuses.join(' ')}`);
    assert.equal(apiRequests(emulator, mark).length, LIMIT.requests + 5);
    await new Promise((r) => setTimeout(r, LIMIT.windowMs + 100));

    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: emulator.serviceIds,
      label: 'Load (emulator)',
      skipCheck: true,
    });
    assert.equal(typeof connectionId, 'string');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (root) await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false });
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('rateLimit.windowSeconds', undefined);
    await emulator?.close();
  });

  it(`refreshes all and loads every folder of ${EXTRA_SERVICES + 3} services without a 429`, async () => {
    const services = await tree().getChildren(await connectionNode(connectionId));
    assert.equal(services.length, emulator.serviceIds.length);
    for (let round = 1; round <= 2; round++) {
      await vscode.commands.executeCommand('observability.refresh');
      const mark = emulator.requests.length;
      const started = performance.now();
      const current = await tree().getChildren(await connectionNode(connectionId));
      const folders = (await Promise.all(current.map((s) => tree().getChildren(s)))).flat();
      assert.equal(folders.length, current.length * 7, 'seven folders per service');
      const contents = await Promise.all(folders.map((f) => tree().getChildren(f)));
      const ms = performance.now() - started;
      const requests = apiRequests(emulator, mark);
      const busiest = busiestWindow(requests, LIMIT.windowMs);
      console.log(
        `      refresh all #${round}: ${folders.length} folders, ${requests.length} requests in ${ms.toFixed(0)} ms, at most ${busiest} per window`,
      );
      assert.ok(
        requests.length > 2 * LIMIT.requests,
        `the burst is larger than two windows (${requests.length} requests)`,
      );
      assert.deepEqual(
        requests.filter((r) => r.status === 429),
        [],
        `refresh all #${round}: ${describeRefused(requests)}`,
      );
      assert.ok(busiest <= LIMIT.requests, `${busiest} requests within one window`);
      const bad = contents
        .flat()
        .filter((n) => n.type === 'error' || /\b(error|warning|offline)\b/.test(item(n).contextValue ?? ''));
      assert.deepEqual(
        bad.map((n) => labelOf(item(n))),
        [],
        'no error or offline node',
      );
      for (const [i, f] of folders.entries()) {
        if (f.type !== 'folder' || f.kind !== 'alerts') continue;
        const alerts = contents[i]!.filter((n) => n.type === 'alert').length;
        assert.equal(alerts, emulator.state.data.get(f.serviceId)!.alerts.size, `alerts of ${f.serviceId}`);
      }
    }
  });

  it(`plans and applies ${ALERT_FILES} alert files without a 429, writing every id back`, async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the test host opens a workspace folder');
    root = vscode.Uri.joinPath(workspace.uri, `load-test-${Date.now()}`);
    await vscode.workspace.fs.createDirectory(root);
    const targets = emulator.serviceIds
      .flatMap((serviceId) => {
        const data = emulator.state.data.get(serviceId)!;
        const webhook = [...data.webhooks.values()][0];
        for (const d of data.dashboards.values()) {
          const tile = (d.tiles as unknown as StoredTile[]).find(isAlertableTile);
          if (tile && webhook) {
            return [{ serviceId, dashboardId: d.id as string, tileId: tile.id, webhookId: webhook.id as string }];
          }
        }
        return [];
      })
      .slice(0, 5);
    assert.equal(targets.length, 5, 'five services with alertable tiles');
    const before = new Map(targets.map((t) => [t.serviceId, emulator.state.data.get(t.serviceId)!.alerts.size]));
    const uris: vscode.Uri[] = [];
    for (let n = 0; n < ALERT_FILES; n++) {
      const t = targets[n % targets.length]!;
      const uri = vscode.Uri.joinPath(root, `load-${String(n).padStart(3, '0')}.alert.json`);
      const body = {
        organizationId: emulator.organizationId,
        serviceId: t.serviceId,
        name: `Load alert ${n}`,
        source: 'tile',
        dashboardId: t.dashboardId,
        tileId: t.tileId,
        threshold: n + 1,
        thresholdType: 'above',
        interval: '5m',
        channel: { type: 'webhook', webhookId: t.webhookId },
      };
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(body, null, 2)}\n`));
      uris.push(uri);
    }

    const mark = emulator.requests.length;
    const started = performance.now();
    const plan = await vscode.commands.executeCommand<AlertPlan>('observability.planAlertFiles', {
      folder: root.toString(),
      show: false,
    });
    assert.equal(plan.counts.create, ALERT_FILES, JSON.stringify(plan.counts));
    const result = await vscode.commands.executeCommand<ApplyPlanResult>('observability.applyAlertPlan', {
      folder: root.toString(),
      confirm: true,
    });
    const ms = performance.now() - started;
    const requests = apiRequests(emulator, mark);
    const busiest = busiestWindow(requests, LIMIT.windowMs);
    console.log(
      `      plan + apply: ${result.done.length} created, ${requests.length} requests in ${ms.toFixed(0)} ms, at most ${busiest} per window`,
    );
    assert.equal(result.outcome, 'applied', JSON.stringify({ ...result, plan: undefined }).slice(0, 2000));
    assert.equal(result.done.length, ALERT_FILES);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(
      requests.filter((r) => r.status === 429),
      [],
      describeRefused(requests),
    );
    assert.ok(busiest <= LIMIT.requests, `${busiest} requests within one window`);
    assert.equal(requests.filter((r) => r.method === 'POST').length, ALERT_FILES, 'one create per file');
    for (const t of targets) {
      assert.equal(
        emulator.state.data.get(t.serviceId)!.alerts.size,
        before.get(t.serviceId)! + ALERT_FILES / targets.length,
      );
    }
    for (const [n, uri] of uris.entries()) {
      const value = JSON.parse(await readFile(uri)) as { id?: string; serviceId: string };
      assert.ok(value.id, `id written back to ${uri.path}`);
      const stored = emulator.state.data.get(value.serviceId)!.alerts.get(value.id);
      assert.equal(stored?.name, `Load alert ${n}`);
    }
    const again = await vscode.commands.executeCommand<ApplyPlanResult>('observability.applyAlertPlan', {
      folder: root.toString(),
      confirm: true,
    });
    assert.equal(again.outcome, 'nothingToDo');
  });

  describe(`browsing ${BIG_ALERTS} alerts`, () => {
    let big: Emulator;
    let bigConnection: string;

    before(async () => {
      big = await startEmulator({ rateLimit: LIMIT, alertCount: BIG_ALERTS });
      bigConnection = await vscode.commands.executeCommand<string>('observability.addConnection', {
        baseUrl: big.url,
        keyId: big.keyId,
        keySecret: big.keySecret,
        organizationId: big.organizationId,
        serviceIds: [big.serviceIds[0]],
        label: 'Load, many alerts (emulator)',
        skipCheck: true,
      });
    });

    after(async () => {
      if (bigConnection) {
        await vscode.commands.executeCommand('observability.removeConnection', {
          connectionId: bigConnection,
          skipConfirmation: true,
        });
      }
      await big?.close();
    });

    it(`keeps the heap bounded over ${BROWSE_CYCLES} refresh and draw cycles, without a 429`, async () => {
      const gc = collectGarbage();
      const serviceId = big.serviceIds[0]!;
      const total = big.state.data.get(serviceId)!.alerts.size;
      const mark = big.requests.length;
      const [service] = await tree().getChildren(await connectionNode(bigConnection));
      assert.ok(service);
      const folder = (await tree().getChildren(service)).find((n) => n.type === 'folder' && n.kind === 'alerts');
      assert.ok(folder);

      const heapMb: number[] = [];
      for (let cycle = 1; cycle <= BROWSE_CYCLES; cycle++) {
        await vscode.commands.executeCommand('observability.refreshNode', folder);
        let nodes: Node[] | undefined = await tree().getChildren(folder);
        let drawn = 0;
        for (const n of nodes) {
          const treeItem = item(n);
          if (labelOf(treeItem)) drawn++;
          if (n.type === 'alert' && drawn % 100 === 0) tree().resolveTreeItem(treeItem, n);
        }
        assert.equal(nodes.filter((n) => n.type === 'alert').length, total, `cycle ${cycle} shows every alert`);
        assert.equal(drawn, nodes.length);
        nodes = undefined;
        gc();
        heapMb.push(process.memoryUsage().heapUsed / 2 ** 20);
      }
      const requests = apiRequests(big, mark);
      const growth = (heapMb.at(-1) as number) - (heapMb[0] as number);
      console.log(
        `      heapUsed after each cycle (MB): ${heapMb.map((m) => m.toFixed(1)).join(', ')}; growth ${growth.toFixed(1)} MB; ${requests.length} requests, at most ${busiestWindow(requests, LIMIT.windowMs)} per window`,
      );
      assert.deepEqual(
        requests.filter((r) => r.status === 429),
        [],
        describeRefused(requests),
      );
      assert.ok(growth < HEAP_GROWTH_BOUND_MB, `heap grew by ${growth.toFixed(1)} MB over ${BROWSE_CYCLES - 1} cycles`);
      assert.ok(Math.max(...heapMb) - (heapMb[0] as number) < HEAP_GROWTH_BOUND_MB, 'no cycle exceeded the bound');
    });
  });
});

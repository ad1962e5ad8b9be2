/**
 * Moving a connection to another server in a real VS Code: the explorer has folders expanded (in the visible view)
 * and an alert file naming the connection's organization and service is open, so both load again as soon as the
 * connection changes. Two emulators stand for the old and the new server, each behind a small loopback front that
 * records the Authorization header of every request. The new server accepts only the new secret.
 *
 * What a user relies on: the old secret reaches only the old server, and only before the move completes; the new
 * secret reaches only the new server; after the move the explorer and the alert file work against the new server.
 */
import * as assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { startEmulator, type Emulator } from '../emulator/server';
import type { TreeHandle } from '../../src/tree';
import type { Node } from '../../src/tree/nodes';
import { activate, configure, sleep, waitFor } from './support';

const VIEW_ID = 'observability.explorer';
const NEW_SECRET = 'new-server-secret-5b1f9e0c7a';

interface Api {
  readonly tree: TreeHandle;
  readonly connections: {
    get(id: string): { baseUrl: string } | undefined;
    getSecret(id: string): Promise<string | undefined>;
  };
}

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly authorization: string;
  /** When the request's headers arrived (epoch ms). */
  readonly at: number;
}

/** A loopback front of an emulator that records each request's Authorization header and may rewrite it. */
interface Front {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

async function startFront(target: Emulator, rewrite: (authorization: string) => string): Promise<Front> {
  const seen: Seen[] = [];
  const upstream = new URL(target.url);
  const server: Server = createServer((req, res) => {
    const authorization = req.headers.authorization ?? '';
    seen.push({ method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0], authorization, at: Date.now() });
    const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host };
    if (authorization) headers.authorization = rewrite(authorization);
    const out = httpRequest(
      { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const basic = (keyId: string, secret: string) =>
  `Basic ${Buffer.from(`${keyId}:${secret}`, 'utf8').toString('base64')}`;

describe('Connection move', function () {
  this.timeout(120_000);
  let api: Api;
  let oldServer: Emulator;
  let newServer: Emulator;
  let oldFront: Front;
  let newFront: Front;
  let connectionId: string | undefined;
  let root: vscode.Uri | undefined;

  before(async () => {
    api = await activate<Api>();
    await configure('rateLimit.requestsPerWindow', 1000);
    await configure('rateLimit.windowSeconds', 1);
    oldServer = await startEmulator({ rateLimit: false });
    newServer = await startEmulator({ rateLimit: false });
    // The old server accepts the old secret as sent; the new one accepts only the new secret (the emulator knows one
    // secret, so the front translates the new secret into it and spoils everything else).
    oldFront = await startFront(oldServer, (auth) => auth);
    const newAccepted = basic(newServer.keyId, NEW_SECRET);
    newFront = await startFront(newServer, (auth) =>
      auth === newAccepted ? basic(newServer.keyId, newServer.keySecret) : 'Basic c3BvaWxlZDpzcG9pbGVk',
    );
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (root) {
      await vscode.workspace.fs.delete(root, { recursive: true, useTrash: false }).then(undefined, () => undefined);
    }
    if (connectionId) {
      await vscode.commands.executeCommand('observability.removeConnection', { connectionId, skipConfirmation: true });
    }
    await configure('rateLimit.requestsPerWindow', undefined);
    await configure('rateLimit.windowSeconds', undefined);
    await oldFront?.close();
    await newFront?.close();
    await oldServer?.close();
    await newServer?.close();
  });

  it('sends the old secret only to the old server before the move, and the new secret only to the new server', async () => {
    const oldAuth = basic(oldServer.keyId, oldServer.keySecret);
    const newAuth = basic(newServer.keyId, NEW_SECRET);
    const [serviceA, serviceB] = oldServer.serviceIds as [string, string];
    assert.deepEqual(
      newServer.serviceIds.slice(0, 2),
      [serviceA, serviceB],
      'both servers hold the same organization and services',
    );

    connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: oldFront.url,
      keyId: oldServer.keyId,
      keySecret: oldServer.keySecret,
      organizationId: oldServer.organizationId,
      serviceIds: [serviceA, serviceB],
      pathSegment: 'observability',
      label: 'Moving connection',
    });
    assert.equal(typeof connectionId, 'string');
    const id = connectionId;

    // Expand folders in the visible explorer: VS Code asks for their children again whenever the connection changes.
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    const provider = api.tree.provider;
    const folders = (): Node[] =>
      [serviceA, serviceB].flatMap((s) =>
        (['dashboards', 'alerts', 'sources'] as const)
          .map((kind) => provider.folder(id, s, kind))
          .filter((n): n is NonNullable<typeof n> => n !== undefined),
      );
    const roots = await provider.getChildren();
    const connectionNode = roots.find((n) => n.type === 'connection' && n.connection.id === id);
    assert.ok(connectionNode, 'the connection is in the explorer');
    for (const service of await provider.getChildren(connectionNode)) await provider.getChildren(service);
    assert.ok(folders().length >= 6, 'the folders of both services are drawn');
    for (const folder of folders()) await api.tree.view.reveal(folder, { expand: true, select: false, focus: false });

    // An alert file naming the organization and the first service, open in an editor: it is checked against the service.
    const workspace = vscode.workspace.workspaceFolders?.[0];
    assert.ok(workspace, 'the test host opens a workspace folder');
    root = vscode.Uri.joinPath(workspace.uri, `connection-move-${Date.now()}`);
    await vscode.workspace.fs.createDirectory(root);
    const data = oldServer.state.data.get(serviceA)!;
    const dashboard = [...data.dashboards.values()][0]!;
    const file = vscode.Uri.joinPath(root, 'latency.alert.json');
    await vscode.workspace.fs.writeFile(
      file,
      new TextEncoder().encode(
        `${JSON.stringify(
          {
            organizationId: oldServer.organizationId,
            serviceId: serviceA,
            name: 'Moved alert',
            source: 'tile',
            dashboardId: dashboard.id,
            tileId: (dashboard.tiles[0] as { id: string }).id,
            threshold: 10,
            thresholdType: 'above',
            interval: '5m',
            channel: { type: 'webhook', webhookId: [...data.webhooks.values()][0]!.id },
          },
          null,
          2,
        )}\n`,
      ),
    );
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));

    await waitFor(
      'the old server to serve the explorer and the alert file',
      () =>
        oldFront.seen.some((r) => r.path.endsWith('/observability/dashboards')) &&
        oldFront.seen.some((r) => r.path.endsWith('/observability/alerts')),
      20_000,
      50,
    );
    await sleep(500);

    // During the move: one slow request is in flight to the old server, and the explorer keeps asking for data.
    oldServer.faults.add({ method: 'GET', path: /\/observability\/webhooks$/, delayMs: 5000, times: 1 });
    const mark = oldFront.seen.length;
    provider.cache.invalidate(id, serviceB, ['webhooks']);
    let slowSettledAt = 0;
    const inFlight = provider.cache.ensure(id, serviceB, 'webhooks').then((entry) => {
      slowSettledAt = Date.now();
      return entry;
    });
    const slowSent = await waitFor(
      'the slow request to reach the old server',
      () => oldFront.seen.slice(mark).find((r) => r.path.endsWith('/observability/webhooks')),
      20_000,
      50,
    );
    let hammering = true;
    const hammer = (async () => {
      while (hammering) {
        for (const kind of ['dashboards', 'alerts', 'sources', 'queryEndpoint'] as const) {
          provider.cache.invalidate(id, serviceA, [kind]);
          void provider.cache.ensure(id, serviceA, kind);
        }
        await sleep(5);
      }
    })();

    const moveStarted = Date.now();
    await vscode.commands.executeCommand('observability.editConnection', {
      connectionId: id,
      baseUrl: newFront.url,
      keySecret: NEW_SECRET,
      pathSegment: 'observability',
    });
    const moved = Date.now();
    await sleep(300);
    hammering = false;
    await hammer;
    const slow = await inFlight;

    assert.equal(api.connections.get(id)?.baseUrl, newFront.url);
    assert.equal(await api.connections.getSecret(id), NEW_SECRET);

    // After the move the expanded folders and the alert file load from the new server, with the new secret.
    await waitFor(
      'the explorer to load from the new server',
      () => newFront.seen.some((r) => r.path.endsWith('/observability/dashboards') && r.at >= moved),
      20_000,
      50,
    );
    const dashboards = await provider.getChildren(provider.folder(id, serviceA, 'dashboards')!);
    assert.ok(
      dashboards.some((n) => n.type === 'dashboard'),
      'the moved connection lists the dashboards of the new server',
    );
    await sleep(1000);

    const oldSeen = oldFront.seen.filter((r) => r.path.startsWith('/v1/'));
    const newSeen = newFront.seen.filter((r) => r.path.startsWith('/v1/'));
    const describe = (list: readonly Seen[]) =>
      list
        .map(
          (r) =>
            `${r.method} ${r.path} @${r.at - moveStarted}ms ${r.authorization === oldAuth ? 'old' : r.authorization === newAuth ? 'new' : 'other'}`,
        )
        .join('\n');

    assert.ok(oldSeen.length > 0, 'the old server got requests before the move');
    assert.ok(newSeen.length > 0, 'the new server got requests after the move');
    const problems = {
      'the old server got another secret than the old one': oldSeen.filter((r) => r.authorization !== oldAuth),
      'the old server got requests after the move': oldSeen.filter((r) => r.at > moved),
      'the new server got another secret than the new one': newSeen.filter((r) => r.authorization !== newAuth),
    };
    const found = Object.entries(problems)
      .filter(([, list]) => list.length > 0)
      .map(([what, list]) => `${what}:\n${describe(list)}`);
    assert.deepEqual(found, [], found.join('\n'));
    assert.ok(
      newSeen.some((r) => r.path.includes('/observability/')),
      'the new server served the explorer or the alert file',
    );
    // The slow request reached the old server before the move; the move cut it off instead of waiting for its answer.
    assert.ok(slow.error !== undefined, 'the request in flight to the old server was not stopped by the move');
    assert.ok(
      slowSettledAt < slowSent.at + 4000,
      `the request in flight waited ${slowSettledAt - slowSent.at} ms for the old server's answer`,
    );
  });
});

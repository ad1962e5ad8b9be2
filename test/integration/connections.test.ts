/**
 * Connections against the local emulator: adding one with an argument object (checked with one request), where the
 * secret is kept (SecretStorage only: not in global state, settings or the log), a wrong secret failing the check
 * with the HTTP status and request ID, editing, choosing services, replacing the secret, and removing a connection
 * together with its secret. A manager over a failing keyring and over changes made in another window is tested with
 * in-memory stand-ins for global state and SecretStorage.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ConnectionManager } from '../../src/connections/manager';
import type { Logger } from '../../src/log';
import { startEmulator, type Emulator } from '../emulator/server';
import { activate, configure, extension, rejection, sleep, waitForLog, type ExtensionApi } from './support';

/** Every key and value of the extension's global state, as one string. */
function dumpGlobalState(api: ExtensionApi): string {
  const state = api.connections.globalState;
  return JSON.stringify(state.keys().map((key) => [key, state.get<unknown>(key)]));
}

describe('Connections', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let emulator: Emulator;
  const created: string[] = [];

  const addArgs = (overrides: Record<string, unknown> = {}) => ({
    baseUrl: emulator.url,
    keyId: emulator.keyId,
    keySecret: emulator.keySecret,
    organizationId: emulator.organizationId,
    serviceIds: [emulator.serviceIds[0]],
    pathSegment: 'observability',
    label: 'Emulator',
    ...overrides,
  });

  async function add(overrides: Record<string, unknown> = {}): Promise<string> {
    const id = await vscode.commands.executeCommand<unknown>('observability.addConnection', addArgs(overrides));
    assert.equal(typeof id, 'string', 'Add Connection did not return the new connection ID');
    created.push(id as string);
    return id as string;
  }

  before(async () => {
    api = await activate();
    emulator = await startEmulator({ rateLimit: false });
    // The emulator does not limit; lift the client's own limit (10 per 10 s per key) so the suite runs quickly.
    await configure('rateLimit.requestsPerWindow', 1000);
  });

  after(async () => {
    await configure('rateLimit.requestsPerWindow', undefined);
    for (const id of created) {
      if (api.connections.get(id)) await api.connections.remove(id);
    }
    await emulator?.close();
  });

  it('finds the same connection saved already (address, organization and key), which the walk-through warns about', async () => {
    const id = await add({ label: 'Twice' });
    const cloud = (overrides: Record<string, unknown> = {}) => ({
      label: 'Another label',
      baseUrl: `${emulator.url}/`,
      organizationId: emulator.organizationId.toUpperCase(),
      serviceIds: [emulator.serviceIds[1]!],
      services: [],
      keyId: emulator.keyId,
      pathSegment: 'observability',
      ...overrides,
    });
    assert.equal((await api.connections.findSame(cloud(), 'any secret'))?.id, id, 'same address, organization, key');
    assert.equal(await api.connections.findSame(cloud({ keyId: 'another-key' }), emulator.keySecret), undefined);
    assert.equal(
      await api.connections.findSame(cloud({ organizationId: '00000000-0000-4000-8000-000000000000' }), 'x'),
      undefined,
    );
    await api.connections.remove(id);
    assert.equal(await api.connections.findSame(cloud(), 'any secret'), undefined, 'none once removed');
  });

  it('adds a connection from an argument object after one checking request', async () => {
    const before = emulator.requests.length;
    const id = await add();
    const saved = api.connections.get(id);
    assert.ok(saved, 'the connection was not saved');
    assert.equal(saved.label, 'Emulator');
    assert.equal(saved.baseUrl, emulator.url);
    assert.equal(saved.organizationId, emulator.organizationId);
    assert.deepEqual(saved.serviceIds, [emulator.serviceIds[0]]);
    assert.equal(saved.keyId, emulator.keyId);
    assert.equal(saved.pathSegment, 'observability');
    assert.ok(
      saved.services.some((s) => s.id === emulator.serviceIds[0] && s.name !== s.id),
      'service names were not looked up',
    );
    const sourcesPath = `/v1/organizations/${emulator.organizationId}/services/${emulator.serviceIds[0]}/observability/sources`;
    const check = emulator.requests.slice(before).find((r) => r.path === sourcesPath);
    assert.ok(check, 'the sources of the first service were not requested');
    assert.equal(check.status, 200);
    assert.ok(check.authorized);
  });

  it('keeps the secret in SecretStorage only: not in global state, settings or the log', async () => {
    const id = await add({ label: 'Secret check' });
    assert.equal(await api.connections.getSecret(id), emulator.keySecret);
    assert.ok(api.connections.secretsInUse().includes(emulator.keySecret));

    const state = dumpGlobalState(api);
    assert.ok(state.includes(id), 'the connection is not in global state');
    assert.ok(!state.includes(emulator.keySecret), 'the secret is in global state');

    const settings = vscode.workspace.getConfiguration().inspect<unknown>('observability');
    assert.ok(!JSON.stringify(settings).includes(emulator.keySecret), 'the secret is in settings');
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('observability')).includes(emulator.keySecret));

    const basic = Buffer.from(`${emulator.keyId}:${emulator.keySecret}`).toString('base64');
    const log = await waitForLog(
      api,
      new RegExp(
        `GET /v1/organizations/${emulator.organizationId}/services/[0-9a-f-]+/observability/sources -> 200 in \\d+ ms \\(requestId [0-9a-f-]+\\)`,
      ),
    );
    assert.ok(!log.includes(emulator.keySecret), 'the secret is in the log');
    assert.ok(!log.includes(basic), 'the Basic credentials are in the log');
  });

  it('declares no setting that could redirect credentials in a workspace', () => {
    const properties =
      (
        extension().packageJSON as {
          contributes?: { configuration?: { properties?: Record<string, { scope?: string }> } };
        }
      ).contributes?.configuration?.properties ?? {};
    for (const [key, schema] of Object.entries(properties)) {
      assert.ok(
        !/url|host|endpoint|secret|key/i.test(key.replace(/^observability\./, '')),
        `setting ${key} could redirect or hold credentials`,
      );
      if (key.startsWith('observability.requestTimeout') || key.startsWith('observability.rateLimit')) {
        assert.ok(
          schema.scope === 'application' || schema.scope === 'machine',
          `${key} must not be set by a workspace`,
        );
      }
    }
  });

  it('fails the check for a wrong secret with a message naming 401 and the request ID, and saves nothing', async () => {
    const countBefore = api.connections.list().length;
    const requestsBefore = emulator.requests.length;
    const error = await rejection(
      vscode.commands.executeCommand(
        'observability.addConnection',
        addArgs({ keySecret: 'wrong-secret-0123456789', label: 'Wrong' }),
      ),
    );
    const failed = emulator.requests.slice(requestsBefore).find((r) => r.status === 401);
    assert.ok(failed, 'no request was refused with 401');
    assert.match(error.message, /\b401\b/);
    assert.ok(
      error.message.includes(failed.requestId),
      `the message does not name the request ID ${failed.requestId}: ${error.message}`,
    );
    assert.ok(!error.message.includes('wrong-secret-0123456789'), 'the message shows the secret');
    assert.equal(api.connections.list().length, countBefore, 'a connection was saved despite the failed check');
    assert.ok(!dumpGlobalState(api).includes('wrong-secret-0123456789'));
  });

  it('rejects invalid argument objects with the field that is wrong', async () => {
    const badOrg = await rejection(
      vscode.commands.executeCommand('observability.addConnection', addArgs({ organizationId: 'not-a-uuid' })),
    );
    assert.match(badOrg.message, /organizationId/);
    const plainHttp = await rejection(
      vscode.commands.executeCommand('observability.addConnection', addArgs({ baseUrl: 'http://api.example.com' })),
    );
    assert.match(plainHttp.message, /baseUrl/);
    const badSegment = await rejection(
      vscode.commands.executeCommand('observability.addConnection', addArgs({ pathSegment: '../x' })),
    );
    assert.match(badSegment.message, /pathSegment/);
  });

  it('reports a wrong path segment through the check', async () => {
    const error = await rejection(
      vscode.commands.executeCommand(
        'observability.addConnection',
        addArgs({ pathSegment: 'clickstack', label: 'Wrong segment' }),
      ),
    );
    assert.match(error.message, /404/);
    assert.match(error.message, /segment/i);
  });

  it('adds without the check when asked (skipCheck) and makes no request', async () => {
    const before = emulator.requests.length;
    const id = await add({ label: 'Unchecked', skipCheck: true, serviceIds: emulator.serviceIds });
    assert.equal(emulator.requests.length, before, 'a request was made despite skipCheck');
    assert.deepEqual(api.connections.get(id)?.serviceIds, emulator.serviceIds);
  });

  it('edits a connection and chooses its services with argument objects, firing onDidChange', async () => {
    const id = await add({ label: 'Before edit' });
    const events: (string | undefined)[] = [];
    const sub = api.connections.onDidChange((e) => events.push(e.connectionId));
    try {
      await vscode.commands.executeCommand('observability.editConnection', {
        connectionId: id,
        label: 'After edit',
        skipCheck: true,
      });
      assert.equal(api.connections.get(id)?.label, 'After edit');
      await vscode.commands.executeCommand('observability.selectServices', {
        connectionId: id,
        serviceIds: emulator.serviceIds,
      });
      assert.deepEqual(api.connections.get(id)?.serviceIds, emulator.serviceIds);
      assert.ok(
        events.filter((e) => e === id).length >= 2,
        `expected change events for ${id}, got ${JSON.stringify(events)}`,
      );
    } finally {
      sub.dispose();
    }
  });

  it('refuses to move a stored secret to another address unless the secret is given again', async () => {
    const id = await add({ label: 'Move' });
    const moved = await rejection(
      vscode.commands.executeCommand('observability.editConnection', {
        connectionId: id,
        baseUrl: 'https://collector.example.com',
        skipCheck: true,
      }),
    );
    assert.match(moved.message, /keySecret/);
    assert.equal(api.connections.get(id)?.baseUrl, emulator.url);

    const samePort = new URL(emulator.url);
    await vscode.commands.executeCommand('observability.editConnection', {
      connectionId: id,
      baseUrl: `${samePort.origin}/`,
      skipCheck: true,
    });
    assert.equal(api.connections.get(id)?.baseUrl, emulator.url, 'a trailing slash is normalized away');

    await vscode.commands.executeCommand('observability.editConnection', {
      connectionId: id,
      baseUrl: 'https://collector.example.com',
      keySecret: 'other-host-secret-1',
      skipCheck: true,
    });
    assert.equal(api.connections.get(id)?.baseUrl, 'https://collector.example.com');
    assert.equal(await api.connections.getSecret(id), 'other-host-secret-1');
  });

  it('Update Key Secret checks the new secret, replaces it, and the client uses it', async () => {
    const id = await add({ label: 'Secret update' });
    const wrong = 'replaced-secret-9876543210';

    const refused = await rejection(
      vscode.commands.executeCommand('observability.updateKeySecret', { connectionId: id, keySecret: wrong }),
    );
    assert.match(refused.message, /\b401\b/);
    assert.equal(await api.connections.getSecret(id), emulator.keySecret, 'a secret that failed the check was saved');

    await vscode.commands.executeCommand('observability.updateKeySecret', {
      connectionId: id,
      keySecret: wrong,
      skipCheck: true,
    });
    assert.equal(await api.connections.getSecret(id), wrong);
    const clientError = await rejection(api.connections.clientFor(id).listSources(emulator.serviceIds[0]));
    assert.match(clientError.message, /\b401\b/);
    assert.ok(!dumpGlobalState(api).includes(wrong));

    await vscode.commands.executeCommand('observability.updateKeySecret', {
      connectionId: id,
      keySecret: emulator.keySecret,
    });
    assert.equal(await api.connections.getSecret(id), emulator.keySecret);
    const sources = await api.connections.clientFor(id).listSources(emulator.serviceIds[0]);
    assert.ok(Array.isArray(sources.data));

    const log = await waitForLog(api, /Updated the key secret of connection/);
    assert.ok(!log.includes(wrong), 'the replaced secret is in the log');
  });

  it('Remove Connection takes noPrompt, the one name for running without a confirmation', async () => {
    const id = await add({ label: 'Removed without a prompt' });
    const removed = await vscode.commands.executeCommand('observability.removeConnection', {
      connectionId: id,
      noPrompt: true,
    });
    assert.equal(removed, true);
    assert.equal(api.connections.get(id), undefined);
    assert.equal(await api.connections.getSecret(id), undefined, 'the secret is still stored');
  });

  it('Remove Connection removes the connection and its secret', async () => {
    const id = await add({ label: 'To remove' });
    assert.equal(await api.connections.getSecret(id), emulator.keySecret);
    const removed = await vscode.commands.executeCommand('observability.removeConnection', {
      connectionId: id,
      skipConfirmation: true,
    });
    assert.equal(removed, true);
    assert.equal(api.connections.get(id), undefined);
    assert.ok(!dumpGlobalState(api).includes(id), 'the connection is still in global state');
    assert.equal(await api.connections.getSecret(id), undefined, 'the secret is still stored');
    const missing = await rejection(
      vscode.commands.executeCommand('observability.editConnection', {
        connectionId: id,
        label: 'Gone',
        skipCheck: true,
      }),
    );
    assert.match(missing.message, /no longer exists/);
  });
});

describe('Connection segment detection', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  const created: string[] = [];
  const started: Emulator[] = [];

  before(async () => {
    api = await activate();
    // The emulators do not limit; lift the client's own per-key limit so the suite does not wait for it.
    await configure('rateLimit.requestsPerWindow', 1000);
  });

  after(async () => {
    await configure('rateLimit.requestsPerWindow', undefined);
    for (const id of created) {
      if (api.connections.get(id)) await api.connections.remove(id);
    }
    for (const emulator of started) await emulator.close();
  });

  async function serve(segment: string): Promise<Emulator> {
    const emulator = await startEmulator({ rateLimit: false, segment });
    started.push(emulator);
    return emulator;
  }

  /** Add Connection with nothing but what has no default: address, key, organization, service. */
  const defaults = (emulator: Emulator) => ({
    baseUrl: emulator.url,
    keyId: emulator.keyId,
    keySecret: emulator.keySecret,
    organizationId: emulator.organizationId,
    serviceIds: [emulator.serviceIds[0]],
  });

  const sourcesRequests = (emulator: Emulator) => emulator.requests.filter((r) => r.path.endsWith('/sources'));

  it('adds a connection to a ClickHouse Cloud-like service with all defaults: "clickstack" answers the first request', async () => {
    const cloud = await serve('clickstack');
    const id = await vscode.commands.executeCommand<unknown>('observability.addConnection', defaults(cloud));
    assert.equal(typeof id, 'string', 'Add Connection did not return the new connection ID');
    created.push(id as string);
    const saved = api.connections.get(id as string);
    assert.ok(saved, 'the connection was not saved');
    assert.equal(saved.pathSegment, 'clickstack');
    const checks = sourcesRequests(cloud);
    assert.deepEqual(
      checks.map((r) => [r.path, r.status]),
      [[`/v1/organizations/${cloud.organizationId}/services/${cloud.serviceIds[0]}/clickstack/sources`, 200]],
    );
    // The explorer then reads from /clickstack.
    const dashboards = await api.connections.clientFor(id as string).listDashboards(cloud.serviceIds[0]);
    assert.ok(dashboards.data.length > 0);
  });

  it('detects "observability" on the second request when "clickstack" answers with an HTML 404', async () => {
    const seed = await serve('observability');
    const id = await vscode.commands.executeCommand<unknown>('observability.addConnection', {
      ...defaults(seed),
      label: 'Seed segment',
    });
    assert.equal(typeof id, 'string');
    created.push(id as string);
    assert.equal(api.connections.get(id as string)?.pathSegment, 'observability');
    const checks = sourcesRequests(seed);
    assert.deepEqual(
      checks.map((r) => [r.path.split('/').slice(-2).join('/'), r.status]),
      [
        ['clickstack/sources', 404],
        ['observability/sources', 200],
      ],
    );
  });

  it('says clearly that neither segment is served, after at most two requests, and saves nothing', async () => {
    const other = await serve('hyperdx');
    const count = api.connections.list().length;
    const error = await rejection(
      vscode.commands.executeCommand('observability.addConnection', { ...defaults(other), label: 'Neither' }),
    );
    assert.ok(other.requests.length <= 2, `${other.requests.length} requests were made`);
    assert.deepEqual(
      other.requests.map((r) => r.status),
      [404, 404],
    );
    assert.match(error.message, /neither \/clickstack nor \/observability/i);
    assert.match(error.message, /\b404\b/);
    assert.ok(!error.message.includes(other.keySecret));
    assert.equal(api.connections.list().length, count, 'a connection was saved despite the failed check');
  });

  it('keeps a segment given explicitly (one request, no detection)', async () => {
    const seed = await serve('observability');
    const id = await vscode.commands.executeCommand<unknown>('observability.addConnection', {
      ...defaults(seed),
      pathSegment: 'observability',
      label: 'Explicit',
    });
    created.push(id as string);
    assert.deepEqual(
      sourcesRequests(seed).map((r) => r.path.split('/').slice(-2).join('/')),
      ['observability/sources'],
    );
  });

  it('Choose Services, like the walk-through, keeps at least one service', async () => {
    const seed = await serve('observability');
    const id = await vscode.commands.executeCommand<unknown>('observability.addConnection', {
      ...defaults(seed),
      skipCheck: true,
      label: 'One service',
    });
    created.push(id as string);
    assert.equal(
      api.connections.get(id as string)?.pathSegment,
      'observability',
      "without a check the address's usual segment is assumed",
    );
    const error = await rejection(
      vscode.commands.executeCommand('observability.selectServices', { connectionId: id, serviceIds: [] }),
    );
    assert.match(error.message, /serviceIds/);
    assert.deepEqual(api.connections.get(id as string)?.serviceIds, [seed.serviceIds[0]], 'the services were emptied');
  });
});

/** Global state in memory. */
class MemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }
  update(key: string, value: unknown): Thenable<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    return Promise.resolve();
  }
}

/** SecretStorage in memory; `failWith` makes every call fail like a missing keyring; `external*` act as another window. */
class MemorySecrets implements vscode.SecretStorage {
  readonly values = new Map<string, string>();
  failWith: string | undefined;
  private readonly emitter = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.emitter.event;
  private check(): void {
    if (this.failWith) throw new Error(this.failWith);
  }
  async get(key: string): Promise<string | undefined> {
    this.check();
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.check();
    this.values.set(key, value);
    this.emitter.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.check();
    this.values.delete(key);
    this.emitter.fire({ key });
  }
  externalStore(key: string, value: string): void {
    this.values.set(key, value);
    this.emitter.fire({ key });
  }
}

const silentLog: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, show() {} };

describe('ConnectionManager storage', () => {
  const connection = {
    label: 'Memory',
    baseUrl: 'https://api.clickhouse.cloud',
    organizationId: '6f1c8a2e-4b7d-4e3a-9c51-2d8f0b7a9e14',
    serviceIds: ['a3c7e9f1-2b4d-4c6e-8f0a-1b3d5e7f9a2c'],
    services: [],
    keyId: 'memKey',
    pathSegment: 'clickstack',
  };

  it('explains a keyring failure and saves nothing', async () => {
    const state = new MemoryMemento();
    const secrets = new MemorySecrets();
    secrets.failWith = "An OS keyring couldn't be identified for storing the encryption related data";
    const manager = new ConnectionManager({ globalState: state, secrets, log: silentLog, userAgent: 'test' });
    try {
      const error = await rejection(manager.add(connection, 'memory-secret-123'));
      assert.equal(error.name, 'SecretStorageError');
      assert.match(error.message, /keyring/);
      if (process.platform === 'linux') assert.match(error.message, /--password-store=gnome-libsecret/);
      assert.equal(manager.list().length, 0, 'metadata was saved although the secret was not');
      assert.deepEqual(state.keys(), []);
    } finally {
      manager.dispose();
    }
  });

  it('follows secret changes made in another window and never stores the secret in global state', async () => {
    const state = new MemoryMemento();
    const secrets = new MemorySecrets();
    const manager = new ConnectionManager({ globalState: state, secrets, log: silentLog, userAgent: 'test' });
    const events: (string | undefined)[] = [];
    const sub = manager.onDidChange((e) => events.push(e.connectionId));
    try {
      const saved = await manager.add(connection, 'memory-secret-123');
      assert.equal(saved.organizationId, connection.organizationId);
      assert.deepEqual(saved.services, [{ id: connection.serviceIds[0], name: connection.serviceIds[0] }]);
      assert.ok(!JSON.stringify(state.get('observability.connections')).includes('memory-secret-123'));
      assert.equal(secrets.values.get(`observability.connection.${saved.id}.secret`), 'memory-secret-123');
      await sleep(10);
      assert.deepEqual(events, [saved.id], 'own writes are announced once');

      secrets.externalStore(`observability.connection.${saved.id}.secret`, 'changed-elsewhere-456');
      assert.deepEqual(events, [saved.id, saved.id]);
      assert.equal(await manager.getSecret(saved.id), 'changed-elsewhere-456', 'the cached secret was not dropped');
      assert.ok(manager.secretsInUse().includes('memory-secret-123'), 'the old secret is no longer scrubbed from logs');

      secrets.externalStore('observability.connection.revision', 'x');
      assert.deepEqual(events, [saved.id, saved.id, undefined]);
      secrets.externalStore('some.other.extension.key', 'x');
      assert.equal(events.length, 3, 'unrelated keys are ignored');

      await manager.remove(saved.id);
      assert.equal(secrets.values.has(`observability.connection.${saved.id}.secret`), false);
      assert.equal(manager.list().length, 0);
    } finally {
      sub.dispose();
      manager.dispose();
    }
  });

  it('rejects an invalid connection before storing anything', async () => {
    const state = new MemoryMemento();
    const secrets = new MemorySecrets();
    const manager = new ConnectionManager({ globalState: state, secrets, log: silentLog, userAgent: 'test' });
    try {
      const error = await rejection(
        manager.add({ ...connection, baseUrl: 'http://api.example.com' }, 'memory-secret-123'),
      );
      assert.match(error.message, /https/);
      assert.equal(secrets.values.size, 0);
      assert.deepEqual(state.keys(), []);
    } finally {
      manager.dispose();
    }
  });
});

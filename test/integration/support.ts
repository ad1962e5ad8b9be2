/**
 * Helpers shared by the integration suites (they run in the extension host of a real VS Code): the extension and
 * its exported API, settings, waits, rejections, documents, tree items, the log file, the sample data's
 * alertable tiles, the connection kinds the main journeys run against (`describeEachFlavor`), and a recording proxy
 * set as the user's `http.proxy` (`routeThroughProxy`). Not a test file
 * itself (index.ts loads only `*.test.js`).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { ossData } from '../emulator/oss/seed';
import { startEmulator, type Emulator } from '../emulator/server';
import type { HyperdxVersion, ServiceData } from '../emulator/types';
import { startProxy, type TestProxy, type TestProxyOptions } from '../support/proxy';

export type { ExtensionApi };

/** The extension's ID (publisher.name in package.json). */
export const EXTENSION_ID = 'obs-tools.observability-explorer';
/** The log file the extension writes in its log folder (`ExtensionApi.logUri`). */
export const LOG_FILE = 'Observability.log';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The extension as installed in the test host; fails when it is not installed. */
export function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in the test host`);
  return ext;
}

/**
 * Activates the extension and returns its API. `T` narrows the type for suites that look at the API through a view
 * of their own. Checking for `connections` reads no getter, so this does not load the features.
 */
export async function activate<T = ExtensionApi>(): Promise<T> {
  const api: unknown = await extension().activate();
  assert.ok(api && typeof api === 'object' && 'connections' in api, 'the extension does not export its connections');
  return api as T;
}

/** The API of the already activated extension. */
export function exportedApi<T = ExtensionApi>(): T {
  return extension().exports as T;
}

/** Sets (or with `undefined` removes) a user setting, `observability.*` unless another section is given. */
export async function configure(key: string, value: unknown, section = 'observability'): Promise<void> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
}

/**
 * Polls `probe` until it returns something other than `undefined` or `false`, and returns that; throws
 * `Timed out waiting for <what>` after `timeoutMs`.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** The error a promise (a command, usually) rejects with; fails with `expected` when it fulfils. */
export async function rejection(promise: Thenable<unknown>, expected = 'expected the command to fail'): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  assert.fail(expected);
}

// ── Documents and files ─────────────────────────────────────────────────────────────────────────────────────────

/** The open document with this URI; fails when it is not open. */
export function docOf(uri: string): vscode.TextDocument {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  assert.ok(doc, `document ${uri} is open`);
  return doc;
}

/** Replaces the whole text of a document, as typing would (the document becomes dirty). */
export async function replaceText(doc: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

/** Sets one top-level field of a JSON document and writes it back, pretty-printed. */
export async function setField(doc: vscode.TextDocument, field: string, value: unknown): Promise<void> {
  const body = JSON.parse(doc.getText()) as Record<string, unknown>;
  body[field] = value;
  await replaceText(doc, `${JSON.stringify(body, null, 2)}\n`);
}

/** Closes every editor; resource documents left dirty on purpose are reverted first, so no save prompt appears. */
export async function closeAll(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.uri.scheme === 'observability' && doc.isDirty) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export async function readFile(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

export async function writeFile(uri: vscode.Uri, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}

/** The file's text, or `undefined` when it cannot be read. */
export async function readIfExists(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return await readFile(uri);
  } catch {
    return undefined;
  }
}

// ── The log ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** The extension's log file. */
export const logFile = (api: { readonly logUri: vscode.Uri }): vscode.Uri => vscode.Uri.joinPath(api.logUri, LOG_FILE);

/** The text of the extension's log file; fails when it cannot be read. */
export async function logText(api: { readonly logUri: vscode.Uri }): Promise<string> {
  return readFile(logFile(api));
}

/** The text of the extension's log file, empty when it cannot be read (yet). */
export async function readLog(api: { readonly logUri: vscode.Uri }): Promise<string> {
  return (await readIfExists(logFile(api))) ?? '';
}

/** Waits until the log file holds a line matching `pattern` (the log is written asynchronously). */
export async function waitForLog(
  api: { readonly logUri: vscode.Uri },
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = await readLog(api);
    if (pattern.test(text)) return text;
    await sleep(200);
  }
  assert.fail(`the log never matched ${pattern}; it holds:\n${text.slice(-2000)}`);
}

// ── Tree items ──────────────────────────────────────────────────────────────────────────────────────────────────

export function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

/** The codicon ID of a tree item's icon, if it has a theme icon. */
export function iconOf(item: vscode.TreeItem): string | undefined {
  const icon = item.iconPath as { id?: unknown } | undefined;
  return typeof icon?.id === 'string' ? icon.id : undefined;
}

/** A tree item's tooltip as text (the Markdown source of a Markdown tooltip). */
export function tooltipText(item: vscode.TreeItem): string {
  const t = item.tooltip;
  if (typeof t === 'string') return t;
  return t?.value ?? '';
}

// ── Sample data ─────────────────────────────────────────────────────────────────────────────────────────────────

/** A tile as the emulator stores it (the fields the suites look at). */
export interface StoredTile {
  id: string;
  name: string;
  config?: { displayType?: string };
}

/** Tiles an alert can watch: line, number and stacked bar charts. */
export const isAlertableTile = (tile: { config?: { displayType?: string } }): boolean =>
  ['line', 'number', 'stacked_bar'].includes(tile.config?.displayType ?? '');

/** What a new alert on a service of the emulator needs: a dashboard with an alertable tile, the tile, a webhook. */
export interface AlertTarget {
  dashboardId: string;
  tile: StoredTile;
  tileId: string;
  webhookId: string;
}

/** The first dashboard of the service with an alertable tile, that tile, and the service's first webhook. */
export function alertTarget(emulator: Emulator, serviceId: string): AlertTarget {
  const data = emulator.state.data.get(serviceId);
  assert.ok(data, `the emulator has no service ${serviceId}`);
  for (const d of data.dashboards.values()) {
    const tile = (d.tiles as unknown as StoredTile[]).find(isAlertableTile);
    if (tile) {
      return {
        dashboardId: d.id as string,
        tile,
        tileId: tile.id,
        webhookId: [...data.webhooks.values()][0]!.id as string,
      };
    }
  }
  throw new Error('no alertable tile in the sample data');
}

// ── Connection kinds: the main journeys run once per flavor ─────────────────────────────────────────────────────

/** A tree node as the journeys read it (the tree's `Node`, structurally). */
export interface JourneyNode {
  readonly type: string;
  readonly kind?: string;
  readonly serviceId?: string;
  readonly connection?: { readonly id: string };
  readonly dashboard?: { readonly id: string; readonly tiles?: readonly { readonly id: string }[] };
  readonly tile?: { readonly id: string };
  readonly alert?: { readonly id: string };
}

interface JourneyTree {
  getChildren(node?: JourneyNode): Promise<JourneyNode[]>;
  getTreeItem(node: JourneyNode): vscode.TreeItem;
}

/** What differs between the two kinds of connection, for a journey that is otherwise the same. */
export interface Flavor {
  /** In the suite's title: `Cloud` or `self-hosted`. */
  readonly name: string;
  readonly emulatorFlavor: 'cloud' | 'oss';
  /** The folders a connection shows for its service, in order. */
  readonly folders: readonly string[];
  /** Adds a connection to the emulator's first service (the sample data a self-hosted deployment serves). */
  connect(emulator: Emulator, label: string): Promise<{ connectionId: string; serviceId: string }>;
  /** The API path of a collection (`dashboards`, `alerts`, …) of the service, as the server sees the request. */
  path(emulator: Emulator, serviceId: string, collection: string): string;
  /** The emulator's store of the service. */
  data(emulator: Emulator, serviceId: string): ServiceData;
}

export const CLOUD_FLAVOR: Flavor = {
  name: 'Cloud',
  emulatorFlavor: 'cloud',
  folders: ['Dashboards', 'Alerts', 'Webhooks', 'Saved Searches', 'Sources', 'Roles', 'Query Endpoint'],
  async connect(emulator, label) {
    const serviceId = emulator.serviceIds[0]!;
    const connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      baseUrl: emulator.url,
      keyId: emulator.keyId,
      keySecret: emulator.keySecret,
      organizationId: emulator.organizationId,
      serviceIds: [serviceId],
      label,
      skipCheck: true,
    });
    return { connectionId, serviceId };
  },
  path: (emulator, serviceId, collection) =>
    `/v1/organizations/${emulator.organizationId}/services/${serviceId}/observability/${collection}`,
  data: (emulator, serviceId) => emulator.state.data.get(serviceId)!,
};

export const SELF_HOSTED_FLAVOR: Flavor = {
  name: 'self-hosted',
  emulatorFlavor: 'oss',
  folders: ['Dashboards', 'Alerts', 'Webhooks', 'Saved Searches', 'Sources', 'Team'],
  async connect(emulator, label) {
    const connectionId = await vscode.commands.executeCommand<string>('observability.addConnection', {
      kind: 'selfHosted',
      baseUrl: emulator.url,
      apiKey: emulator.ossApiKey,
      label,
    });
    const connections = exportedApi().connections as unknown as {
      get(id: string): { serviceIds: readonly string[] } | undefined;
    };
    const serviceId = connections.get(connectionId)?.serviceIds[0];
    assert.ok(serviceId, 'a self-hosted connection has its one service');
    return { connectionId, serviceId };
  },
  path: (_emulator, _serviceId, collection) => `/api/v2/${collection}`,
  data: (emulator) => ossData(emulator.state),
};

export const FLAVORS: readonly Flavor[] = [CLOUD_FLAVOR, SELF_HOSTED_FLAVOR];

/** What a journey sees of its flavor's run; filled in by the suite's `before`. */
export interface FlavorRun {
  readonly flavor: Flavor;
  readonly emulator: Emulator;
  readonly connectionId: string;
  readonly serviceId: string;
  /** The emulator's store of the connection's service. */
  data(): ServiceData;
  /** The API path of a collection of the service. */
  path(collection: string): string;
  /** The explorer tree's provider. */
  tree(): JourneyTree;
  /** The node whose children are the service's folders: the service (Cloud) or the connection (self-hosted). */
  folderParent(): Promise<JourneyNode>;
  /** The service's folder with this label. */
  folder(label: string): Promise<JourneyNode>;
}

/** How `describeEachFlavor` runs its suites. */
export interface FlavorOptions {
  /** The connection kinds to run on; default `FLAVORS` (both). */
  readonly flavors?: readonly Flavor[];
  /**
   * The HyperDX version the self-hosted emulator answers as (EmulatorOptions.hyperdxVersion): default the newest;
   * 'older' follows the OSS OpenAPI document only (refuses `increase`, the newer filter types and inline alerts).
   */
  readonly hyperdxVersion?: HyperdxVersion;
}

/**
 * Runs the same journeys once per connection kind (`FLAVORS`): `describe('<title> (<flavor>)')` with an emulator of
 * that flavor, a connection to its first service, and the editors' settings (autosave off, short timeouts). The body
 * registers its tests with the run it is given (read it inside the tests: `before` fills it in).
 */
export function describeEachFlavor(title: string, body: (run: FlavorRun) => void, options: FlavorOptions = {}): void {
  for (const flavor of options.flavors ?? FLAVORS) {
    const older = options.hyperdxVersion === 'older' && flavor.emulatorFlavor === 'oss';
    describe(`${title} (${flavor.name}${older ? ', older HyperDX' : ''})`, function () {
      this.timeout(120_000);
      let emulator: Emulator | undefined;
      let connectionId = '';
      let serviceId = '';
      const tree = () => (exportedApi().tree as unknown as { provider: JourneyTree }).provider;
      const run: FlavorRun = {
        flavor,
        get emulator() {
          assert.ok(emulator, 'the emulator is running');
          return emulator;
        },
        get connectionId() {
          return connectionId;
        },
        get serviceId() {
          return serviceId;
        },
        data: () => flavor.data(run.emulator, serviceId),
        path: (collection) => flavor.path(run.emulator, serviceId, collection),
        tree,
        async folderParent() {
          const root = (await tree().getChildren()).find(
            (n) => n.type === 'connection' && n.connection?.id === connectionId,
          );
          assert.ok(root, 'the connection node');
          const children = await tree().getChildren(root);
          if (!children.some((n) => n.type === 'service')) return root;
          const service = children.find((n) => n.type === 'service' && n.serviceId === serviceId);
          assert.ok(service, `the service ${serviceId}`);
          return service;
        },
        async folder(label) {
          const folders = await tree().getChildren(await run.folderParent());
          const found = folders.find((f) => labelOf(tree().getTreeItem(f)) === label);
          assert.ok(found, `the ${label} folder`);
          return found;
        },
      };

      before(async () => {
        // The Cloud client's own rate limit (10 requests in 10 s by default) would only slow the journeys down.
        await configure('rateLimit.requestsPerWindow', 1000);
        await configure('rateLimit.windowSeconds', 1);
        await configure('requestTimeoutSeconds', 5);
        await configure('autoSave', 'off', 'files');
        emulator = await startEmulator({
          flavor: flavor.emulatorFlavor,
          rateLimit: false,
          ...(older ? { hyperdxVersion: 'older' as const } : {}),
        });
        await activate();
        ({ connectionId, serviceId } = await flavor.connect(emulator, `${title} (${flavor.name})`));
        assert.equal(typeof connectionId, 'string');
      });

      after(async () => {
        await closeAll();
        if (connectionId) {
          await vscode.commands.executeCommand('observability.removeConnection', { connectionId, noPrompt: true });
        }
        await configure('rateLimit.requestsPerWindow', undefined);
        await configure('rateLimit.windowSeconds', undefined);
        await configure('requestTimeoutSeconds', undefined);
        await configure('autoSave', undefined, 'files');
        await emulator?.close();
      });

      afterEach(async () => {
        emulator?.faults.clear();
        await closeAll();
      });

      body(run);
    });
  }
}

// ---- a recording proxy in the user's http settings ----

/** The `http.*` user settings the proxy suites set. */
export type HttpSetting = 'proxy' | 'proxyStrictSSL' | 'noProxy';
const HTTP_SETTINGS: readonly HttpSetting[] = ['proxy', 'proxyStrictSSL', 'noProxy'];

/**
 * Sets a user (global) `http.*` setting and waits for the change event, so the extension has dropped its
 * dispatcher before the next request.
 */
export async function setHttp(key: HttpSetting, value: unknown): Promise<void> {
  const config = vscode.workspace.getConfiguration('http');
  if (JSON.stringify(config.inspect(key)?.globalValue) === JSON.stringify(value)) return;
  const changed = new Promise<void>((resolve) => {
    const sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`http.${key}`)) {
        sub.dispose();
        resolve();
      }
    });
  });
  await config.update(key, value, vscode.ConfigurationTarget.Global);
  await changed;
}

export interface RoutedThroughProxy {
  /** The proxy every request of the extension to a host other than loopback goes through. */
  readonly proxy: TestProxy;
  /** Puts the `http.*` settings and the NO_PROXY environment back as they were, and closes the proxy. */
  restore(): Promise<void>;
}

/**
 * Starts a recording proxy on loopback (`options.resolve` maps names only it resolves) and sets it as the user's
 * `http.proxy`, with no `http.noProxy` and no NO_PROXY in the environment: neither may bypass it by accident.
 */
export async function routeThroughProxy(options: TestProxyOptions = {}): Promise<RoutedThroughProxy> {
  const proxy = await startProxy(options);
  const config = vscode.workspace.getConfiguration('http');
  const saved = new Map(HTTP_SETTINGS.map((key) => [key, config.inspect(key)?.globalValue] as const));
  const savedEnv = { NO_PROXY: process.env.NO_PROXY, no_proxy: process.env.no_proxy };
  delete process.env.NO_PROXY;
  delete process.env.no_proxy;
  await setHttp('noProxy', undefined);
  await setHttp('proxy', proxy.url);
  return {
    proxy,
    async restore() {
      for (const [key, value] of saved) await setHttp(key, value);
      for (const [name, value] of Object.entries(savedEnv)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await proxy.close();
    },
  };
}

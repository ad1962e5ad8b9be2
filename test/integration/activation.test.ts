/**
 * The extension activates offline and fast, contributes its view container, view and commands, and logs its
 * activation. No connection is configured in the test workspace, so activation has nothing to reach out to.
 * Activation evaluates only the small entry bundle; the features (dist/features.js, the one bundle behind it) load on
 * first use: when the explorer first asks for its items, one of the commands runs, or one of the extension's documents
 * is shown. These suites run first in the host, before anything used the features.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LazyFileSystemProvider, LazyTreeProvider, showsPickedFolderFile } from '../../src/lazy';
import { EXTENSION_ID, LOG_FILE, extension, readIfExists, sleep } from './support';

interface ExtensionApi {
  readonly activationMs: number;
  readonly logUri: vscode.Uri;
  /** Reading it loads the features, as the view's first question for its items does. */
  readonly tree: { readonly provider: unknown };
}

interface ContributedCommand {
  command: string;
}

interface Contributions {
  viewsContainers?: { activitybar?: { id: string }[] };
  views?: Record<string, { id: string }[]>;
  commands?: ContributedCommand[];
}

function isExtensionApi(value: unknown): value is ExtensionApi {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.activationMs === 'number' && v.logUri instanceof vscode.Uri;
}

function contributions(): Contributions {
  const pkg = extension().packageJSON as { contributes?: Contributions };
  assert.ok(pkg.contributes, 'package.json has no contributes section');
  return pkg.contributes;
}

/** Names the exports' fields without reading getters (reading `connections` or `tree` loads the features). */
function describeExports(value: unknown): string {
  if (!value || typeof value !== 'object') return String(value);
  return Object.entries(Object.getOwnPropertyDescriptors(value))
    .map(([k, d]) => {
      if (d.get) return `${k}: getter`;
      const v: unknown = d.value;
      return `${k}: ${v === null ? 'null' : typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v}`;
    })
    .join(', ');
}

async function activate(): Promise<ExtensionApi> {
  const api: unknown = await extension().activate();
  if (!isExtensionApi(api)) assert.fail(`unexpected exports: { ${describeExports(api)} }`);
  return api;
}

describe('Activation', () => {
  // How fast is the benchmark's (scripts/bench.mjs: activation in fresh hosts against its targets); a busy machine
  // would only make a timed test here flaky.
  it('activates without a connection and exports its timing and log folder', async () => {
    const api = await activate();
    assert.ok(extension().isActive, 'extension is not active');
    assert.ok(Number.isFinite(api.activationMs) && api.activationMs >= 0, `activationMs ${api.activationMs}`);
    assert.equal(api.logUri.scheme, 'file');
    assert.ok(api.logUri.path.includes(EXTENSION_ID), `log folder ${api.logUri.toString()} is not the extension's`);
  });

  it('evaluates only its small entry bundle at activation; the features are not loaded yet', async () => {
    await activate();
    const root = extension().extensionPath;
    const entry = path.join(root, 'dist', 'extension.js');
    const features = path.join(root, 'dist', 'features.js');
    assert.ok(require.cache[entry], `${entry} is not loaded`);
    assert.ok(fs.existsSync(features), `${features} was not built`);
    assert.equal(require.cache[features], undefined, 'dist/features.js was loaded at activation');
    const loaded = Object.keys(require.cache).filter((f) => f.startsWith(path.join(root, 'dist') + path.sep));
    assert.deepEqual(loaded, [entry], 'only the entry bundle of the extension is loaded');
    const kb = fs.statSync(entry).size / 1024;
    assert.ok(kb <= 100, `dist/extension.js is ${kb.toFixed(1)} KB`);
  });

  it('loads code insights for a shown file only when its folder has a pick in workspaceState', async () => {
    // What the entry reads at activation (after a window reload a source file's language starts it) and whenever the
    // visible editors change, over a workspaceState of this test's own: the features load for a file of a folder
    // with a pick, and for nothing else.
    await activate();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test host opens a workspace folder');
    const uri = vscode.Uri.joinPath(folder.uri, `activation-probe-${Date.now()}.py`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('def probe():\n    return 1\n'));
    const memento = (value: unknown): vscode.Memento => ({
      keys: () => ['observability.codeInsights.picks'],
      get: <T>(key: string) => (key === 'observability.codeInsights.picks' ? (value as T) : undefined),
      update: () => Promise.resolve(),
    });
    const pick = { connectionId: 'c', serviceId: 's', sourceId: 't', serviceName: 'S', sourceName: 'T' };
    try {
      const shown = await vscode.window.showTextDocument(uri);
      const untitled = await vscode.window.showTextDocument(
        await vscode.workspace.openTextDocument({ language: 'python', content: 'def probe(): pass\n' }),
        { viewColumn: vscode.ViewColumn.Beside },
      );
      assert.equal(showsPickedFolderFile(memento({ [folder.uri.toString()]: pick }), [shown]), true);
      assert.equal(showsPickedFolderFile(memento({ [folder.uri.toString()]: pick }), [untitled]), false);
      assert.equal(showsPickedFolderFile(memento({ 'file:///elsewhere': pick }), [shown]), false);
      assert.equal(showsPickedFolderFile(memento({}), [shown]), false);
      assert.equal(showsPickedFolderFile(memento(undefined), [shown, untitled]), false);
      assert.equal(showsPickedFolderFile(memento([pick]), [shown]), false);
      // Here no folder has a pick: showing a source file (its language starts the extension) loaded nothing.
      assert.equal(
        require.cache[path.join(extension().extensionPath, 'dist', 'features.js')],
        undefined,
        'a source file without a pick loaded the features',
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('gives an alert file shown in an editor its CodeLens and checks, with no command run', async () => {
    const api = await activate();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'obs-activation-'));
    const file = path.join(dir, 'probe.alert.json');
    // Valid against the schema, for an organization no connection has: the lens offers to add one.
    fs.writeFileSync(
      file,
      `${JSON.stringify(
        {
          organizationId: '00000000-0000-4000-8000-00000000abcd',
          serviceId: '00000000-0000-4000-8000-00000000dcba',
          name: 'Probe',
          source: 'saved_search',
          savedSearchId: '0123456789abcdef01234567',
          threshold: 1,
          thresholdType: 'above',
          interval: '5m',
          channel: { type: 'webhook', webhookId: '0123456789abcdef01234567' },
        },
        null,
        2,
      )}\n`,
    );
    const uri = vscode.Uri.file(file);
    try {
      // The alert files' checks and lenses are part of the features, which nothing has loaded yet.
      assert.equal(
        require.cache[path.join(extension().extensionPath, 'dist', 'features.js')],
        undefined,
        'the features were already loaded',
      );
      await vscode.window.showTextDocument(uri);
      const deadline = Date.now() + 15_000;
      let titles: string[] = [];
      while (Date.now() < deadline) {
        const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
        titles = (lenses ?? []).map((l) => l.command?.title ?? '');
        if (titles.some((t) => t.includes('No connection to this organization'))) break;
        await sleep(200);
      }
      assert.ok(
        titles.some((t) => t.includes('Validate')),
        `lenses: ${JSON.stringify(titles)}`,
      );
      assert.ok(
        titles.some((t) => t.includes('No connection to this organization: Add Connection')),
        `lenses: ${JSON.stringify(titles)}`,
      );
      const loadedLine = /\[info\] Loaded the features for an alert file in \d+(\.\d+)? ms/;
      let log: string | undefined;
      while (Date.now() < deadline + 5000) {
        log = await readIfExists(vscode.Uri.joinPath(api.logUri, LOG_FILE));
        if (log && loadedLine.test(log)) break;
        await sleep(200);
      }
      assert.match(log ?? '', loadedLine);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the explorer from the features, with every contributed command registered', async () => {
    const api = await activate();
    const dist = path.join(extension().extensionPath, 'dist');
    // What the view's first question for its items does (the alert file above loaded them already).
    assert.ok(api.tree.provider, 'the explorer has no provider');
    assert.ok(require.cache[path.join(dist, 'features.js')], 'the features are not loaded');
    // One bundle behind the entry: nothing else of dist/ was evaluated.
    const loaded = Object.keys(require.cache)
      .filter((f) => f.startsWith(dist + path.sep))
      .map((f) => path.relative(dist, f))
      .sort();
    assert.deepEqual(loaded, ['extension.js', 'features.js']);
    const contributed = (contributions().commands ?? []).map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      contributed.filter((id) => !registered.has(id)),
      [],
    );
  });

  it('answers the view from a tree provider that loads on its first question, once', async () => {
    // The stand-in the entry gives the explorer view at activation, over a provider of this test's own.
    const changes = new vscode.EventEmitter<string | undefined>();
    const real: vscode.TreeDataProvider<string> = {
      onDidChangeTreeData: changes.event,
      getTreeItem: (element) => new vscode.TreeItem(element),
      getChildren: (element) => (element ? [] : ['first', 'second']),
      getParent: () => undefined,
    };
    let loads = 0;
    const lazy = new LazyTreeProvider<string>(() => {
      loads++;
      lazy.attach(real);
    });
    const fired: (string | undefined | null | void | string[])[] = [];
    const subscription = lazy.onDidChangeTreeData((e) => fired.push(e));
    try {
      assert.equal(loads, 0, 'creating the stand-in loaded something');
      assert.deepEqual(await lazy.getChildren(), ['first', 'second']);
      assert.equal(((await lazy.getTreeItem('first')) as vscode.TreeItem).label, 'first');
      assert.equal(loads, 1, 'the stand-in loaded more than once');
      changes.fire('second');
      assert.deepEqual(fired, ['second']);
    } finally {
      subscription.dispose();
      lazy.dispose();
      changes.dispose();
    }
  });

  it('serves a document of its file system opened before the features loaded, by loading them', async () => {
    // The stand-in the entry registers for the `observability` scheme at activation, on a scheme of this test's own
    // (the extension's scheme has its one provider for the window's lifetime), over a file system in memory.
    const texts = new Map([['/a.json', '{"name":"first"}']]);
    const changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
    const real: vscode.FileSystemProvider = {
      onDidChangeFile: changes.event,
      watch: () => new vscode.Disposable(() => undefined),
      stat: (uri) => {
        const text = texts.get(uri.path);
        if (text === undefined) throw vscode.FileSystemError.FileNotFound(uri);
        return { type: vscode.FileType.File, ctime: 0, mtime: Date.now(), size: text.length };
      },
      readDirectory: () => [],
      createDirectory: () => undefined,
      readFile: (uri) => new TextEncoder().encode(texts.get(uri.path) ?? ''),
      writeFile: (uri, content) => {
        texts.set(uri.path, new TextDecoder().decode(content));
      },
      delete: () => undefined,
      rename: () => undefined,
    };
    let loads = 0;
    const lazy = new LazyFileSystemProvider(() => {
      loads++;
      lazy.attach(real);
    });
    const scheme = 'observability-activation-test';
    const registration = vscode.workspace.registerFileSystemProvider(scheme, lazy, { isCaseSensitive: true });
    try {
      assert.equal(loads, 0, 'registering the stand-in loaded something');
      const uri = vscode.Uri.from({ scheme, path: '/a.json' });
      const doc = await vscode.workspace.openTextDocument(uri);
      assert.equal(doc.getText(), '{"name":"first"}');
      assert.equal(loads, 1);
      // Writes reach the real file system, and its change events reach VS Code: the document shows the new text.
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('{"name":"second"}'));
      assert.equal(texts.get('/a.json'), '{"name":"second"}');
      texts.set('/a.json', '{"name":"third"}');
      changes.fire([{ type: vscode.FileChangeType.Changed, uri }]);
      const deadline = Date.now() + 10_000;
      while (doc.getText() !== '{"name":"third"}' && Date.now() < deadline) await sleep(100);
      assert.equal(doc.getText(), '{"name":"third"}');
      await assert.rejects(
        Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.from({ scheme, path: '/missing.json' }))),
        (e: unknown) => e instanceof vscode.FileSystemError && e.code === 'FileNotFound',
      );
      assert.equal(loads, 1, 'the stand-in loaded more than once');
    } finally {
      registration.dispose();
      lazy.dispose();
      changes.dispose();
    }
  });

  it('has the file system of its resource documents registered from activation on', async () => {
    await activate();
    // A resource of a connection that does not exist: the real file system answers (the stand-in handed it over).
    await assert.rejects(
      Promise.resolve(
        vscode.workspace.fs.stat(
          vscode.Uri.from({ scheme: 'observability', path: '/no-such-connection/svc/dashboards/x/X.dashboard.json' }),
        ),
      ),
      (e: unknown) => {
        // Not VS Code's "no file system provider" (ENOPRO): the extension's own file system refused it.
        assert.ok(e instanceof Error, String(e));
        assert.doesNotMatch(e.message, /ENOPRO|no file system provider/i);
        return true;
      },
    );
  });

  it('contributes the Observability view container and its view', () => {
    const c = contributions();
    const containers = c.viewsContainers?.activitybar ?? [];
    assert.ok(
      containers.some((v) => v.id === 'observability'),
      'no activity bar container "observability"',
    );
    const views = c.views?.observability ?? [];
    assert.ok(
      views.some((v) => v.id === 'observability.explorer'),
      'no view "observability.explorer"',
    );
  });

  it('registers every contributed command', async () => {
    await activate();
    const contributed = (contributions().commands ?? []).map((c) => c.command);
    assert.ok(contributed.length > 0, 'no commands contributed');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('opens the Observability view', async () => {
    await activate();
    await vscode.commands.executeCommand('workbench.view.extension.observability');
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.ok(registered.has('observability.explorer.focus'), 'the view has no focus command');
    await vscode.commands.executeCommand('observability.explorer.focus');
  });

  it('logs its activation time to Observability.log in its log folder', async () => {
    const api = await activate();
    const file = vscode.Uri.joinPath(api.logUri, LOG_FILE);
    const deadline = Date.now() + 15_000;
    let text: string | undefined;
    while (Date.now() < deadline) {
      text = await readIfExists(file);
      if (text && /Activated .* in \d+(\.\d+)? ms/.test(text)) break;
      await sleep(200);
    }
    assert.ok(text !== undefined, `${file.fsPath} was not written`);
    assert.match(text, /\[info\] Activated .* in \d+(\.\d+)? ms/);
  });
});

import { join } from 'node:path';
import * as vscode from 'vscode';
import { loadBundle, type LoadedBundle } from './bundleCache';
import type { ConnectionManager } from './connections/manager';
import type { Documents } from './documents';
import type { Features, FeatureShell, TreeApi } from './features';
import {
  CONTEXT_HAS_CONNECTIONS,
  hasSavedConnections,
  isWorkspaceAlertFile,
  LazyFileSystemProvider,
  LazyTreeProvider,
  ownTabUris,
  PlaceholderCommands,
  PREVIEW_VIEW_TYPES,
  RESOURCE_SCHEME,
  STATUS_FIRST_REFRESH_MS,
  VIEW_ID,
} from './lazy';
import { createLogger } from './log';
import type { PreviewApi } from './preview';
import type { QueryApi } from './query';
import type { Node } from './tree/nodes';

/** What the extension returns from `activate`, used by its own tests and by automation. */
export interface ExtensionApi {
  /** Milliseconds spent in `activate`. */
  readonly activationMs: number;
  /** Folder that holds the extension's log file (`Observability.log`). */
  readonly logUri: vscode.Uri;
  /** The saved connections and their API clients (reading it loads the features). */
  readonly connections: ConnectionManager;
  /** The explorer tree: provider, view, status item (reading it loads the features). */
  readonly tree: TreeApi;
  /** Running SQL on services: document targets, query hosts, the results panel (reading it loads the editor features). */
  readonly query: QueryApi;
  /** Tile previews and alert backtests: what the panels' serializers call after a reload (reading it loads the editor features). */
  readonly preview: PreviewApi;
}

/** How long after a bundle loads its code cache is written (its first use has run by then). */
const CODE_CACHE_SAVE_DELAY_MS = 10_000;

/** Where the bundles' code caches live: the extension's global storage, when it is on this machine's disk. */
function codeCacheDir(context: vscode.ExtensionContext): string | undefined {
  const storage = context.globalStorageUri;
  return storage.scheme === 'file' ? join(storage.fsPath, 'code-cache') : undefined;
}

/**
 * How long after the features load the editor features load too, in the background: by the time the user opens a
 * resource, an alert file or a preview from the view they are there, and the explorer's first use does not wait for
 * them. (Opening one of the extension's documents from the editor history needs them loaded, too.)
 */
const EDITOR_FEATURES_WARM_UP_MS = 5_000;

/** Commands the entry handles itself; every other contributed command loads the part that handles it first. */
const OWN_COMMANDS = new Set(['observability.showLog']);

/**
 * The thin entry: registers the view, the commands and the triggers that load the rest on first use, and nothing
 * else. The rest is two bundles: the features (dist/features.js: connections, API clients, schemas, the tree and the
 * status item), loaded when the view first asks for its items or anything else needs them, and the editor features
 * (dist/documents.js: resource documents, alert files, SQL, previews) built on them, loaded when one of their commands
 * runs or one of their documents or panels is shown. Nothing here talks to the network or builds a schema: activation
 * must stay fast and work offline.
 */
export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = performance.now();
  // Every log line is scrubbed of the secrets the connection manager knows (once it is loaded).
  let knownSecrets: () => readonly string[] = () => [];
  const log = createLogger(context, () => knownSecrets());

  let features: Features | undefined;
  let featuresModule: typeof import('./features') | undefined;
  let documents: Documents | undefined;
  const contributed =
    (context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands
      ?.map((c) => c.command)
      .filter((id) => !OWN_COMMANDS.has(id)) ?? [];
  let placeholders = new PlaceholderCommands(contributed, () => load('a command'));
  const treeProvider = new LazyTreeProvider<Node>(() => load('the explorer view'));
  const resourceFileSystem = new LazyFileSystemProvider(() => loadDocuments('a resource document'));
  const view = vscode.window.createTreeView<Node>(VIEW_ID, { treeDataProvider: treeProvider, showCollapseAll: true });
  /** What loads the features (the status item's first refresh), and what loads the editor features (documents shown). */
  const triggers: vscode.Disposable[] = [];
  const documentTriggers: vscode.Disposable[] = [];

  /** Evaluates one of the bundles beside this one, with its code cache; a failure is logged and thrown. */
  function loadPart(name: string, reason: string, provided?: Record<string, unknown>): LoadedBundle {
    try {
      return loadBundle(join(__dirname, `${name}.js`), codeCacheDir(context), provided);
    } catch (error) {
      // The stand-ins stay, so the next use tries again and shows the error again.
      log.error(
        `Loading the ${name} for ${reason} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      throw error;
    }
  }

  /** Once the first use has compiled what it needs, that code goes into the bundle's cache too. */
  function saveCacheLater(bundle: LoadedBundle): void {
    const save = setTimeout(() => bundle.saveCache(), CODE_CACHE_SAVE_DELAY_MS);
    save.unref?.();
    context.subscriptions.push({ dispose: () => clearTimeout(save) });
  }

  /** Loads and wires the features once; synchronous, so callers can use them right away. */
  function load(reason: string): Features {
    if (features) return features;
    const t = performance.now();
    const shell: FeatureShell = {
      log,
      view,
      attachTree: (provider) => treeProvider.attach(provider),
      setKnownSecrets: (secrets) => {
        knownSecrets = secrets;
      },
    };
    // dist/features.js, compiled with the V8 code cache kept in the global storage (see src/bundleCache.ts).
    const bundle = loadPart('features', reason);
    const module = bundle.exports as typeof import('./features');
    for (const d of triggers.splice(0)) d.dispose();
    // The real commands take the place of the stand-ins; the editor features' commands get new ones.
    placeholders.dispose();
    features = module.activateFeatures(context, shell);
    featuresModule = module;
    placeholders = new PlaceholderCommands(contributed, () => loadDocuments('a command'));
    log.info(
      `Loaded the features for ${reason} in ${(performance.now() - t).toFixed(1)} ms (code cache: ${bundle.cache})`,
    );
    saveCacheLater(bundle);
    const warmUp = setTimeout(() => {
      try {
        loadDocuments('the explorer (in the background)');
      } catch {
        // Logged; their commands keep their stand-ins, which try again.
      }
    }, EDITOR_FEATURES_WARM_UP_MS);
    warmUp.unref?.();
    context.subscriptions.push({ dispose: () => clearTimeout(warmUp) });
    return features;
  }

  /** Loads and wires the editor features once (the features first); synchronous, like `load`. */
  function loadDocuments(reason: string): Documents {
    if (documents) return documents;
    const { services } = load(reason);
    const t = performance.now();
    // dist/documents.js reaches the modules the features bundle holds through it, not copies of its own.
    const bundle = loadPart('documents', reason, { './features.js': featuresModule });
    const module = bundle.exports as typeof import('./documents');
    for (const d of documentTriggers.splice(0)) d.dispose();
    placeholders.dispose();
    documents = module.activateDocuments(context, services, {
      attachFileSystem: (fs) => resourceFileSystem.attach(fs),
    });
    log.info(
      `Loaded the editor features for ${reason} in ${(performance.now() - t).toFixed(1)} ms (code cache: ${bundle.cache})`,
    );
    saveCacheLater(bundle);
    return documents;
  }

  void vscode.commands.executeCommand('setContext', CONTEXT_HAS_CONNECTIONS, hasSavedConnections(context.globalState));
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.showLog', () => log.show()),
    { dispose: () => placeholders.dispose() },
    treeProvider,
    view,
    resourceFileSystem,
    vscode.workspace.registerFileSystemProvider(RESOURCE_SCHEME, resourceFileSystem, { isCaseSensitive: true }),
    {
      dispose: () => {
        for (const d of [...triggers.splice(0), ...documentTriggers.splice(0)]) d.dispose();
      },
    },
  );

  // Alert files get their checks, completion and CodeLens as soon as one is shown in an editor.
  const showsAlertFile = (editors: readonly vscode.TextEditor[]) =>
    editors.some((e) => isWorkspaceAlertFile(e.document.uri));
  documentTriggers.push(
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      if (showsAlertFile(editors)) loadDocuments('an alert file');
    }),
  );
  if (showsAlertFile(vscode.window.visibleTextEditors)) setTimeout(() => loadDocuments('an alert file'), 0);
  // SQL documents get their Run on <service> lenses as soon as one is shown, once a connection exists.
  const showsSql = (editors: readonly vscode.TextEditor[]) =>
    hasSavedConnections(context.globalState) && editors.some((e) => e.document.languageId === 'sql');
  documentTriggers.push(
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      if (showsSql(editors)) loadDocuments('a SQL document');
    }),
  );
  if (showsSql(vscode.window.visibleTextEditors)) setTimeout(() => loadDocuments('a SQL document'), 0);
  // Preview and backtest panels open before a window reload come back: their serializers load the features, which
  // fetch and draw what each panel showed (kept in the webview's state) again.
  for (const mode of ['preview', 'backtest'] as const) {
    context.subscriptions.push(
      vscode.window.registerWebviewPanelSerializer(PREVIEW_VIEW_TYPES[mode], {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          await loadDocuments(`a restored ${mode} panel`).preview.restore(mode, panel, state);
        },
      }),
    );
  }
  // Editors of the extension's own documents restored from the last session need their providers now.
  if (ownTabUris().length > 0) loadDocuments('a restored editor');
  // The firing-alerts status item refreshes in the background for saved connections, as it did before loading.
  const ownSettings = vscode.workspace.getConfiguration('observability');
  const refreshStatus = () => {
    const config = vscode.workspace.getConfiguration('observability');
    const enabled =
      config.get<boolean>('statusBar.enabled', true) ||
      config.inspect<boolean>('alerts.notifications.enabled')?.globalValue === true;
    if (features || !enabled || !hasSavedConnections(context.globalState)) return;
    const unfocusedToo =
      config.inspect<boolean>('alerts.notifications.enabled')?.globalValue === true &&
      config.inspect<boolean>('alerts.notifications.whileUnfocused')?.globalValue === true;
    if (vscode.window.state.focused || unfocusedToo) {
      void load('the status bar').tree.status.tick();
    } else {
      triggers.push(
        vscode.window.onDidChangeWindowState((state) => {
          if (state.focused) refreshStatus();
        }),
      );
    }
  };
  // The first background refresh: after the user's alert refresh interval, at most STATUS_FIRST_REFRESH_MS.
  const intervalSeconds = ownSettings.inspect<number>('alerts.refreshIntervalSeconds')?.globalValue;
  const firstRefreshMs =
    typeof intervalSeconds === 'number' && Number.isFinite(intervalSeconds)
      ? Math.min(STATUS_FIRST_REFRESH_MS, Math.max(15, intervalSeconds) * 1000)
      : STATUS_FIRST_REFRESH_MS;
  const statusTimer = setTimeout(refreshStatus, firstRefreshMs);
  statusTimer.unref?.();
  triggers.push({ dispose: () => clearTimeout(statusTimer) });
  if (context.extensionMode === vscode.ExtensionMode.Development && process.env.OBS_DEMO_CONNECTION) {
    setTimeout(() => load('the demo connection'), 0);
  }

  const activationMs = performance.now() - started;
  log.info(
    `Activated ${EXTENSION_NAME} ${EXTENSION_VERSION} in ${activationMs.toFixed(1)} ms (${vscode.env.appName} ${vscode.version}, ${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'} UI)`,
  );
  return {
    activationMs,
    logUri: context.logUri,
    get connections() {
      return load('the extension API').connections;
    },
    get tree() {
      return load('the extension API').tree;
    },
    get query() {
      return loadDocuments('the extension API').query;
    },
    get preview() {
      return loadDocuments('the extension API').preview;
    },
  };
}

export function deactivate(): void {
  // Disposables registered on the context are cleaned up by VS Code.
}

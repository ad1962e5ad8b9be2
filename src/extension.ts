import * as vscode from 'vscode';
import { enableCompileCache } from './compileCache';
import type { ConnectionManager } from './connections/manager';
import type { Features, FeatureShell, TreeApi } from './features';
import {
  CONTEXT_HAS_CONNECTIONS,
  hasSavedConnections,
  isWorkspaceAlertFile,
  LazyFileSystemProvider,
  showsPickedFolderFile,
  LazyTreeProvider,
  ownTabUris,
  PlaceholderCommands,
  PREVIEW_VIEW_TYPES,
  RESOURCE_SCHEME,
  STATUS_FIRST_REFRESH_MS,
  VIEW_ID,
} from './lazy';
import { createLogger } from './log';
import type { AgentApi } from './agent';
import type { CodeInsightsApi } from './codeInsights';
import { CONNECTIONS_STATE_KEY, SEARCH_VIEW_TYPE, TRACE_VIEW_TYPE } from './constants';
import { contributedToolNames, registerToolStandIns } from './lazyTools';
import { MCP_PROVIDER_ID, McpDefinitions, storedConnections } from './mcpServers';
import type { PreviewApi } from './preview';
import type { QueryApi } from './query';
import type { TracesApi } from './traces';
import type { SearchApi } from './search';
import type { Node } from './tree/nodes';

// The features bundle reads these modules from this one, evaluated already, instead of carrying copies of its own
// (esbuild.mjs, SHARED_WITH_ENTRY).
export * from './api/redact';
export * from './loopback';
export * from './plainHttpGrant';

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
  /** Running SQL on services: document targets, query hosts, the results panel (reading it loads the features). */
  readonly query: QueryApi;
  /** Tile previews and alert backtests: what the panels' serializers call after a reload (reading it loads the features). */
  readonly preview: PreviewApi;
  /** Trace panels: what their serializer calls after a reload (reading it loads the features). */
  readonly traces: TracesApi;
  /** Search panels: what their serializer calls after a reload (reading it loads the features). */
  readonly search: SearchApi;
  /** The language-model tools (reading it loads the features). */
  readonly agent: AgentApi;
  /** The MCP server definitions offered to the editor's agent. */
  readonly mcp: McpDefinitions;
  /** Code insights: the statements sent, the lens provider's recent calls (reading it loads the features). */
  readonly codeInsights: CodeInsightsApi;
}

/** Commands the entry handles itself; every other contributed command loads the part that handles it first. */
const OWN_COMMANDS = new Set(['observability.showLog']);

/**
 * The thin entry: registers the view, the commands and the triggers that load the rest on first use, and nothing
 * else. The rest is the features bundle (dist/features.js, wired by src/features.ts: connections, API clients,
 * schemas, the tree, the status item, resource documents, alert files, SQL, previews), loaded when the view first asks
 * for its items, one of the commands runs, or one of the extension's documents or panels is shown. Nothing here talks
 * to the network or builds a schema: activation must stay fast and work offline.
 */
export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = performance.now();
  // Every log line is scrubbed of the secrets the connection manager knows (once it is loaded).
  let knownSecrets: () => readonly string[] = () => [];
  const log = createLogger(context, () => knownSecrets());

  let features: Features | undefined;
  const contributed =
    (context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands
      ?.map((c) => c.command)
      .filter((id) => !OWN_COMMANDS.has(id)) ?? [];
  const placeholders = new PlaceholderCommands(contributed, () => load('a command'));
  const treeProvider = new LazyTreeProvider<Node>(() => load('the explorer view'));
  const resourceFileSystem = new LazyFileSystemProvider(() => load('a resource document'));
  const view = vscode.window.createTreeView<Node>(VIEW_ID, { treeDataProvider: treeProvider, showCollapseAll: true });
  /** What loads the features until they are loaded: shown documents, the status item's first refresh. */
  const triggers: vscode.Disposable[] = [];

  /** Loads and wires the features once; synchronous, so callers can use them right away. */
  function load(reason: string): Features {
    if (features) return features;
    const t = performance.now();
    const shell: FeatureShell = {
      log,
      view,
      attachTree: (provider) => treeProvider.attach(provider),
      attachFileSystem: (fs) => resourceFileSystem.attach(fs),
      setKnownSecrets: (secrets) => {
        knownSecrets = secrets;
      },
    };
    const storage = context.globalStorageUri;
    const compileCache = enableCompileCache(
      storage.scheme === 'file' ? vscode.Uri.joinPath(storage, 'compile-cache').fsPath : undefined,
    );
    let module: typeof import('./features');
    try {
      // dist/features.js, beside this bundle (esbuild.mjs keeps this require external).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      module = require('./features') as typeof import('./features');
    } catch (error) {
      // The stand-ins stay, so the next use tries again and shows the error again.
      log.error(
        `Loading the features for ${reason} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      throw error;
    }
    for (const d of triggers.splice(0)) d.dispose();
    // The real commands take the place of the stand-ins.
    placeholders.dispose();
    features = module.activateFeatures(context, shell);
    context.subscriptions.push(features.connections.onDidChange(() => mcp.refresh()));
    log.info(
      `Loaded the features for ${reason} in ${(performance.now() - t).toFixed(1)} ms (compile cache: ${compileCache})`,
    );
    return features;
  }

  // Tools for the editor's agent: stand-ins now, the tools themselves with the features on their first call.
  context.subscriptions.push(
    registerToolStandIns(contributedToolNames(context.extension.packageJSON), () => load('an agent tool').agent),
  );
  // MCP servers of the self-hosted connections, read from the saved connections; the key only when one starts.
  const mcp = new McpDefinitions({
    list: () => storedConnections(context.globalState.get(CONNECTIONS_STATE_KEY)),
    secret: (id) => load('an MCP server').connections.getSecret(id),
    enabled: () => vscode.workspace.getConfiguration('observability').get<boolean>('agent.enabled', true),
  });
  context.subscriptions.push(
    mcp,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('observability.agent.enabled')) mcp.refresh();
    }),
  );

  void vscode.commands.executeCommand('setContext', CONTEXT_HAS_CONNECTIONS, hasSavedConnections(context.globalState));
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.showLog', () => log.show()),
    { dispose: () => placeholders.dispose() },
    treeProvider,
    view,
    resourceFileSystem,
    vscode.workspace.registerFileSystemProvider(RESOURCE_SCHEME, resourceFileSystem, { isCaseSensitive: true }),
    { dispose: () => triggers.splice(0).forEach((d) => d.dispose()) },
  );

  // Alert files get their checks, completion and CodeLens as soon as one is shown in an editor.
  const showsAlertFile = (editors: readonly vscode.TextEditor[]) =>
    editors.some((e) => isWorkspaceAlertFile(e.document.uri));
  triggers.push(
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      if (showsAlertFile(editors)) load('an alert file');
    }),
  );
  if (showsAlertFile(vscode.window.visibleTextEditors)) setTimeout(() => load('an alert file'), 0);
  // SQL documents get their Run on <service> lenses as soon as one is shown, once a connection exists.
  const showsSql = (editors: readonly vscode.TextEditor[]) =>
    hasSavedConnections(context.globalState) && editors.some((e) => e.document.languageId === 'sql');
  triggers.push(
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      if (showsSql(editors)) load('a SQL document');
    }),
  );
  if (showsSql(vscode.window.visibleTextEditors)) setTimeout(() => load('a SQL document'), 0);
  // Source files of a workspace folder with a code insights pick get their lenses as soon as one is shown.
  const showsPicked = (editors: readonly vscode.TextEditor[]) => showsPickedFolderFile(context.workspaceState, editors);
  triggers.push(
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      if (showsPicked(editors)) load('code insights');
    }),
  );
  if (showsPicked(vscode.window.visibleTextEditors)) setTimeout(() => load('code insights'), 0);
  // Preview and backtest panels open before a window reload come back: their serializers load the features, which
  // fetch and draw what each panel showed (kept in the webview's state) again.
  for (const mode of ['preview', 'backtest'] as const) {
    context.subscriptions.push(
      vscode.window.registerWebviewPanelSerializer(PREVIEW_VIEW_TYPES[mode], {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          await load(`a restored ${mode} panel`).preview.restore(mode, panel, state);
        },
      }),
    );
  }
  // Trace and search panels come back the same way: the trace or the search they showed is read again.
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(TRACE_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        await load('a restored trace panel').traces.restore(panel, state);
      },
    }),
    vscode.window.registerWebviewPanelSerializer(SEARCH_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        await load('a restored search panel').search.restore(panel, state);
      },
    }),
  );
  // Editors of the extension's own documents restored from the last session need their providers now.
  if (ownTabUris().length > 0) load('a restored editor');
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
      return load('the extension API').query;
    },
    get preview() {
      return load('the extension API').preview;
    },
    get agent() {
      return load('the extension API').agent;
    },
    get traces() {
      return load('the extension API').traces;
    },
    get search() {
      return load('the extension API').search;
    },
    get codeInsights() {
      return load('the extension API').codeInsights;
    },
    mcp,
  };
}

export function deactivate(): void {
  // Disposables registered on the context are cleaned up by VS Code.
}

/**
 * Every feature, wired together: saved connections and their API clients, the resource cache and live data, the tree
 * and the firing-alerts status item, and what opens in the editor area (resource documents, alert files, SQL through
 * the query endpoint, tile previews and alert backtests). Built as its own bundle (dist/features.js) that the thin entry
 * (src/extension.ts) loads on first use, so activating the extension evaluates none of it.
 */
import * as vscode from 'vscode';
import { registerConnectionCommands, registerTestConnection } from './connectionSetup/commands';
import { ConnectionManager } from './connections/manager';
import type { Logger } from './log';
import { ResourceCache } from './resources/cache';
import { DriftMarks } from './resources/driftMarks';
import { LiveData } from './resources/live';
import { registerAgent, type AgentApi } from './agent';
import { registerAlertFiles } from './alertFiles';
import { registerEditors } from './resourceDocuments';
import { WritePipeline } from './writes/pipeline';
import { registerServiceFolders } from './serviceFolders';
import { registerPreview, type PreviewApi } from './preview';
import { registerQuery, type QueryApi } from './query';
import { registerSearch, type SearchApi } from './search';
import { registerTree, type TreeHandle } from './tree';
import type { Node } from './tree/nodes';
import { registerStatus, type FiringStatus } from './status';
import { registerCodeInsights, type CodeInsightsApi } from './codeInsights';
import { registerTraces, type TracesApi } from './traces';

/**
 * What the entry gives the features: its log, the explorer view it created, and the stand-ins it registered at
 * activation for the view's provider and the resource documents' file system, which the real ones take over.
 */
export interface FeatureShell {
  readonly log: Logger;
  readonly view: vscode.TreeView<Node>;
  attachTree(provider: vscode.TreeDataProvider<Node>): void;
  attachFileSystem(fs: vscode.FileSystemProvider): void;
  /** Where the log finds the secrets to scrub from now on. */
  setKnownSecrets(secrets: () => readonly string[]): void;
}

/** The explorer as the extension API shows it: the tree and the firing-alerts status item. */
export interface TreeApi extends TreeHandle {
  readonly status: FiringStatus;
}

export interface Features {
  readonly connections: ConnectionManager;
  readonly tree: TreeApi;
  /** Running SQL on services: document targets, query hosts, the results panel. */
  readonly query: QueryApi;
  /** Tile previews and alert backtests: panels restored after a window reload. */
  readonly preview: PreviewApi;
  /** The tools for the editor's agent (the entry's stand-ins hand their calls here). */
  readonly agent: AgentApi;
  /** Trace panels restored after a window reload. */
  readonly traces: TracesApi;
  /** Search panels restored after a window reload. */
  readonly search: SearchApi;
  /** Code insights: the statements sent, the lens provider's recent calls. */
  readonly codeInsights: CodeInsightsApi;
}

/**
 * The one place that wires: service layers (connections, resources) are built once here and passed to each feature
 * folder, which registers its own views, providers and commands. Feature folders never import one another.
 */
export function activateFeatures(context: vscode.ExtensionContext, shell: FeatureShell): Features {
  const { log } = shell;
  const connections = new ConnectionManager({
    globalState: context.globalState,
    secrets: context.secrets,
    log,
    userAgent: `${EXTENSION_NAME}/${EXTENSION_VERSION} vscode/${vscode.version}`,
  });
  shell.setKnownSecrets(() => connections.secretsInUse());
  context.subscriptions.push(connections, registerConnectionCommands({ connections, log }));

  // Resources: one cache of what the services hold (tree, status item, checks, completion) and one set of live data.
  const cache = new ResourceCache(connections, (line) => log.warn(line));
  const live = new LiveData(connections, cache);
  context.subscriptions.push(
    cache,
    connections.onDidChange((e) => live.forget(e.connectionId)),
  );

  // The service folders' drift, marked on the tree's items too: published by the one, read by the other.
  const driftMarks = new DriftMarks();
  context.subscriptions.push(driftMarks);
  const tree = registerTree(context, { connections, cache, log, driftMarks }, (provider) => {
    shell.attachTree(provider);
    return shell.view;
  });
  const refresh = tree.provider;
  const status = registerStatus(context, {
    connections,
    cache,
    reveal: (firing) => tree.revealAlert(firing.connectionId, firing.serviceId, firing.alert.id),
  });

  // What opens in the editor area.
  const attachFileSystem = (fs: vscode.FileSystemProvider) => shell.attachFileSystem(fs);
  const writes = new WritePipeline({ clientFor: (id) => connections.clientFor(id), tree: refresh, log });
  registerEditors(context, { connections, live, refresh, log, writes, attachFileSystem });
  const alertFiles = registerAlertFiles(context, { connections, live, refresh, log, writes });
  const serviceFolders = registerServiceFolders(context, {
    connections,
    refresh,
    log,
    refreshedAll: tree.provider.onDidRefreshAll,
    driftMarks,
  });
  const query = registerQuery(context, { connections, refresh, log });
  context.subscriptions.push(
    registerTestConnection({ connections, log, runSql: (connectionId, opts) => query.run(connectionId, opts) }),
  );
  const preview = registerPreview(context, {
    connections,
    live,
    log,
    runSql: (connectionId, opts) => query.run(connectionId, opts),
    background: query.background,
    showRows: (shown) => query.panel.show({ ...shown, maxRows: 1000, maxBytes: 64 * 1024 * 1024 }),
  });
  const traces = registerTraces(context, {
    connections,
    log,
    runSql: (connectionId, opts) => query.run(connectionId, opts),
  });
  const search = registerSearch(context, {
    connections,
    log,
    runSql: (connectionId, opts) => query.run(connectionId, opts),
    pickService: () => query.targets.pick(),
    serviceName: (target) => query.targets.serviceName(target),
  });
  const agent = registerAgent(context, {
    connections,
    live,
    log,
    runSql: (connectionId, opts) => query.run(connectionId, opts),
    tileData: (scope, tile, range) => preview.tileData(scope, tile, range),
    backtest: (scope, alertId, range) => preview.backtestSummary(scope, alertId, range),
    planAlertFiles: (token) => alertFiles.plan({}, token),
    planServiceFolders: () => serviceFolders.planWorkspace(),
    applyAlertPlan: () => alertFiles.applyPlan({ confirm: true }),
  });
  // Production figures at the code: SQL through the query feature's client (the key's one rate budget).
  const codeInsights = registerCodeInsights(context, {
    connections,
    log,
    runSql: (connectionId, opts) => query.run(connectionId, opts),
  });
  return { connections, tree: { ...tree, status }, query, preview, agent, traces, search, codeInsights };
}

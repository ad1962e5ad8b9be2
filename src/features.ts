/**
 * The explorer, wired together: saved connections and their API clients, the resource cache and live data, the tree
 * and the firing-alerts status item. Built as its own bundle (dist/features.js) that the thin entry (src/extension.ts)
 * loads on first use, so activating the extension evaluates none of it. What opens in the editor area (resource
 * documents, alert files, SQL, previews) is the documents bundle (src/documents.ts), loaded on top of this one when
 * first needed, so opening the view does not evaluate it either.
 */
import * as vscode from 'vscode';
import { registerConnectionCommands } from './connections/commands';
import { ConnectionManager } from './connections/manager';
import { addDemoConnection } from './demo';
import type { Logger } from './log';
import { ResourceCache } from './resources/cache';
import { LiveData } from './resources/live';
import type { ResourceRefresher } from './resources/model';
import { registerTree, type TreeHandle } from './tree';
import type { Node } from './tree/nodes';
import { registerStatus, type FiringStatus } from './status';

/** What the entry gives the features: its log, the explorer view it created and that view's stand-in provider. */
export interface FeatureShell {
  readonly log: Logger;
  readonly view: vscode.TreeView<Node>;
  attachTree(provider: vscode.TreeDataProvider<Node>): void;
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
  /** What the documents bundle is built on: the service layers built here, passed to each of its feature folders. */
  readonly services: SharedServices;
}

/** The service layers the documents' feature folders use, built once here. */
export interface SharedServices {
  readonly connections: ConnectionManager;
  readonly live: LiveData;
  /** The explorer, refreshed after a write. */
  readonly refresh: ResourceRefresher;
  readonly log: Logger;
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

  const tree = registerTree(context, { connections, cache, log }, (provider) => {
    shell.attachTree(provider);
    return shell.view;
  });
  const refresh = tree.provider;
  const status = registerStatus(context, {
    connections,
    cache,
    reveal: (firing) => tree.revealAlert(firing.connectionId, firing.serviceId, firing.alert.id),
  });
  addDemoConnection(context, connections, log);
  return { connections, tree: { ...tree, status }, services: { connections, live, refresh, log } };
}

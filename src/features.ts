/**
 * Everything behind the extension's views and commands, wired together: saved connections and their API clients, the
 * explorer tree, the resource editors and the workspace alert files. Built as its own bundle (dist/features.js) that the
 * thin entry (src/extension.ts) loads on first use, so activating the extension evaluates none of it.
 */
import * as vscode from 'vscode';
import { registerConnectionCommands } from './commands/connections';
import { ConnectionManager } from './connections/manager';
import { addDemoConnection } from './demo';
import type { Logger } from './log';
import { registerTree, type TreeHandle } from './tree';
import type { Node } from './tree/nodes';
import { registerEditors } from './editors';
import { registerAlertFiles } from './alertFiles';
import { registerQuery, type QueryApi } from './query';

/** What the entry gives the features: its log, the explorer view it created and that view's stand-in provider. */
export interface FeatureShell {
  readonly log: Logger;
  readonly view: vscode.TreeView<Node>;
  attachTree(provider: vscode.TreeDataProvider<Node>): void;
  /** Where the log finds the secrets to scrub from now on. */
  setKnownSecrets(secrets: () => readonly string[]): void;
}

export interface Features {
  readonly connections: ConnectionManager;
  readonly tree: TreeHandle;
  readonly query: QueryApi;
}

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
  const tree = registerTree(context, { connections, log }, (provider) => {
    shell.attachTree(provider);
    return shell.view;
  });
  registerEditors(context, { connections, tree, log });
  registerAlertFiles(context, { connections, tree, log });
  const query = registerQuery(context, { connections, tree, log });
  addDemoConnection(context, connections, log);
  return { connections, tree, query };
}

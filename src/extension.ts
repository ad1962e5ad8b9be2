import * as vscode from 'vscode';
import { registerConnectionCommands } from './commands/connections';
import { ConnectionManager } from './connections/manager';
import { addDemoConnection } from './demo';
import { createLogger } from './log';
import { registerTree, type TreeHandle } from './tree';
import { registerEditors } from './editors';
import { registerAlertFiles } from './alertFiles';
import { registerQuery, type QueryApi } from './query';

/** What the extension returns from `activate`, used by its own tests and by automation. */
export interface ExtensionApi {
  /** Milliseconds spent in `activate`. */
  readonly activationMs: number;
  /** Folder that holds the extension's log file (`Observability.log`). */
  readonly logUri: vscode.Uri;
  /** The saved connections and their API clients. */
  readonly connections: ConnectionManager;
  /** The explorer tree: provider, view, status item. */
  readonly tree: TreeHandle;
  /** Running SQL on services: document targets, query hosts, the results panel. */
  readonly query: QueryApi;
}

/**
 * Wires the extension together. Nothing here talks to the network: activation
 * must stay fast and work offline; data is fetched when a view asks for it.
 */
export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const started = performance.now();
  // Every log line is scrubbed of the secrets the connection manager knows.
  let knownSecrets: () => readonly string[] = () => [];
  const log = createLogger(context, () => knownSecrets());
  const connections = new ConnectionManager({
    globalState: context.globalState,
    secrets: context.secrets,
    log,
    userAgent: `${EXTENSION_NAME}/${EXTENSION_VERSION} vscode/${vscode.version}`,
  });
  knownSecrets = () => connections.secretsInUse();

  context.subscriptions.push(
    connections,
    vscode.commands.registerCommand('observability.showLog', () => log.show()),
    registerConnectionCommands({ connections, log }),
  );
  const tree = registerTree(context, { connections, log });
  registerEditors(context, { connections, tree, log });
  registerAlertFiles(context, { connections, tree, log });
  const query = registerQuery(context, { connections, tree, log });
  addDemoConnection(context, connections, log);

  const activationMs = performance.now() - started;
  log.info(`Activated ${EXTENSION_NAME} ${EXTENSION_VERSION} in ${activationMs.toFixed(1)} ms (${vscode.env.appName} ${vscode.version}, ${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'} UI)`);
  return { activationMs, logUri: context.logUri, connections, tree, query };
}

export function deactivate(): void {
  // Disposables registered on the context are cleaned up by VS Code.
}

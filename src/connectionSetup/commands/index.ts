import * as vscode from 'vscode';
import { CONTEXT_HAS_CONNECTIONS } from '../../constants';
import { registerAddConnection } from './addConnection';
import { registerClickHouseAccessCommands } from './clickHouseAccess';
import type { ConnectionCommandDeps } from './common';
import { registerEditConnection } from './editConnection';
import { registerPlainHttpCommands } from './plainHttp';
import { registerRemoveConnection } from './removeConnection';
import { registerSelectServices } from './selectServices';
import { registerUpdateKeySecret } from './updateKeySecret';

export { COMMAND_IDS, connectionIdOf, type ConnectionCommandDeps } from './common';
export type { AddConnectionArgs } from './addConnection';
export { registerTestConnection, type TestConnectionDeps, type TestReport } from './testConnection';

/**
 * Commands that add, edit and remove connections, replace a key secret and choose the services shown.
 *
 * Every command works three ways: from the Command Palette (it asks which connection), from a tree item (the item's
 * node carries `connectionId`), and from automation with an argument object (no prompts; errors reject the returned
 * promise).
 */

/** Registers the connection commands and keeps the `observability.hasConnections` context key current. */
export function registerConnectionCommands(deps: ConnectionCommandDeps): vscode.Disposable {
  const updateContext = () => {
    void vscode.commands.executeCommand('setContext', CONTEXT_HAS_CONNECTIONS, deps.connections.list().length > 0);
  };
  updateContext();
  return vscode.Disposable.from(
    deps.connections.onDidChange(updateContext),
    registerAddConnection(deps),
    registerEditConnection(deps),
    registerUpdateKeySecret(deps),
    registerRemoveConnection(deps),
    registerSelectServices(deps),
    registerPlainHttpCommands(deps),
    registerClickHouseAccessCommands(deps),
  );
}

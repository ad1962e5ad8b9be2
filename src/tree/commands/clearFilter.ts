import * as vscode from 'vscode';
import { ResourceCommandDeps } from './common';

/** `observability.clearFilter`. */
export function registerClearFilter(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree } = deps;
  context.subscriptions.push(vscode.commands.registerCommand('observability.clearFilter', () => tree.setFilter('')));
}

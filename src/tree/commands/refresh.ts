import * as vscode from 'vscode';
import { ResourceCommandDeps } from './common';

/** `observability.refresh`. */
export function registerRefresh(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree } = deps;
  context.subscriptions.push(vscode.commands.registerCommand('observability.refresh', () => tree.refresh()));
}

import * as vscode from 'vscode';
import { ResourceCommandDeps, isNode } from './common';

/** `observability.retry`. */
export function registerRetry(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.retry', (arg) => {
      if (isNode(arg)) tree.refresh(arg);
      else tree.refresh();
    }),
  );
}

import * as vscode from 'vscode';
import { ResourceCommandDeps, isArgs, isNode } from './common';

/** `observability.refreshNode`. */
export function registerRefreshNode(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.refreshNode', (arg) => {
      if (isNode(arg)) tree.refresh(arg);
      else if (isArgs(arg)) {
        tree.refreshKinds(arg.connectionId, arg.serviceId, [
          'dashboards',
          'alerts',
          'webhooks',
          'sources',
          'queryEndpoint',
        ]);
      } else tree.refresh();
    }),
  );
}

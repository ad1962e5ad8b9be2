import * as vscode from 'vscode';
import type { ResourceCommandDeps } from './common';
import { webAppUrl, type WebAppTarget } from '../webAppUrl';
import { isExplorerNode } from '../../commandArgs';
import type { Node } from '../nodes';

interface OpenInWebAppArgs {
  readonly connectionId?: string;
  readonly dashboardId?: string;
  readonly alertId?: string;
  readonly savedSearchId?: string;
}

function targetOf(arg: unknown): { connectionId: string; target: WebAppTarget } | undefined {
  if (isExplorerNode(arg)) {
    const node = arg as Node;
    if (node.type === 'dashboard') {
      return { connectionId: node.connectionId, target: { kind: 'dashboard', id: node.dashboard.id } };
    }
    if (node.type === 'alert') return { connectionId: node.connectionId, target: { kind: 'alert', id: node.alert.id } };
    if (node.type === 'item' && node.kind === 'savedSearch') {
      return { connectionId: node.connectionId, target: { kind: 'savedSearch', id: node.item.id } };
    }
    return undefined;
  }
  if (!arg || typeof arg !== 'object') return undefined;
  const a = arg as OpenInWebAppArgs;
  if (typeof a.connectionId !== 'string') return undefined;
  const kinds: [keyof OpenInWebAppArgs, WebAppTarget['kind']][] = [
    ['dashboardId', 'dashboard'],
    ['alertId', 'alert'],
    ['savedSearchId', 'savedSearch'],
  ];
  for (const [key, kind] of kinds) {
    const id = a[key];
    if (typeof id === 'string' && id) return { connectionId: a.connectionId, target: { kind, id } };
  }
  return undefined;
}

/**
 * `observability.openInWebApp`: opens a dashboard, the alerts page or a saved search in the web app of a self-hosted
 * deployment, in the browser. Argument: a tree item or `{ connectionId, dashboardId | alertId | savedSearchId }`.
 * Returns the address opened (undefined when there is none: Cloud connections are not offered).
 */
export function registerOpenInWebApp(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.openInWebApp', async (arg: unknown) => {
      const found = targetOf(arg);
      const connection = found ? deps.connections.get(found.connectionId) : undefined;
      const url = found && connection?.kind === 'selfHosted' ? webAppUrl(connection.baseUrl, found.target) : undefined;
      if (!url) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Open in Web App: the web app address is known for self-hosted deployments only.'),
        );
        return undefined;
      }
      await vscode.env.openExternal(vscode.Uri.parse(url, true));
      return url;
    }),
  );
}

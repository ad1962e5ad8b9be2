import * as vscode from 'vscode';
import { registerResourceCommands, VIEW_ID } from '../commands/resources';
import { FiringStatus } from '../status/firingStatus';
import { ResourceCache } from './cache';
import type { ConnectionSource } from './model';
import type { Node } from './nodes';
import { FILTER_CONTEXT_KEY, ObservabilityTreeProvider } from './provider';
import { READONLY_SCHEME, ReadonlyJsonProvider } from './readonlyDocuments';

export { ObservabilityTreeProvider } from './provider';

export interface TreeDeps {
  readonly connections: ConnectionSource;
  readonly log: { info(m: string): void; warn(m: string): void; error(m: string | Error): void; debug(m: string): void };
}

/** What `registerTree` returns; exposed to tests as `tree` on the extension API. */
export interface TreeHandle {
  readonly provider: ObservabilityTreeProvider;
  readonly view: vscode.TreeView<Node>;
  readonly status: FiringStatus;
  /** Reveals (and selects) an alert of a service in the Alerts folder, loading the list if needed. */
  revealAlert(connectionId: string, serviceId: string, alertId: string): Promise<boolean>;
}

/** Creates the explorer's view for a provider; the extension's entry passes one that reuses the view it created. */
export type TreeViewFactory = (provider: ObservabilityTreeProvider) => vscode.TreeView<Node>;

/** Registers the explorer tree, its item commands, the read-only JSON view and the firing-alerts status item. */
export function registerTree(context: vscode.ExtensionContext, deps: TreeDeps,
  createView: TreeViewFactory = (treeDataProvider) => vscode.window.createTreeView<Node>(VIEW_ID, { treeDataProvider, showCollapseAll: true })): TreeHandle {
  const cache = new ResourceCache(deps.connections, (line) => deps.log.warn(line));
  const provider = new ObservabilityTreeProvider(deps.connections, cache);
  const view = createView(provider);
  const json = new ReadonlyJsonProvider(cache);
  const status = new FiringStatus(deps.connections, cache);
  void vscode.commands.executeCommand('setContext', FILTER_CONTEXT_KEY, false);

  const updateViewDescription = () => {
    view.description = provider.filter ? vscode.l10n.t('Filter: "{0}"', provider.filter) : undefined;
  };
  context.subscriptions.push(
    cache, provider, view, json, status,
    vscode.workspace.registerTextDocumentContentProvider(READONLY_SCHEME, json),
    provider.onDidChangeTreeData(() => updateViewDescription()),
  );
  registerResourceCommands(context, { connections: deps.connections, tree: provider, json, log: deps.log });

  const revealAlert = async (connectionId: string, serviceId: string, alertId: string): Promise<boolean> => {
    const folder = provider.folder(connectionId, serviceId, 'alerts');
    if (!folder) return false;
    const children = await provider.getChildren(folder);
    const node = children.find((n) => n.type === 'alert' && n.alert.id === alertId);
    if (!node) return false;
    await view.reveal(node, { select: true, focus: true, expand: false });
    return true;
  };
  context.subscriptions.push(vscode.commands.registerCommand('observability.showFiringAlerts', async () => {
    const first = status.firing[0];
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    if (first) await revealAlert(first.connectionId, first.serviceId, first.alert.id);
  }));

  return { provider, view, status, revealAlert };
}

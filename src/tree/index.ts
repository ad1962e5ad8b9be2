import * as vscode from 'vscode';
import { registerCommands as registerResourceCommands } from './commands';
import { VIEW_ID } from '../constants';
import type { ResourceCache } from '../resources/cache';
import type { DriftMarks } from '../resources/driftMarks';
import type { ConnectionSource } from '../resources/model';
import type { Node } from './nodes';
import { FILTER_CONTEXT_KEY, ObservabilityTreeProvider } from './provider';
import { READONLY_SCHEME, ReadonlyJsonProvider } from './readonlyDocuments';
import type { Logger } from '../log';

export { ObservabilityTreeProvider } from './provider';

export interface TreeDeps {
  readonly connections: ConnectionSource;
  /** The resource cache the tree draws from (shared with the editors and the status item). */
  readonly cache: ResourceCache;
  readonly log: Logger;
  /** The service folders' drift marks, whose words the tree's tooltips end with. */
  readonly driftMarks?: DriftMarks;
}

/** What `registerTree` returns; exposed to tests as `tree` on the extension API. */
export interface TreeHandle {
  readonly provider: ObservabilityTreeProvider;
  readonly view: vscode.TreeView<Node>;
  /** Reveals (and selects) an alert of a service in the Alerts folder, loading the list if needed. */
  revealAlert(connectionId: string, serviceId: string, alertId: string): Promise<boolean>;
}

/** Creates the explorer's view for a provider; the extension's entry passes one that reuses the view it created. */
export type TreeViewFactory = (provider: ObservabilityTreeProvider) => vscode.TreeView<Node>;

/** Registers the explorer tree, its item commands and the read-only JSON view. */
export function registerTree(
  context: vscode.ExtensionContext,
  deps: TreeDeps,
  createView: TreeViewFactory = (treeDataProvider) =>
    vscode.window.createTreeView<Node>(VIEW_ID, { treeDataProvider, showCollapseAll: true }),
): TreeHandle {
  const { cache } = deps;
  const provider = new ObservabilityTreeProvider(deps.connections, cache, deps.driftMarks);
  const view = createView(provider);
  const json = new ReadonlyJsonProvider(cache);
  void vscode.commands.executeCommand('setContext', FILTER_CONTEXT_KEY, false);

  const updateViewDescription = () => {
    view.description = provider.filter ? vscode.l10n.t('Filter: "{0}"', provider.filter) : undefined;
  };
  context.subscriptions.push(
    provider,
    view,
    json,
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
  return { provider, view, revealAlert };
}

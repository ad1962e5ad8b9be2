import * as vscode from 'vscode';
import { sanitizeServerText } from '../api';
import { alertLabel, nameOf } from '../tree/format';
import { asRequestFailure, type ConnectionSource } from '../tree/model';
import type { Node } from '../tree/nodes';
import type { ObservabilityTreeProvider } from '../tree/provider';
import { ReadonlyJsonProvider, type JsonItemKind, type JsonItemRef } from '../tree/readonlyDocuments';

/**
 * Commands on tree items: refresh, retry, filter, copy ID, open as JSON, delete dashboard / alert.
 *
 * Item commands take the tree node VS Code passes, or an argument object for automation:
 * `{ connectionId, serviceId, dashboardId | alertId | sourceId | queryEndpoint: true }`. A confirmation can be skipped
 * only from such an object (`skipConfirmation: true`), never from the tree.
 */

export const VIEW_ID = 'observability.explorer';

export interface ResourceArgs {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly dashboardId?: string;
  readonly alertId?: string;
  readonly sourceId?: string;
  readonly queryEndpoint?: boolean;
  readonly skipConfirmation?: boolean;
}

export interface DeleteResult {
  readonly deleted: boolean;
  /** Names of the alerts the service deleted with a dashboard. */
  readonly alsoDeleted?: readonly string[];
  readonly error?: string;
}

export interface ResourceCommandDeps {
  readonly connections: ConnectionSource;
  readonly tree: ObservabilityTreeProvider;
  readonly json: ReadonlyJsonProvider;
  readonly log: { info(m: string): void; warn(m: string): void; error(m: string | Error): void };
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { treeItem?: unknown }).treeItem === 'function'
    && typeof (value as { type?: unknown }).type === 'string';
}

function isArgs(value: unknown): value is ResourceArgs {
  return typeof value === 'object' && value !== null && !isNode(value)
    && typeof (value as ResourceArgs).connectionId === 'string' && typeof (value as ResourceArgs).serviceId === 'string';
}

/** What an item command acts on, from a node or an argument object. */
interface Target {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly kind: JsonItemKind;
  readonly id?: string;
  readonly name: string;
  readonly fromArgs: boolean;
  readonly skipConfirmation: boolean;
}

function targetOf(arg: unknown, tree: ObservabilityTreeProvider): Target | undefined {
  if (isNode(arg)) {
    switch (arg.type) {
      case 'dashboard': return { ...scope(arg), kind: 'dashboard', id: arg.dashboard.id, name: arg.label, fromArgs: false, skipConfirmation: false };
      case 'alert': return { ...scope(arg), kind: 'alert', id: arg.alert.id, name: arg.label, fromArgs: false, skipConfirmation: false };
      case 'source': return { ...scope(arg), kind: 'source', id: arg.source.id, name: arg.label, fromArgs: false, skipConfirmation: false };
      case 'folder':
        if (arg.kind === 'queryEndpoint') {
          return { ...scope(arg), kind: 'queryEndpoint', name: `${arg.parent.name} query endpoint`, fromArgs: false, skipConfirmation: false };
        }
        return undefined;
      case 'info':
        // A property line of a configured query endpoint.
        if (arg.parent.type === 'folder' && arg.parent.kind === 'queryEndpoint' && /\bqueryEndpointProperty\b/.test(arg.contextValue)) {
          return targetOf(arg.parent, tree);
        }
        return undefined;
      default: return undefined;
    }
  }
  if (!isArgs(arg)) return undefined;
  const { connectionId, serviceId } = arg;
  const skipConfirmation = arg.skipConfirmation === true;
  const cache = tree.cache;
  if (arg.dashboardId) {
    const d = cache.peek(connectionId, serviceId, 'dashboards')?.find((x) => x.id === arg.dashboardId);
    return { connectionId, serviceId, kind: 'dashboard', id: arg.dashboardId, name: d ? nameOf(d) : arg.dashboardId, fromArgs: true, skipConfirmation };
  }
  if (arg.alertId) {
    const a = cache.peek(connectionId, serviceId, 'alerts')?.find((x) => x.id === arg.alertId);
    return { connectionId, serviceId, kind: 'alert', id: arg.alertId, name: a ? alertLabel(a) : arg.alertId, fromArgs: true, skipConfirmation };
  }
  if (arg.sourceId) {
    const s = cache.peek(connectionId, serviceId, 'sources')?.find((x) => x.id === arg.sourceId);
    return { connectionId, serviceId, kind: 'source', id: arg.sourceId, name: s ? nameOf(s) : arg.sourceId, fromArgs: true, skipConfirmation };
  }
  if (arg.queryEndpoint) {
    return { connectionId, serviceId, kind: 'queryEndpoint', name: 'query endpoint', fromArgs: true, skipConfirmation };
  }
  return undefined;
}

function scope(node: { connectionId: string; serviceId: string }): { connectionId: string; serviceId: string } {
  return { connectionId: node.connectionId, serviceId: node.serviceId };
}

/** The value "Copy ID" puts on the clipboard for a node. */
function copyValueOf(arg: unknown): { value: string; what: string } | undefined {
  if (isNode(arg)) {
    switch (arg.type) {
      case 'connection': return { value: arg.copyValue, what: vscode.l10n.t('organization ID') };
      case 'service': return { value: arg.copyValue, what: vscode.l10n.t('service ID') };
      case 'dashboard': return { value: arg.copyValue, what: vscode.l10n.t('dashboard ID') };
      case 'tile': return { value: arg.copyValue, what: vscode.l10n.t('tile ID') };
      case 'alert': return { value: arg.copyValue, what: vscode.l10n.t('alert ID') };
      case 'source': return { value: arg.copyValue, what: vscode.l10n.t('source ID') };
      default: return undefined;
    }
  }
  if (isArgs(arg)) {
    const id = arg.dashboardId ?? arg.alertId ?? arg.sourceId ?? arg.serviceId;
    return { value: id, what: vscode.l10n.t('ID') };
  }
  return undefined;
}

export function registerResourceCommands(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree, json, log, connections } = deps;
  const cache = tree.cache;

  const refreshKindsAfterDelete = (connectionId: string, serviceId: string) =>
    tree.refreshKinds(connectionId, serviceId, ['dashboards', 'alerts', 'webhooks']);

  const runDelete = async (target: Target, label: string, detail: string, call: () => Promise<unknown>,
    alsoDeleted?: readonly string[]): Promise<DeleteResult> => {
    if (!target.skipConfirmation || !target.fromArgs) {
      const confirm = vscode.l10n.t('Delete');
      const answer = await vscode.window.showWarningMessage(sanitizeServerText(label, 1000), { modal: true, detail }, confirm);
      if (answer !== confirm) return { deleted: false };
    }
    try {
      await vscode.window.withProgress({ location: { viewId: VIEW_ID }, title: label }, call);
    } catch (error) {
      const failure = asRequestFailure(error);
      log.error(failure.message);
      void vscode.window.showErrorMessage(failure.message);
      return { deleted: false, error: failure.message };
    }
    log.info(`Deleted ${target.kind} ${target.id ?? ''} of service ${target.serviceId}`);
    refreshKindsAfterDelete(target.connectionId, target.serviceId);
    return { deleted: true, alsoDeleted };
  };

  const register = (id: string, fn: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  register('observability.refresh', () => tree.refresh());

  register('observability.refreshNode', (arg) => {
    if (isNode(arg)) tree.refresh(arg);
    else if (isArgs(arg)) tree.refreshKinds(arg.connectionId, arg.serviceId, ['dashboards', 'alerts', 'webhooks', 'sources', 'queryEndpoint']);
    else tree.refresh();
  });

  register('observability.retry', (arg) => {
    if (isNode(arg)) tree.refresh(arg);
    else tree.refresh();
  });

  register('observability.filter', async (arg) => {
    let text: string | undefined = typeof arg === 'string' ? arg : undefined;
    if (text === undefined) {
      text = await vscode.window.showInputBox({
        title: vscode.l10n.t('Filter the Observability Explorer'),
        prompt: vscode.l10n.t('Show dashboards, alerts and sources whose name contains this text. Leave empty to show everything.'),
        value: tree.filter,
        placeHolder: vscode.l10n.t('part of a name'),
      });
      if (text === undefined) return;
    }
    tree.setFilter(text);
  });

  register('observability.clearFilter', () => tree.setFilter(''));

  register('observability.copyId', async (arg) => {
    const copy = copyValueOf(arg);
    if (!copy) return;
    await vscode.env.clipboard.writeText(copy.value);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0} {1}', copy.what, copy.value), 2500);
  });

  register('observability.openJson', async (arg): Promise<vscode.Uri | undefined> => {
    const target = targetOf(arg, tree);
    if (!target) return undefined;
    const ref: JsonItemRef = { connectionId: target.connectionId, serviceId: target.serviceId, kind: target.kind, id: target.id };
    if (json.lookup(ref) === undefined) {
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} is not loaded. Expand its folder first.', sanitizeServerText(target.name)));
      return undefined;
    }
    const uri = ReadonlyJsonProvider.uriFor(ref, target.name);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
    return uri;
  });

  register('observability.deleteDashboard', async (arg): Promise<DeleteResult> => {
    const target = targetOf(arg, tree);
    if (!target || target.kind !== 'dashboard' || !target.id) return { deleted: false };
    const dashboardId = target.id;
    // The service deletes a dashboard's alerts with it: say which, by name.
    await cache.ensure(target.connectionId, target.serviceId, 'alerts');
    const doomed = cache.alertsForDashboard(target.connectionId, target.serviceId, dashboardId).map(alertLabel);
    const alertsKnown = cache.peek(target.connectionId, target.serviceId, 'alerts') !== undefined;
    const shown = doomed.slice(0, 15).map((n) => `• ${n}`).join('\n');
    const more = doomed.length > 15 ? `\n${vscode.l10n.t('… and {0} more', doomed.length - 15)}` : '';
    const detail = !alertsKnown
      ? vscode.l10n.t('The service also deletes the alerts on its tiles (the alert list could not be loaded). This cannot be undone.')
      : doomed.length > 0
        ? `${vscode.l10n.t('The service also deletes the {0} alerts on its tiles:', doomed.length)}\n${shown}${more}\n\n${vscode.l10n.t('This cannot be undone.')}`
        : vscode.l10n.t('No alerts watch its tiles. This cannot be undone.');
    const client = connections.clientFor(target.connectionId);
    return runDelete(target, vscode.l10n.t('Delete dashboard "{0}"?', target.name), detail,
      () => client.deleteDashboard(target.serviceId, dashboardId), doomed);
  });

  register('observability.deleteAlert', async (arg): Promise<DeleteResult> => {
    const target = targetOf(arg, tree);
    if (!target || target.kind !== 'alert' || !target.id) return { deleted: false };
    const alertId = target.id;
    const client = connections.clientFor(target.connectionId);
    return runDelete(target, vscode.l10n.t('Delete alert "{0}"?', target.name),
      vscode.l10n.t('The alert stops watching its tile or search and sends no more notifications. This cannot be undone.'),
      () => client.deleteAlert(target.serviceId, alertId));
  });
}

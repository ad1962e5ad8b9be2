import * as vscode from 'vscode';
import { sanitizeServerText } from '../api';
import type { ConnectionManager } from '../connections/manager';
import type { ResourceApplier, ApplyOptions, ApplyResult } from '../editors/apply';
import type { DashboardInfo, NamedInfo, TileInfo } from '../editors/checks';
import { dashboardTemplate, toText } from '../editors/documents';
import type { ResourceFileSystem } from '../editors/fileSystem';
import type { LiveData } from '../editors/live';
import { parseUri, RESOURCE_SCHEME, uriFor, type ResourceRef } from '../editors/uris';
import { isAlertableDisplayType } from '../schema';
import type { ObservabilityTreeProvider } from '../tree/provider';

/**
 * Commands of the resource editors: Create Alert, Edit (alert or dashboard), Create Dashboard, Upsert / Delete Query
 * Endpoint, and Apply.
 *
 * Each takes the tree node VS Code passes, or an argument object (automation, tests). Confirmations can be given only
 * through such an object (`confirm: true`, see `ApplyOptions`), never from the tree or a keybinding.
 */

export interface EditorCommandDeps {
  readonly connections: ConnectionManager;
  readonly tree: ObservabilityTreeProvider;
  readonly fs: ResourceFileSystem;
  readonly live: LiveData;
  readonly applier: ResourceApplier;
  readonly log: { info(m: string): void; warn(m: string): void; error(m: string | Error): void };
}

export interface CreateAlertArgs {
  readonly connectionId?: string;
  readonly serviceId?: string;
  readonly dashboardId?: string;
  readonly tileId?: string;
  readonly webhookId?: string;
  readonly threshold?: number;
  readonly name?: string;
  readonly message?: string;
}

export interface ResourceCommandArgs {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly alertId?: string;
  readonly dashboardId?: string;
  readonly name?: string;
  /** Delete Query Endpoint: skip the modal confirmation. */
  readonly confirm?: boolean;
}

export interface ApplyArgs extends ApplyOptions {
  /** The document to apply (default: the active editor's). */
  readonly uri?: string | vscode.Uri;
}

/** The parts of tree nodes these commands read (structural, so the tree's classes stay its own). */
interface NodeLike {
  readonly type: string;
  readonly connectionId?: string;
  readonly serviceId?: string;
  readonly kind?: string;
  readonly dashboard?: { readonly id: string; readonly name?: string | null };
  readonly tile?: { readonly id: string; readonly name?: string | null };
  readonly alert?: { readonly id: string; readonly name?: string | null };
  readonly parent?: NodeLike;
  readonly connection?: { readonly id: string };
}

function isNodeLike(value: unknown): value is NodeLike {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
    && typeof (value as { treeItem?: unknown }).treeItem === 'function';
}

function asObject<T>(value: unknown): Partial<T> {
  return typeof value === 'object' && value !== null && !isNodeLike(value) && !(value instanceof vscode.Uri) ? value as Partial<T> : {};
}

let draftCounter = 0;

export function registerEditorCommands(context: vscode.ExtensionContext, deps: EditorCommandDeps): void {
  const { connections, live, fs, applier, tree } = deps;

  const register = (id: string, fn: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  const open = async (uri: vscode.Uri): Promise<vscode.TextEditor> => {
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    return vscode.window.showTextDocument(doc, { preview: false });
  };

  // ---- connection and service ----

  const pickConnection = async (connectionId: string | undefined): Promise<string | undefined> => {
    if (connectionId) return connections.get(connectionId) ? connectionId : undefined;
    const all = connections.list();
    if (all.length === 0) {
      const add = vscode.l10n.t('Add Connection');
      if (await vscode.window.showInformationMessage(vscode.l10n.t('Add a connection first.'), add) === add) {
        await vscode.commands.executeCommand('observability.addConnection');
      }
      return undefined;
    }
    if (all.length === 1) return all[0]?.id;
    const picked = await vscode.window.showQuickPick(all.map((c) => ({ label: c.label, description: c.organizationName, id: c.id })),
      { title: vscode.l10n.t('Connection'), placeHolder: vscode.l10n.t('Pick a connection') });
    return picked?.id;
  };

  const pickService = async (connectionId: string, serviceId: string | undefined): Promise<string | undefined> => {
    if (serviceId) return serviceId;
    const connection = connections.get(connectionId);
    const ids = connection?.serviceIds ?? [];
    if (ids.length === 1) return ids[0];
    if (ids.length === 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The connection shows no services. Edit it to pick some.'));
      return undefined;
    }
    const names = new Map(connection?.services.map((s) => [s.id, s.name]) ?? []);
    const picked = await vscode.window.showQuickPick(ids.map((id) => ({ label: names.get(id) ?? id, description: id, id })),
      { title: vscode.l10n.t('Service'), placeHolder: vscode.l10n.t('Pick a service') });
    return picked?.id;
  };

  /** Connection and service of a node, an argument object, or picked. */
  const scopeOf = async (arg: unknown): Promise<{ connectionId: string; serviceId: string } | undefined> => {
    let connectionId: string | undefined;
    let serviceId: string | undefined;
    if (isNodeLike(arg)) {
      connectionId = arg.connectionId ?? arg.connection?.id;
      serviceId = arg.serviceId;
    } else {
      const o = asObject<ResourceCommandArgs>(arg);
      connectionId = typeof o.connectionId === 'string' ? o.connectionId : undefined;
      serviceId = typeof o.serviceId === 'string' ? o.serviceId : undefined;
    }
    const c = await pickConnection(connectionId);
    if (!c) return undefined;
    const s = await pickService(c, serviceId);
    return s ? { connectionId: c, serviceId: s } : undefined;
  };

  // ---- Create Alert ----

  register('observability.createAlert', async (arg): Promise<string | undefined> => {
    const args = asObject<CreateAlertArgs>(arg);
    let dashboardId = args.dashboardId;
    let tileId = args.tileId;
    let tileName: string | undefined;
    if (isNodeLike(arg)) {
      if (arg.type === 'tile' && arg.tile && arg.parent?.dashboard) {
        tileId = arg.tile.id;
        tileName = arg.tile.name ?? undefined;
        dashboardId = arg.parent.dashboard.id;
      } else if (arg.type === 'dashboard' && arg.dashboard) {
        dashboardId = arg.dashboard.id;
      }
    }
    const scope = await scopeOf(arg);
    if (!scope) return undefined;
    const { connectionId, serviceId } = scope;

    let dashboards: readonly DashboardInfo[] | undefined;
    if (!dashboardId || !tileId || !tileName) dashboards = await live.dashboards(connectionId, serviceId);
    if (!dashboardId) {
      if (!dashboards) {
        void vscode.window.showErrorMessage(vscode.l10n.t('The dashboards of the service could not be loaded. Check the explorer for the error.'));
        return undefined;
      }
      const withTiles = dashboards.filter((d) => (d.tiles ?? []).some((t) => isAlertableDisplayType(t.config?.displayType)));
      if (withTiles.length === 0) {
        void vscode.window.showWarningMessage(vscode.l10n.t('No dashboard of this service has a line, stacked bar or number tile to alert on.'));
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(withTiles.map((d) => ({
        label: d.name || d.id, description: d.id, id: d.id,
        detail: vscode.l10n.t('{0} tiles that can carry an alert', (d.tiles ?? []).filter((t) => isAlertableDisplayType(t.config?.displayType)).length),
      })), { title: vscode.l10n.t('Create Alert: dashboard'), placeHolder: vscode.l10n.t('Which dashboard holds the tile to watch?'), matchOnDescription: true });
      if (!picked) return undefined;
      dashboardId = picked.id;
    }
    const dashboard = dashboards?.find((d) => d.id === dashboardId);
    if (!tileId) {
      const tiles: readonly TileInfo[] = (dashboard?.tiles ?? []).filter((t) => isAlertableDisplayType(t.config?.displayType));
      if (tiles.length === 0) {
        void vscode.window.showWarningMessage(vscode.l10n.t('This dashboard has no line, stacked bar or number tile to alert on.'));
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(tiles.map((t) => ({ label: t.name || t.id, description: t.config?.displayType ?? '', detail: t.id, id: t.id })),
        { title: vscode.l10n.t('Create Alert: tile'), placeHolder: vscode.l10n.t('Which tile should the alert watch?') });
      if (!picked) return undefined;
      tileId = picked.id;
    }
    tileName ??= dashboard?.tiles?.find((t) => t.id === tileId)?.name ?? undefined;

    let webhookId = args.webhookId;
    if (webhookId === undefined) {
      const webhooks: readonly NamedInfo[] = await live.webhooks(connectionId, serviceId) ?? [];
      if (webhooks.length > 0) {
        const picked = await vscode.window.showQuickPick(webhooks.map((w) => ({
          label: w.name || w.id, description: (w as { service?: string }).service, detail: w.id, id: w.id,
        })), { title: vscode.l10n.t('Create Alert: notify'), placeHolder: vscode.l10n.t('Which webhook should the alert notify?') });
        if (!picked) return undefined;
        webhookId = picked.id;
      } else {
        webhookId = '';
        void vscode.window.showWarningMessage(vscode.l10n.t('The service has no webhooks yet: fill in "webhookId" once one exists.'));
      }
    }

    const subject = tileName || vscode.l10n.t('Tile');
    const body = {
      name: args.name ?? vscode.l10n.t('{0} above threshold', subject),
      source: 'tile',
      dashboardId,
      tileId,
      threshold: args.threshold ?? 0,
      thresholdType: 'above',
      interval: '1h',
      channel: { type: 'webhook', webhookId },
      message: args.message ?? vscode.l10n.t('{0} is {{value}}, above {{threshold}}.', subject),
    };
    const ref: ResourceRef = { connectionId, serviceId, kind: 'alert', draftKey: `new-${++draftCounter}` };
    fs.set(ref, { text: toText(body), base: undefined, exists: false });
    const uri = uriFor(ref, body.name);
    const editor = await open(uri);
    // Put the cursor on the threshold: the value most likely to change.
    const line = editor.document.getText().split('\n').findIndex((l) => l.includes('"threshold"'));
    if (line >= 0) {
      const col = editor.document.lineAt(line).text.indexOf(':') + 2;
      editor.selection = new vscode.Selection(line, col, line, editor.document.lineAt(line).text.replace(/,$/, '').length);
    }
    return uri.toString();
  });

  // ---- Edit alert / dashboard ----

  register('observability.editResource', async (arg): Promise<string | undefined> => {
    let ref: ResourceRef | undefined;
    let name: string | undefined;
    if (isNodeLike(arg) && arg.connectionId && arg.serviceId) {
      if (arg.type === 'alert' && arg.alert) {
        ref = { connectionId: arg.connectionId, serviceId: arg.serviceId, kind: 'alert', id: arg.alert.id };
        name = arg.alert.name ?? undefined;
      } else if (arg.type === 'dashboard' && arg.dashboard) {
        ref = { connectionId: arg.connectionId, serviceId: arg.serviceId, kind: 'dashboard', id: arg.dashboard.id };
        name = arg.dashboard.name ?? undefined;
      }
    } else {
      const o = asObject<ResourceCommandArgs>(arg);
      if (o.connectionId && o.serviceId && (o.alertId || o.dashboardId)) {
        ref = o.alertId
          ? { connectionId: o.connectionId, serviceId: o.serviceId, kind: 'alert', id: o.alertId }
          : { connectionId: o.connectionId, serviceId: o.serviceId, kind: 'dashboard', id: o.dashboardId as string };
        name = o.name;
      }
    }
    if (!ref) return undefined;
    if (!name) {
      const cached = ref.kind === 'alert'
        ? (await live.alerts(ref.connectionId, ref.serviceId))?.find((a) => a.id === ref.id)?.name
        : (await live.dashboards(ref.connectionId, ref.serviceId))?.find((d) => d.id === ref.id)?.name;
      name = cached ?? undefined;
    }
    const uri = existingUri(ref) ?? uriFor(ref, name);
    try {
      await open(uri);
    } catch (error) {
      // The request's own error reads better than VS Code's "Unable to read file …" around it.
      const cause = fs.loadFailure(ref) ?? error;
      const message = vscode.l10n.t('Could not open the {0}: {1}', ref.kind, cause instanceof Error ? cause.message : String(cause));
      deps.log.error(message);
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
    return uri.toString();
  });

  // ---- Create Dashboard ----

  register('observability.createDashboard', async (arg): Promise<string | undefined> => {
    const scope = await scopeOf(arg);
    if (!scope) return undefined;
    const o = asObject<ResourceCommandArgs>(arg);
    const body = dashboardTemplate(o.name ?? vscode.l10n.t('New dashboard'));
    const ref: ResourceRef = { ...scope, kind: 'dashboard', draftKey: `new-${++draftCounter}` };
    fs.set(ref, { text: toText(body), base: undefined, exists: false });
    const uri = uriFor(ref, body.name as string);
    await open(uri);
    return uri.toString();
  });

  // ---- Query endpoint ----

  const queryEndpointRef = (scope: { connectionId: string; serviceId: string }): ResourceRef => ({ ...scope, kind: 'queryEndpoint' });
  const serviceName = (scope: { connectionId: string; serviceId: string }) =>
    connections.get(scope.connectionId)?.services.find((s) => s.id === scope.serviceId)?.name ?? scope.serviceId;

  register('observability.upsertQueryEndpoint', async (arg): Promise<string | undefined> => {
    const scope = await scopeOf(arg);
    if (!scope) return undefined;
    const ref = queryEndpointRef(scope);
    const uri = existingUri(ref) ?? uriFor(ref, `${serviceName(scope)} query endpoint`);
    try {
      await open(uri);
    } catch (error) {
      const cause = fs.loadFailure(ref) ?? error;
      const message = vscode.l10n.t('Could not open the query endpoint: {0}', cause instanceof Error ? cause.message : String(cause));
      deps.log.error(message);
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
    return uri.toString();
  });

  register('observability.deleteQueryEndpoint', async (arg): Promise<{ deleted: boolean; requestId?: string; error?: string }> => {
    const scope = await scopeOf(arg);
    if (!scope) return { deleted: false };
    const confirmed = asObject<ResourceCommandArgs>(arg).confirm === true;
    if (!confirmed) {
      const del = vscode.l10n.t('Delete');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Delete the query endpoint of {0}?', serviceName(scope)),
        { modal: true, detail: vscode.l10n.t('Applications calling the endpoint get errors from then on. This cannot be undone.') }, del);
      if (answer !== del) return { deleted: false };
    }
    try {
      const response = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Deleting the query endpoint…') },
        () => connections.clientFor(scope.connectionId).deleteQueryEndpoint(scope.serviceId));
      const ref = queryEndpointRef(scope);
      const held = fs.get(ref);
      if (held) fs.rebase(ref, null, false);
      tree.refreshKinds(scope.connectionId, scope.serviceId, ['queryEndpoint']);
      const message = vscode.l10n.t('Query endpoint of {0} deleted.', serviceName(scope));
      deps.log.info(`${message}${response.requestId ? ` (requestId ${response.requestId})` : ''}`);
      void vscode.window.showInformationMessage(sanitizeServerText(response.requestId ? `${message} ${vscode.l10n.t('Request ID: {0}', response.requestId)}` : message, 1000));
      return { deleted: true, ...(response.requestId ? { requestId: response.requestId } : {}) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.log.error(message);
      void vscode.window.showErrorMessage(message);
      return { deleted: false, error: message };
    }
  });

  // ---- Apply ----

  register('observability.applyResource', async (arg): Promise<ApplyResult> => {
    let uri: vscode.Uri | undefined;
    let options: ApplyOptions = {};
    if (arg instanceof vscode.Uri) {
      uri = arg;
    } else {
      const o = asObject<ApplyArgs>(arg);
      uri = typeof o.uri === 'string' ? vscode.Uri.parse(o.uri) : o.uri instanceof vscode.Uri ? o.uri : undefined;
      options = { confirm: o.confirm === true, confirmAlertDeletion: o.confirmAlertDeletion === true, confirmKeyRemoval: o.confirmKeyRemoval === true, overwrite: o.overwrite === true };
    }
    uri ??= vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme !== RESOURCE_SCHEME || !parseUri(uri)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Apply works on alert, dashboard and query endpoint documents opened from the Observability explorer.'));
      return { outcome: 'notResource' };
    }
    const target = uri.toString();
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target) ?? await vscode.workspace.openTextDocument(uri);
    return applier.apply(doc, options);
  });

  register('observability.compareWithService', async (arg): Promise<boolean> => {
    const o = asObject<ApplyArgs>(arg);
    const uri = arg instanceof vscode.Uri ? arg : typeof o.uri === 'string' ? vscode.Uri.parse(o.uri) : o.uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!uri || !parseUri(uri)) return false;
    const target = uri.toString();
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target) ?? await vscode.workspace.openTextDocument(uri);
    return applier.compare(doc);
  });

  /** The address of an open document of the resource (its name may have changed since). */
  function existingUri(ref: ResourceRef): vscode.Uri | undefined {
    for (const doc of vscode.workspace.textDocuments) {
      const r = parseUri(doc.uri);
      if (r && r.kind === ref.kind && r.connectionId === ref.connectionId && r.serviceId === ref.serviceId && r.id === ref.id && !doc.isClosed) {
        if (ref.kind !== 'queryEndpoint' && ref.id === undefined) continue;
        return doc.uri;
      }
    }
    return undefined;
  }
}

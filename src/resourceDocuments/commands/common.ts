import * as vscode from 'vscode';
import { argsOf, nodeOf, scopeOfNode, type ExplorerNode } from '../../commandArgs';
import { pickConnection as pickStoredConnection } from '../../connections/pick';
import type { ConnectionManager } from '../../connections/manager';
import type { ResourceApplier, ApplyOptions } from '../apply';
import type { ResourceFileSystem } from '../fileSystem';
import type { LiveData } from '../../resources/live';
import { isNew, parseUri, type ResourceRef } from '../../jsonDocuments/uris';
import type { DocumentKind, ResourceRefresher } from '../../resources/model';
import type { Logger } from '../../log';

/**
 * Commands of the resource editors: Create Alert, Edit (alert or dashboard), Create Dashboard, Upsert / Delete Query
 * Endpoint, and Apply.
 *
 * Each takes the tree node VS Code passes, or an argument object (automation, tests). Confirmations can be given only
 * through such an object (`noPrompt: true`, old name `confirm: true`; see `ApplyOptions`), never from the tree.
 */

export interface EditorCommandDeps {
  readonly connections: ConnectionManager;
  readonly tree: ResourceRefresher;
  readonly fs: ResourceFileSystem;
  readonly live: LiveData;
  readonly applier: ResourceApplier;
  readonly log: Logger;
}

export interface CreateAlertArgs {
  readonly connectionId?: string;
  readonly serviceId?: string;
  readonly dashboardId?: string;
  readonly tileId?: string;
  readonly webhookId?: string;
  /**
   * When the service has no webhook: `true` opens a new webhook document as well, whose ID goes into the alert once
   * it is applied; `false` leaves "webhookId" empty. Asked when left out.
   */
  readonly createWebhookFirst?: boolean;
  readonly threshold?: number;
  readonly name?: string;
  readonly message?: string;
}

export interface ResourceCommandArgs {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly alertId?: string;
  readonly dashboardId?: string;
  /** Edit: the kind of resource `id` names (alert, dashboard, webhook, savedSearch, source, role). */
  readonly kind?: DocumentKind;
  readonly id?: string;
  readonly name?: string;
  /** Delete Query Endpoint: skip the modal confirmation (deprecated alias: `confirm`). */
  readonly noPrompt?: boolean;
  readonly confirm?: boolean;
}

export interface ApplyArgs extends ApplyOptions {
  /** Apply without the confirmation (deprecated alias: `confirm`). */
  readonly noPrompt?: boolean;
  /** The document to apply (default: the active editor's). */
  readonly uri?: string | vscode.Uri;
}

/** The explorer node a command got (typed on the node union), if any. */
export function isNodeLike(value: unknown): value is ExplorerNode {
  return nodeOf(value) !== undefined;
}

/** The argument object a command got, or an empty one. */
export function asObject<T>(value: unknown): Partial<T> {
  return argsOf<T>(value);
}

export let draftCounter = 0;

/** A key for a new, unsaved document. */
export function nextDraftKey(): string {
  return `new-${++draftCounter}`;
}

/** Helpers the commands share, bound to their dependencies. */
export function editorCommandHelpers(deps: EditorCommandDeps) {
  const { connections } = deps;

  const open = async (uri: vscode.Uri): Promise<vscode.TextEditor> => {
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    return vscode.window.showTextDocument(doc, { preview: false });
  };

  // ---- connection and service ----

  const pickConnection = async (connectionId: string | undefined): Promise<string | undefined> => {
    if (connectionId) return connections.get(connectionId) ? connectionId : undefined;
    return (await pickStoredConnection(connections, vscode.l10n.t('Pick a connection'), vscode.l10n.t('Connection')))
      ?.id;
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
    const picked = await vscode.window.showQuickPick(
      ids.map((id) => ({ label: names.get(id) ?? id, description: id, id })),
      { title: vscode.l10n.t('Service'), placeHolder: vscode.l10n.t('Pick a service') },
    );
    return picked?.id;
  };

  /** Connection and service of a node, an argument object, or picked. */
  const scopeOf = async (arg: unknown): Promise<{ connectionId: string; serviceId: string } | undefined> => {
    let connectionId: string | undefined;
    let serviceId: string | undefined;
    if (isNodeLike(arg)) {
      ({ connectionId, serviceId } = scopeOfNode(arg));
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

  // ---- Edit alert / dashboard ----

  // ---- Create Dashboard ----

  // ---- Query endpoint ----

  const queryEndpointRef = (scope: { connectionId: string; serviceId: string }): ResourceRef => ({
    ...scope,
    kind: 'queryEndpoint',
  });
  const serviceName = (scope: { connectionId: string; serviceId: string }) =>
    connections.get(scope.connectionId)?.services.find((s) => s.id === scope.serviceId)?.name ?? scope.serviceId;

  // ---- Apply ----

  /** The address of an open document of the resource (its name may have changed since). */
  function existingUri(ref: ResourceRef): vscode.Uri | undefined {
    for (const doc of vscode.workspace.textDocuments) {
      const r = parseUri(doc.uri);
      if (
        r &&
        r.kind === ref.kind &&
        r.connectionId === ref.connectionId &&
        r.serviceId === ref.serviceId &&
        r.id === ref.id &&
        !doc.isClosed
      ) {
        if (isNew(ref)) continue;
        return doc.uri;
      }
    }
    return undefined;
  }
  return { open, pickConnection, pickService, scopeOf, queryEndpointRef, serviceName, existingUri };
}

import * as vscode from 'vscode';
import { sanitizeServerText } from '../../api';
import { VIEW_ID } from '../../constants';
import { alertLabel, nameOf } from '../../labels/format';
import { asRequestFailure, type ConnectionSource } from '../../resources/model';
import type { Node } from '../nodes';
import type { ObservabilityTreeProvider } from '../provider';
import { ReadonlyJsonProvider, type JsonItemKind } from '../readonlyDocuments';
import type { Logger } from '../../log';
import { commandArgument, noPrompt } from '../../commandArgs';

/**
 * Commands on tree items: refresh, retry, filter, copy ID, open as JSON, delete dashboard / alert.
 *
 * Item commands take the tree node VS Code passes, or an argument object for automation:
 * `{ connectionId, serviceId, dashboardId | alertId | sourceId | queryEndpoint: true }`. A confirmation can be skipped
 * only from such an object (`noPrompt: true`; `skipConfirmation: true` still works), never from the tree.
 */

export interface ResourceArgs {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly dashboardId?: string;
  readonly alertId?: string;
  readonly sourceId?: string;
  readonly webhookId?: string;
  readonly savedSearchId?: string;
  readonly roleId?: string;
  readonly queryEndpoint?: boolean;
  /** Delete without the confirmation (deprecated alias: `skipConfirmation`). */
  readonly noPrompt?: boolean;
  readonly skipConfirmation?: boolean;
}

export interface DeleteResult {
  readonly deleted: boolean;
  /** Names of the alerts the service deleted with a dashboard. */
  readonly alsoDeleted?: readonly string[];
  /** What keeps pointing at a deleted source (tiles, saved searches, alerts, sources), as said before. */
  readonly leftDangling?: readonly string[];
  /** Alerts that use a webhook the service would refuse to delete. */
  readonly blockedBy?: readonly string[];
  readonly error?: string;
}

export interface ResourceCommandDeps {
  readonly connections: ConnectionSource;
  readonly tree: ObservabilityTreeProvider;
  readonly json: ReadonlyJsonProvider;
  readonly log: Logger;
}

/** A node of this tree (the brand tells it from an argument object). */
export function isNode(value: unknown): value is Node {
  return commandArgument(value).kind === 'node';
}

/** An argument object that names a service. */
export function isArgs(value: unknown): value is ResourceArgs {
  const a = commandArgument<ResourceArgs>(value);
  return a.kind === 'args' && typeof a.args.connectionId === 'string' && typeof a.args.serviceId === 'string';
}

/** What an item command acts on, from a node or an argument object. */
export interface Target {
  readonly connectionId: string;
  readonly serviceId: string;
  readonly kind: JsonItemKind;
  readonly id?: string;
  readonly name: string;
  readonly fromArgs: boolean;
  readonly skipConfirmation: boolean;
}

export function targetOf(arg: unknown, tree: ObservabilityTreeProvider): Target | undefined {
  if (isNode(arg)) {
    switch (arg.type) {
      case 'dashboard':
        return {
          ...scope(arg),
          kind: 'dashboard',
          id: arg.dashboard.id,
          name: arg.label,
          fromArgs: false,
          skipConfirmation: false,
        };
      case 'alert':
        return {
          ...scope(arg),
          kind: 'alert',
          id: arg.alert.id,
          name: arg.label,
          fromArgs: false,
          skipConfirmation: false,
        };
      case 'source':
        return {
          ...scope(arg),
          kind: 'source',
          id: arg.source.id,
          name: arg.label,
          fromArgs: false,
          skipConfirmation: false,
        };
      case 'item':
        return {
          ...scope(arg),
          kind: arg.kind,
          id: arg.item.id,
          name: arg.label,
          fromArgs: false,
          skipConfirmation: false,
        };
      case 'member':
        return {
          ...scope(arg),
          kind: 'teamMember',
          id: arg.member.id,
          name: arg.label,
          fromArgs: false,
          skipConfirmation: false,
        };
      case 'folder':
        if (arg.kind === 'team') {
          const team = tree.cache.peek(arg.connectionId, arg.serviceId, 'team')?.team;
          return {
            ...scope(arg),
            kind: 'team',
            name: sanitizeServerText(team?.name, 200) || vscode.l10n.t('Team'),
            fromArgs: false,
            skipConfirmation: false,
          };
        }
        if (arg.kind === 'queryEndpoint') {
          return {
            ...scope(arg),
            kind: 'queryEndpoint',
            name: `${arg.parent.name} query endpoint`,
            fromArgs: false,
            skipConfirmation: false,
          };
        }
        return undefined;
      case 'info':
        // A property line of a configured query endpoint.
        if (
          arg.parent.type === 'folder' &&
          arg.parent.kind === 'queryEndpoint' &&
          /\bqueryEndpointProperty\b/.test(arg.contextValue)
        ) {
          return targetOf(arg.parent, tree);
        }
        return undefined;
      default:
        return undefined;
    }
  }
  if (!isArgs(arg)) return undefined;
  const { connectionId, serviceId } = arg;
  const skipConfirmation = noPrompt(arg, 'skipConfirmation');
  const cache = tree.cache;
  if (arg.dashboardId) {
    const d = cache.peek(connectionId, serviceId, 'dashboards')?.find((x) => x.id === arg.dashboardId);
    return {
      connectionId,
      serviceId,
      kind: 'dashboard',
      id: arg.dashboardId,
      name: d ? nameOf(d) : arg.dashboardId,
      fromArgs: true,
      skipConfirmation,
    };
  }
  if (arg.alertId) {
    const a = cache.peek(connectionId, serviceId, 'alerts')?.find((x) => x.id === arg.alertId);
    return {
      connectionId,
      serviceId,
      kind: 'alert',
      id: arg.alertId,
      name: a ? alertLabel(a) : arg.alertId,
      fromArgs: true,
      skipConfirmation,
    };
  }
  if (arg.sourceId) {
    const s = cache.peek(connectionId, serviceId, 'sources')?.find((x) => x.id === arg.sourceId);
    return {
      connectionId,
      serviceId,
      kind: 'source',
      id: arg.sourceId,
      name: s ? nameOf(s) : arg.sourceId,
      fromArgs: true,
      skipConfirmation,
    };
  }
  const items = [
    ['webhook', 'webhooks', arg.webhookId],
    ['savedSearch', 'savedSearches', arg.savedSearchId],
    ['role', 'roles', arg.roleId],
  ] as const;
  for (const [kind, list, id] of items) {
    if (!id) continue;
    const found = cache.peek(connectionId, serviceId, list)?.find((x) => x.id === id);
    return { connectionId, serviceId, kind, id, name: found ? nameOf(found) : id, fromArgs: true, skipConfirmation };
  }
  if (arg.queryEndpoint) {
    return { connectionId, serviceId, kind: 'queryEndpoint', name: 'query endpoint', fromArgs: true, skipConfirmation };
  }
  return undefined;
}

export function scope(node: { connectionId: string; serviceId: string }): { connectionId: string; serviceId: string } {
  return { connectionId: node.connectionId, serviceId: node.serviceId };
}

/** The value "Copy ID" puts on the clipboard for a node. */
export function copyValueOf(arg: unknown): { value: string; what: string } | undefined {
  if (isNode(arg)) {
    switch (arg.type) {
      case 'connection':
        return { value: arg.copyValue, what: vscode.l10n.t('organization ID') };
      case 'service':
        return { value: arg.copyValue, what: vscode.l10n.t('service ID') };
      case 'dashboard':
        return { value: arg.copyValue, what: vscode.l10n.t('dashboard ID') };
      case 'tile':
        return { value: arg.copyValue, what: vscode.l10n.t('tile ID') };
      case 'alert':
        return { value: arg.copyValue, what: vscode.l10n.t('alert ID') };
      case 'source':
        return { value: arg.copyValue, what: vscode.l10n.t('source ID') };
      case 'item':
        return { value: arg.copyValue, what: vscode.l10n.t('ID') };
      case 'member':
        return { value: arg.copyValue, what: vscode.l10n.t('member ID') };
      default:
        return undefined;
    }
  }
  if (isArgs(arg)) {
    const id =
      arg.dashboardId ??
      arg.alertId ??
      arg.sourceId ??
      arg.webhookId ??
      arg.savedSearchId ??
      arg.roleId ??
      arg.serviceId;
    return { value: id, what: vscode.l10n.t('ID') };
  }
  return undefined;
}

/** Helpers the commands share, bound to their dependencies. */
export function resourceCommandHelpers(deps: ResourceCommandDeps) {
  const { tree, log } = deps;

  const refreshKindsAfterDelete = (connectionId: string, serviceId: string, kind?: JsonItemKind) =>
    tree.refreshKinds(connectionId, serviceId, [
      'dashboards',
      'alerts',
      'webhooks',
      ...(kind === 'savedSearch' || kind === 'source' ? (['savedSearches', 'sources'] as const) : []),
      ...(kind === 'role' ? (['roles'] as const) : []),
    ]);

  const runDelete = async (
    target: Target,
    label: string,
    detail: string,
    call: () => Promise<unknown>,
    alsoDeleted?: readonly string[],
    leftDangling?: readonly string[],
  ): Promise<DeleteResult> => {
    if (!target.skipConfirmation || !target.fromArgs) {
      const confirm = vscode.l10n.t('Delete');
      const answer = await vscode.window.showWarningMessage(
        sanitizeServerText(label, 1000),
        { modal: true, detail },
        confirm,
      );
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
    refreshKindsAfterDelete(target.connectionId, target.serviceId, target.kind);
    return { deleted: true, alsoDeleted, ...(leftDangling ? { leftDangling } : {}) };
  };
  return { refreshKindsAfterDelete, runDelete };
}

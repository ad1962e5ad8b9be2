import * as vscode from 'vscode';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser/lib/esm/main';
import { SELF_HOSTED_SERVICE_ID } from '../api/oss';
import { connectionFor } from '../connections/fileTarget';
import type { ConnectionManager } from '../connections/manager';
import type { LiveData } from '../resources/live';
import { parseUri } from '../jsonDocuments/uris';
import { isObject, str, type AlertSource, type DashboardSource, type Scope } from './context';

/**
 * What a preview or backtest command is about: the dashboard, tile or alert its argument names (a tree item, IDs, or a
 * document with its current text; an alert file through the connection its target reaches).
 */
export interface PreviewTargets {
  dashboardFrom(raw: unknown): Promise<DashboardSource>;
  alertFrom(raw: unknown): Promise<AlertSource>;
  scopeOfFile(value: Record<string, unknown>): Scope | undefined;
}

export function createPreviewTargets(connections: ConnectionManager, live: LiveData): PreviewTargets {
  function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  }

  async function dashboardFrom(raw: unknown): Promise<DashboardSource> {
    const arg = isObject(raw) ? raw : {};
    const uriArg =
      raw instanceof vscode.Uri ? raw : typeof arg.uri === 'string' ? vscode.Uri.parse(arg.uri) : undefined;
    const uri =
      uriArg ?? (arg.connectionId || arg.dashboard ? undefined : vscode.window.activeTextEditor?.document.uri);
    if (uri) {
      const ref = parseUri(uri);
      if (!ref || ref.kind !== 'dashboard') throw new Error(vscode.l10n.t('This document is not a dashboard.'));
      const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
      let value: unknown;
      try {
        value = JSON.parse(doc.getText());
      } catch {
        throw new Error(vscode.l10n.t('The dashboard document is not valid JSON; fix it to preview its tiles.'));
      }
      if (!isObject(value)) throw new Error(vscode.l10n.t('The dashboard document does not hold a dashboard.'));
      return {
        connectionId: ref.connectionId,
        serviceId: ref.serviceId,
        dashboard: value as DashboardSource['dashboard'],
        uri,
      };
    }
    const connectionId = str(arg.connectionId);
    const serviceId = str(arg.serviceId);
    if (!connectionId || !serviceId) throw new Error(vscode.l10n.t('Choose a dashboard or tile in the explorer.'));
    const parent = isObject(arg.parent) ? arg.parent : undefined;
    const given = isObject(arg.dashboard)
      ? arg.dashboard
      : parent && isObject(parent.dashboard)
        ? parent.dashboard
        : undefined;
    const dashboardId = str(arg.dashboardId) ?? (given ? str(given.id) : undefined);
    const list = await live.dashboards(connectionId, serviceId);
    const found = list?.find((d) => d.id === dashboardId) ?? given;
    if (!found) throw new Error(vscode.l10n.t('The dashboard {0} was not found.', dashboardId ?? ''));
    return { connectionId, serviceId, dashboard: found as unknown as DashboardSource['dashboard'] };
  }

  async function alertFrom(raw: unknown): Promise<AlertSource> {
    const arg = isObject(raw) ? raw : {};
    const uriArg =
      raw instanceof vscode.Uri ? raw : typeof arg.uri === 'string' ? vscode.Uri.parse(arg.uri) : undefined;
    const uri = uriArg ?? (arg.connectionId || arg.alert ? undefined : vscode.window.activeTextEditor?.document.uri);
    if (uri) {
      const ref = parseUri(uri);
      if (ref && ref.kind !== 'alert') throw new Error(vscode.l10n.t('This document is not an alert.'));
      if (!ref && !uri.path.endsWith('.alert.json')) throw new Error(vscode.l10n.t('This document is not an alert.'));
      const doc = openDocument(uri) ?? (await vscode.workspace.openTextDocument(uri));
      // Alert files tolerate comments, as their own feature reads them.
      const value = parseAlertText(doc.getText());
      if (value === undefined) {
        throw new Error(vscode.l10n.t('The alert document is not valid JSON; fix it to backtest the alert.'));
      }
      if (!isObject(value)) throw new Error(vscode.l10n.t('The alert document does not hold an alert.'));
      if (ref) return { connectionId: ref.connectionId, serviceId: ref.serviceId, alert: value, uri };
      // An alert file names its service by organization and service ID, or its self-hosted deployment by base URL.
      const scope = scopeOfFile(value);
      if (!scope) {
        throw new Error(
          str(value.baseUrl) !== undefined
            ? vscode.l10n.t('No saved self-hosted connection has the address this alert file names.')
            : vscode.l10n.t('No saved connection reaches the organization and service this alert file names.'),
        );
      }
      return { ...scope, alert: value, uri };
    }
    const connectionId = str(arg.connectionId);
    const serviceId = str(arg.serviceId);
    if (!connectionId || !serviceId) throw new Error(vscode.l10n.t('Choose an alert in the explorer.'));
    const alertId = str(arg.alertId) ?? (isObject(arg.alert) ? str(arg.alert.id) : undefined);
    if (!alertId) throw new Error(vscode.l10n.t('Choose an alert in the explorer.'));
    const alert = (await live.alert(connectionId, serviceId, alertId)) ?? (isObject(arg.alert) ? arg.alert : undefined);
    if (!alert) throw new Error(vscode.l10n.t('The alert {0} was not found.', alertId));
    return { connectionId, serviceId, alert: alert as unknown as Record<string, unknown> };
  }

  /**
   * The connection an alert file's target names: a self-hosted deployment by its exact base URL, or a Cloud service
   * by organization and service (any Cloud connection to the organization, preferring one that shows the service).
   */
  function scopeOfFile(value: Record<string, unknown>): Scope | undefined {
    const baseUrl = str(value.baseUrl);
    const serviceId = str(value.serviceId);
    const target = connectionFor(connections, str(value.organizationId), serviceId, baseUrl);
    if (!target) return undefined;
    return {
      connectionId: target.connectionId,
      serviceId: baseUrl !== undefined ? SELF_HOSTED_SERVICE_ID : serviceId!,
    };
  }

  return { dashboardFrom, alertFrom, scopeOfFile };
}

export function tilesOf(d: DashboardSource): Record<string, unknown>[] {
  return (Array.isArray(d.dashboard.tiles) ? d.dashboard.tiles : []).filter(isObject);
}

export function tileIdOf(raw: unknown): string | undefined {
  if (!isObject(raw)) return undefined;
  return str(raw.tileId) ?? (isObject(raw.tile) ? str(raw.tile.id) : undefined);
}

/** Parses an alert document or file (comments tolerated, as alert files allow); undefined on a syntax error. */
export function parseAlertText(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: false });
  return errors.length === 0 ? value : undefined;
}

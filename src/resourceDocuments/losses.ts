import * as vscode from 'vscode';
import { redact, sanitizeServerText } from '../api';
import type { ConnectionManager } from '../connections/manager';
import {
  isAlertableDisplayType,
  type Alert,
  type Dashboard,
  type DashboardUpdate,
  type QueryEndpoint,
  type QueryEndpointWrite,
} from '../schema';
import { webhookSecrets } from '../resources/kinds';
import type { LiveData } from '../resources/live';
import type { ResourceRef } from '../jsonDocuments/uris';
import { withProgress } from '../jsonDocuments/writes';
import type { ResourceFileSystem } from './fileSystem';

/**
 * What an update of a resource takes away, found before it is sent and named in its confirmation: alerts the service
 * deletes with a dashboard update, API keys that lose access to the query endpoint; and a webhook's secrets taken out
 * of a failure's text.
 */

/** Alerts (names) on tiles that disappear, change ID or can no longer carry an alert: the service deletes them. */
export async function alertsDeletedBy(
  connections: ConnectionManager,
  ref: ResourceRef,
  current: Dashboard,
  body: DashboardUpdate,
): Promise<string[]> {
  const kept = new Map((body.tiles ?? []).filter((t) => typeof t.id === 'string').map((t) => [t.id as string, t]));
  const lost = new Set(
    (current.tiles ?? [])
      .filter((t) => {
        const next = kept.get(t.id);
        return !next || !isAlertableDisplayType((next.config as { displayType?: unknown } | undefined)?.displayType);
      })
      .map((t) => t.id),
  );
  if (lost.size === 0) return [];
  const client = connections.clientFor(ref.connectionId);
  const alerts: Alert[] = (
    await withProgress(vscode.l10n.t('Checking which alerts watch the dashboard…'), () =>
      client.listAlerts(ref.serviceId),
    )
  ).data;
  return alerts
    .filter((a) => a.dashboardId === ref.id && typeof a.tileId === 'string' && lost.has(a.tileId))
    .map((a) => a.name ?? a.id);
}

/** A failure of a webhook request with the webhook's secrets (URL, header values) taken out of its text. */
export function withoutSecrets(fs: ResourceFileSystem, ref: ResourceRef, error: unknown, typed: unknown): unknown {
  if (ref.kind !== 'webhook' || !(error instanceof Error)) return error;
  const held = fs.get(ref)?.base as Record<string, unknown> | undefined;
  const secrets = [...webhookSecrets(typed as Record<string, unknown> | undefined), ...webhookSecrets(held)];
  if (secrets.length === 0) return error;
  const e = error as Error & { serverMessage?: string; detail?: string };
  e.message = redact(e.message, secrets);
  if (typeof e.serverMessage === 'string') e.serverMessage = redact(e.serverMessage, secrets);
  if (typeof e.detail === 'string') e.detail = redact(e.detail, secrets);
  return e;
}

/** The API keys (by name) that have access to the endpoint now and lose it with `body` (it replaces the list). */
export async function keysLosingAccess(
  live: LiveData,
  ref: ResourceRef,
  current: QueryEndpoint,
  body: QueryEndpointWrite,
): Promise<string[]> {
  const kept = new Set(body.openApiKeys ?? []);
  const lost = (current.openApiKeys ?? []).filter((k) => !kept.has(k));
  if (lost.length === 0) return [];
  const keys = await live.listApiKeys(ref.connectionId);
  return lost.map((id) => {
    const name = keys?.find((k) => k.id === id)?.name;
    return name ? vscode.l10n.t('{0} ({1})', name, id) : id;
  });
}

/**
 * One modal question naming what an update takes away (alerts the service deletes, API keys that lose access); with
 * the diff open it is the confirmation of the update. Returns true when the update must not go ahead. Automation
 * (`automated`) gets a warning and a refusal unless `confirmed`.
 */
export async function confirmLoss(loss: {
  names: readonly string[];
  confirmed: boolean;
  automated: boolean;
  message: string;
  intro: string;
  button: string;
}): Promise<boolean> {
  if (loss.confirmed) return false;
  if (loss.automated) {
    void vscode.window.showWarningMessage(`${loss.message} ${sanitizeServerText(loss.names.join(', '), 1000)}`);
    return true;
  }
  const shown = loss.names
    .slice(0, 15)
    .map((n) => `• ${sanitizeServerText(n)}`)
    .join('\n');
  const more = loss.names.length > 15 ? `\n${vscode.l10n.t('… and {0} more', loss.names.length - 15)}` : '';
  return (
    (await vscode.window.showWarningMessage(
      loss.message,
      { modal: true, detail: `${loss.intro}\n${shown}${more}` },
      loss.button,
    )) !== loss.button
  );
}

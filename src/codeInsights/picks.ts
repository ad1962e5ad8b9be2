/**
 * What each workspace folder's code insights read: the connection, service and trace source the user picked for it
 * (kept in workspaceState). Nothing is queried for a folder without a pick.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import { isSelfHosted } from '../connections/types';
import { CODE_INSIGHTS_PICKS_KEY } from '../constants';

export interface Pick {
  connectionId: string;
  serviceId: string;
  sourceId: string;
  /** For the status bar: the service's and source's names when picked. */
  serviceName: string;
  sourceName: string;
}

/** The thin entry reads it too (src/lazy.ts): a pick makes a shown file of its folder load the feature. */
const KEY = CODE_INSIGHTS_PICKS_KEY;

export class Picks {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  private all(): Record<string, Pick> {
    const v = this.state.get<unknown>(KEY);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, Pick>) : {};
  }

  of(folder: vscode.WorkspaceFolder): Pick | undefined {
    return this.all()[folder.uri.toString()];
  }

  /** Each workspace folder with its pick. */
  entries(): { folder: vscode.WorkspaceFolder; pick: Pick }[] {
    const out: { folder: vscode.WorkspaceFolder; pick: Pick }[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const pick = this.of(folder);
      if (pick) out.push({ folder, pick });
    }
    return out;
  }

  async set(folder: vscode.WorkspaceFolder, pick: Pick | undefined): Promise<void> {
    const all = { ...this.all() };
    if (pick) all[folder.uri.toString()] = pick;
    else delete all[folder.uri.toString()];
    await this.state.update(KEY, all);
    this.changed.fire();
  }

  /** Drops the picks of connections that no longer exist. */
  async prune(connections: ConnectionManager): Promise<void> {
    const all = this.all();
    const kept = Object.fromEntries(Object.entries(all).filter(([, p]) => connections.get(p.connectionId)));
    if (Object.keys(kept).length === Object.keys(all).length) return;
    await this.state.update(KEY, kept);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * Why background work may not run SQL for a pick now (undefined when it may): a removed connection, a self-hosted
 * deployment without ClickHouse access, or a Cloud service last seen idle or stopped (running SQL would wake it).
 */
export function notReady(connections: ConnectionManager, pick: Pick): string | undefined {
  const connection = connections.get(pick.connectionId);
  if (!connection) return vscode.l10n.t('the connection no longer exists');
  if (isSelfHosted(connection)) {
    return connection.clickHouse ? undefined : vscode.l10n.t('the deployment has no ClickHouse access set');
  }
  const state = connection.services.find((s) => s.id === pick.serviceId.toLowerCase())?.state;
  if (state && /idle|stopp|paus/i.test(state)) return vscode.l10n.t('the service is {0}', state);
  return undefined;
}

/** "Choose Service for Code Insights…": per workspace folder, the connection, service and trace source to read. */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import { isSelfHosted } from '../connections/types';
import { errorMessage } from '../errors';
import type { Pick, Picks } from './picks';

export interface ChooseArgs {
  /** The workspace folder's URI (else the one of the active editor, or asked). */
  folder?: string;
  connectionId?: string;
  serviceId?: string;
  sourceId?: string;
  /** Forget the folder's pick. */
  clear?: boolean;
}

async function folderOf(arg: ChooseArgs): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (arg.folder) return folders.find((f) => f.uri.toString() === arg.folder);
  const active = vscode.window.activeTextEditor?.document.uri;
  const own = active ? vscode.workspace.getWorkspaceFolder(active) : undefined;
  if (own || folders.length <= 1) return own ?? folders[0];
  return vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Code insights for which folder?') });
}

async function ask<T>(items: (vscode.QuickPickItem & { value: T })[], placeHolder: string): Promise<T | undefined> {
  if (items.length === 1) return items[0]?.value;
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.value;
}

/** Returns the pick stored (undefined when cancelled or cleared). */
export async function chooseService(
  connections: ConnectionManager,
  picks: Picks,
  arg: ChooseArgs = {},
): Promise<Pick | undefined> {
  const folder = await folderOf(arg);
  if (!folder) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Code insights need a workspace folder.'));
    return undefined;
  }
  if (arg.clear) {
    await picks.set(folder, undefined);
    return undefined;
  }
  const all = connections.list();
  const connectionId =
    arg.connectionId ??
    (await ask(
      all.map((c) => ({ label: c.label, value: c.id })),
      vscode.l10n.t('Connection'),
    ));
  const connection = connectionId ? connections.get(connectionId) : undefined;
  if (!connection) return undefined;
  const serviceId =
    arg.serviceId ??
    (await ask(
      connection.serviceIds.map((id) => ({
        label: connection.services.find((s) => s.id === id.toLowerCase())?.name ?? id,
        value: id,
      })),
      vscode.l10n.t('Service'),
    ));
  if (!serviceId) return undefined;
  if (isSelfHosted(connection) && !connection.clickHouse) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        '"{0}" has no ClickHouse access: run "Set ClickHouse Access for Previews…" first.',
        connection.label,
      ),
    );
    return undefined;
  }
  let sources: { id?: unknown; name?: unknown; kind?: unknown }[];
  try {
    sources = (await connections.clientFor(connection.id).listSources(serviceId)).data as unknown as typeof sources;
  } catch (e) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Listing the trace sources failed: {0}', errorMessage(e)));
    return undefined;
  }
  const traces = sources.filter((s) => s.kind === 'trace' && typeof s.id === 'string');
  const sourceId =
    arg.sourceId ??
    (await ask(
      traces.map((s) => ({ label: String(s.name ?? s.id), value: String(s.id) })),
      vscode.l10n.t('Trace source'),
    ));
  const source = traces.find((s) => s.id === sourceId);
  if (!source) return undefined;
  const serviceName = connection.services.find((s) => s.id === serviceId.toLowerCase())?.name ?? serviceId;
  const pick: Pick = {
    connectionId: connection.id,
    serviceId,
    sourceId: String(source.id),
    serviceName,
    sourceName: String(source.name ?? source.id),
  };
  await picks.set(folder, pick);
  return pick;
}

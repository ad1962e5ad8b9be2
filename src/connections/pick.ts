import * as vscode from 'vscode';
import type { ConnectionManager } from './manager';
import type { StoredConnection } from './types';

/** The host of a connection's address, for messages (the address itself when it does not parse). */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/**
 * The connection a command is about when nothing names one: the only one, or the one the user picks. Without any, it
 * offers Add Connection and resolves to undefined.
 */
export async function pickConnection(
  connections: Pick<ConnectionManager, 'list'>,
  placeholder: string,
  title?: string,
): Promise<StoredConnection | undefined> {
  const all = connections.list();
  if (all.length === 0) {
    const add = vscode.l10n.t('Add Connection');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('There are no connections yet.'), add);
    if (choice === add) await vscode.commands.executeCommand('observability.addConnection');
    return undefined;
  }
  if (all.length === 1) return all[0];
  const picked = await vscode.window.showQuickPick(
    all.map((c) => ({
      label: c.label,
      description: hostOf(c.baseUrl),
      detail: c.organizationName ? `${c.organizationName} · ${c.organizationId}` : c.organizationId,
      connection: c,
    })),
    { ...(title ? { title } : {}), placeHolder: placeholder, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.connection;
}

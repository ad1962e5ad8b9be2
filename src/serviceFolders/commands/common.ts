import * as vscode from 'vscode';
import type { ConnectionManager } from '../../connections/manager';
import { pickConnection } from '../../connections/pick';
import { argsOf, nodeOf, scopeOfNode } from '../../commandArgs';
import { TARGET_FILE } from '../layout';
import type { ServiceFolderService, ServiceRef } from '../service';
import type { ServiceFolderDrift } from '../driftView';

/**
 * Commands of service folders. Each takes what VS Code passes (a tree node, a folder or file URI) or an argument object
 * for automation and tests: `{ folder }` (the service folder), `{ connectionId, serviceId }` (the service pulled from
 * or promoted to) and `{ noPrompt: true }` (no confirmation, no document, no notification).
 */
export interface ServiceFolderCommandDeps {
  readonly connections: ConnectionManager;
  readonly service: ServiceFolderService;
  readonly drift: ServiceFolderDrift;
}

export interface FolderArgs {
  readonly folder?: string | vscode.Uri;
  readonly connectionId?: string;
  readonly serviceId?: string;
  readonly noPrompt?: boolean;
  /** Promote and plan on another service: connection ID of the folder's own service → one of the other service. */
  readonly connectionMap?: Record<string, string>;
  /** Apply without prompts: what to do with fields changed on the service since the last pull. */
  readonly serviceChanges?: 'apply' | 'takeService' | 'cancel';
}

export function toUri(value: string | vscode.Uri | undefined): vscode.Uri | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? vscode.Uri.parse(value) : value;
}

export function folderArgs(arg: unknown): FolderArgs {
  return argsOf<FolderArgs>(arg);
}

async function isServiceFolder(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(vscode.Uri.joinPath(uri, TARGET_FILE));
    return true;
  } catch {
    return false;
  }
}

/**
 * The service folder a command is about: its argument (a folder, or a file in one), else the one holding the active
 * editor's file, else the only one of the workspace, else the one the user picks.
 */
export async function serviceFolderOf(arg: unknown): Promise<vscode.Uri | undefined> {
  // A Source Control list's title menu passes its source control (whose root is the folder).
  const root = (arg as { rootUri?: unknown } | undefined)?.rootUri;
  const given = arg instanceof vscode.Uri ? arg : root instanceof vscode.Uri ? root : toUri(folderArgs(arg).folder);
  const start = given ?? vscode.window.activeTextEditor?.document.uri;
  if (start && start.scheme === 'file') {
    for (let uri = start, i = 0; i < 3; i++, uri = vscode.Uri.joinPath(uri, '..')) {
      if (await isServiceFolder(uri)) return uri;
    }
  }
  if (given) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('{0} is not a service folder (it has no {1}).', given.fsPath, TARGET_FILE),
    );
    return undefined;
  }
  const found = await vscode.workspace.findFiles(`**/${TARGET_FILE}`, '**/node_modules/**', 50);
  const folders = found.map((f) => vscode.Uri.joinPath(f, '..'));
  if (folders.length === 1) return folders[0];
  if (folders.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'No service folder in the workspace: pull a service into a folder first (Observability: Pull to Folder…).',
      ),
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    folders.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
    { placeHolder: vscode.l10n.t('Service folder') },
  );
  return picked?.uri;
}

/** The service a command names: a tree node, `{ connectionId, serviceId }`, else the one the user picks. */
export async function serviceRefOf(
  arg: unknown,
  connections: ConnectionManager,
  placeholder: string,
): Promise<ServiceRef | undefined> {
  const node = nodeOf(arg);
  const scope = node ? scopeOfNode(node) : folderArgs(arg);
  let connectionId = scope.connectionId;
  let serviceId = scope.serviceId;
  if (!connectionId) connectionId = (await pickConnection(connections, placeholder))?.id;
  if (!connectionId) return undefined;
  const connection = connections.get(connectionId);
  if (!connection) return undefined;
  if (!serviceId) {
    if (connection.serviceIds.length === 1) serviceId = connection.serviceIds[0];
    else {
      const picked = await vscode.window.showQuickPick(
        connection.serviceIds.map((id) => ({
          label: connection.services.find((s) => s.id === id)?.name ?? id,
          description: id,
          id,
        })),
        { placeHolder: placeholder },
      );
      serviceId = picked?.id;
    }
  }
  return serviceId ? { connectionId, serviceId } : undefined;
}

import * as vscode from 'vscode';
import { inServiceFolder, SERVICE_FOLDER_TARGET_FILE } from '../jsonDocuments/serviceFolderFiles';
import { kindOfFile } from './layout';

/** The folder a file of a service folder belongs to (the target file's folder, or its kind sub-folder's parent). */
function folderOf(uri: vscode.Uri): vscode.Uri | undefined {
  const name = uri.path.split('/').pop() ?? '';
  if (name === SERVICE_FOLDER_TARGET_FILE) return vscode.Uri.joinPath(uri, '..');
  if (kindOfFile(name) && inServiceFolder(uri)) return vscode.Uri.joinPath(uri, '..', '..');
  return undefined;
}

/** **Plan Service Folder** and **Apply Service Folder** at the top of every file of a service folder. */
export class ServiceFolderCodeLensProvider implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!vscode.workspace.isTrusted) return [];
    const folder = folderOf(doc.uri);
    if (!folder) return [];
    const range = new vscode.Range(0, 0, 0, 0);
    const args = [{ folder: folder.toString() }];
    return [
      new vscode.CodeLens(range, {
        title: vscode.l10n.t('Plan Service Folder'),
        command: 'observability.planServiceFolder',
        arguments: args,
      }),
      new vscode.CodeLens(range, {
        title: vscode.l10n.t('Apply Service Folder'),
        command: 'observability.applyServiceFolder',
        arguments: args,
      }),
    ];
  }
}

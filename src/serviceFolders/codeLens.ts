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
  /**
   * `serviceVersion`: the service's version of a file that differs from it (then a **Compare with Service** lens);
   * `changed` redraws the lenses.
   */
  constructor(
    private readonly serviceVersion?: (uri: vscode.Uri) => vscode.Uri | undefined,
    readonly onDidChangeCodeLenses?: vscode.Event<void>,
  ) {}

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!vscode.workspace.isTrusted) return [];
    const folder = folderOf(doc.uri);
    if (!folder) return [];
    const range = new vscode.Range(0, 0, 0, 0);
    const args = [{ folder: folder.toString() }];
    const service = this.serviceVersion?.(doc.uri);
    const compare = service
      ? [
          new vscode.CodeLens(range, {
            title: vscode.l10n.t('Compare with Service'),
            command: 'vscode.diff',
            arguments: [
              service,
              doc.uri,
              vscode.l10n.t('{0}: service ↔ folder', vscode.workspace.asRelativePath(doc.uri)),
            ],
          }),
        ]
      : [];
    return [
      ...compare,
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

import * as vscode from 'vscode';
import { RESOURCE_SCHEME } from '../jsonDocuments/uris';
import { SERVER_SCHEME } from '../jsonDocuments/serverDocuments';
import { ALERT_FILE_SUFFIX } from './schema';
import { ReadonlyDocuments } from '../jsonDocuments/serverDocuments';
import { inServiceFolder } from '../jsonDocuments/serviceFolderFiles';

/** Workspace side of alert files: which documents are alert files, reading and writing them, their connection. */

/** Read-only documents of this feature: the plan and the service side of "Compare with Service". */
export const PREVIEW_SCHEME = 'observability-alert-files';

/**
 * True for an alert file of the workspace (not the extension's own documents, which share the suffix, nor the alerts
 * of a service folder).
 */
export function isAlertFileUri(uri: vscode.Uri): boolean {
  return (
    uri.path.endsWith(ALERT_FILE_SUFFIX) &&
    uri.scheme !== RESOURCE_SCHEME &&
    uri.scheme !== SERVER_SCHEME &&
    uri.scheme !== PREVIEW_SCHEME &&
    uri.scheme !== 'git' &&
    uri.scheme !== 'output' &&
    !inServiceFolder(uri)
  );
}

export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

/** The current text of a file: the editor's when it has unsaved changes, else the file on disk (fresher than an editor still reloading). */
export async function readText(uri: vscode.Uri): Promise<string> {
  const doc = openDocument(uri);
  if (doc?.isDirty) return doc.getText();
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

/** Replaces a file's text: through the open editor (then saved), else on disk. */
export async function writeText(uri: vscode.Uri, text: string): Promise<void> {
  const doc = openDocument(uri);
  if (doc && !doc.isClosed) {
    if (doc.getText() !== text) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
      if (!(await vscode.workspace.applyEdit(edit))) {
        throw new Error(vscode.l10n.t('Could not edit {0}', vscode.workspace.asRelativePath(uri)));
      }
    }
    if (doc.isDirty) await doc.save();
    return;
  }
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}

export function relativeLabel(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(
    uri,
    vscode.workspace.workspaceFolders !== undefined && vscode.workspace.workspaceFolders.length > 1,
  );
}

/** Text documents of this feature (plans, the service's version in comparisons), `observability-alert-files:/<n>/<label>`. */
export class PreviewDocuments extends ReadonlyDocuments {
  constructor() {
    super(PREVIEW_SCHEME);
  }
}

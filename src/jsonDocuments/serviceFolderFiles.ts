import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type * as vscode from 'vscode';

/**
 * The file that marks a service folder (a whole service as code). The alerts of a service folder are `*.alert.json`
 * files too, but they name their service through this file and their dashboard by name: they belong to the service
 * folder, not to the alert files of the workspace, which leave them alone.
 */
export const SERVICE_FOLDER_TARGET_FILE = 'service.observability.json';

/** True for a file in a kind's sub-folder of a service folder (`<folder>/alerts/x.alert.json`). */
export function inServiceFolder(uri: vscode.Uri): boolean {
  if (uri.scheme !== 'file') return false;
  return existsSync(path.join(path.dirname(path.dirname(uri.fsPath)), SERVICE_FOLDER_TARGET_FILE));
}

/** An aggregate's rows of one workspace folder, by workspace-relative file (the deployed paths mapped onto it). */
import * as vscode from 'vscode';
import { indexWorkspace, mapPath, type CodeFigures } from '../codeModel';
import { codeInsightsSettings } from './settings';

const MAX_FILES = 20_000;
const EXCLUDE = '{**/node_modules/**,**/.git/**,**/out/**,**/dist/**,**/build/**,**/target/**}';

export async function rowsByFile(
  rows: readonly CodeFigures[],
  folder: vscode.WorkspaceFolder,
): Promise<Map<string, CodeFigures[]>> {
  const out = new Map<string, CodeFigures[]>();
  if (rows.length === 0) return out;
  const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*'), EXCLUDE, MAX_FILES);
  const index = indexWorkspace(uris.map((u) => vscode.workspace.asRelativePath(u, false)));
  const { pathMappings } = codeInsightsSettings();
  for (const row of rows) {
    if (!row.file) continue;
    const m = mapPath(row.file, index, pathMappings);
    if (m.kind !== 'mapped') continue;
    const list = out.get(m.path);
    if (list) list.push(row);
    else out.set(m.path, [row]);
  }
  return out;
}

/**
 * A workspace folder as code insights read it, once per aggregate: its files (for mapping deployed paths onto it: a
 * path never leaves the folder) and the logger calls with a literal message in its source files (for the one log
 * count statement). Bounded: at most MAX_FILES files listed, MAX_SOURCE_FILES source files read, none larger than
 * MAX_SOURCE_BYTES; an open document is read as it is in the editor.
 */
import * as vscode from 'vscode';
import { findLogLiterals, indexWorkspace, languageOf, mapPath, type WorkspaceIndex } from '../codeModel';
import { codeInsightsSettings } from './settings';

export interface FolderScan {
  index: WorkspaceIndex;
  /** The workspace-relative path a deployed path stands for, undefined when none. */
  toWorkspace(file: string): string | undefined;
  /** Logger calls with a literal message, in file order. */
  literals: { path: string; line: number; like?: string | undefined }[];
  /** Source files not read (over the bounds). */
  skipped: number;
}

export const MAX_FILES = 20_000;
export const MAX_SOURCE_FILES = 2000;
export const MAX_SOURCE_BYTES = 1024 * 1024;
export const EXCLUDE = '{**/node_modules/**,**/.git/**,**/out/**,**/dist/**,**/build/**,**/target/**}';

async function textOf(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    if ((await vscode.workspace.fs.stat(uri)).size > MAX_SOURCE_BYTES) return undefined;
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

export async function scanFolder(folder: vscode.WorkspaceFolder): Promise<FolderScan> {
  const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*'), EXCLUDE, MAX_FILES);
  const rel = uris.map((u) => ({ uri: u, path: vscode.workspace.asRelativePath(u, false) }));
  const index = indexWorkspace(rel.map((r) => r.path));
  const { pathMappings } = codeInsightsSettings();
  const sources = rel.filter((r) => languageOf(r.path) !== undefined).sort((a, b) => (a.path < b.path ? -1 : 1));
  const literals: FolderScan['literals'] = [];
  let skipped = Math.max(0, sources.length - MAX_SOURCE_FILES);
  for (const { uri, path } of sources.slice(0, MAX_SOURCE_FILES)) {
    const text = await textOf(uri);
    if (text === undefined) {
      skipped++;
      continue;
    }
    for (const l of findLogLiterals(text).literals) literals.push({ path, line: l.line, like: l.like });
  }
  return {
    index,
    toWorkspace(file) {
      const m = mapPath(file, index, pathMappings);
      return m.kind === 'mapped' ? m.path : undefined;
    },
    literals,
    skipped,
  };
}

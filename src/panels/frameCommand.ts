/**
 * `observability.openFrame`: opens a stack-trace frame's workspace file at its line, for the command links of hovers
 * (a hover's Markdown can only run commands). The argument names a workspace folder and a path inside it, as
 * `workspaceFrames` mapped them; the command checks both again, so whatever a link carries it opens only a file
 * inside an open workspace folder (no `..`, no absolute path, no other folder), and anything else does nothing.
 */
import * as vscode from 'vscode';
import { openAt, type WorkspaceFrame } from './frameLinks';

export const OPEN_FRAME = 'observability.openFrame';

export interface FrameArg {
  /** The workspace folder's URI, as a string. */
  folder: string;
  /** Folder-relative, `/`-separated. */
  path: string;
  line: number;
  column?: number;
}

export function frameArg(frame: WorkspaceFrame): FrameArg {
  return { folder: frame.folder.uri.toString(), path: frame.path, line: frame.line, column: frame.column };
}

/** The file a frame argument names, when it is inside an open workspace folder. */
export function frameTarget(arg: unknown): { uri: vscode.Uri; line: number; column: number } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { folder, path, line, column } = arg as Record<string, unknown>;
  if (typeof folder !== 'string' || typeof path !== 'string' || !Number.isInteger(line) || (line as number) < 1) {
    return undefined;
  }
  const ws = (vscode.workspace.workspaceFolders ?? []).find((f) => f.uri.toString() === folder);
  const parts = path.split('/');
  const safe = path.length <= 4096 && !path.includes('\\') && !path.includes(':');
  if (!ws || !safe || parts.some((p) => p === '' || p === '.' || p === '..')) return undefined;
  const col = Number.isInteger(column) && (column as number) >= 1 ? (column as number) : 1;
  return { uri: vscode.Uri.joinPath(ws.uri, ...parts), line: line as number, column: col };
}

export function registerOpenFrame(): vscode.Disposable {
  return vscode.commands.registerCommand(OPEN_FRAME, async (arg: unknown) => {
    const target = frameTarget(arg);
    if (!target) return false;
    await openAt(target.uri, target.line, target.column, vscode.ViewColumn.Active);
    return true;
  });
}

/** Markdown text shown as text (one line): every character Markdown reads is escaped. */
function esc(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&');
}

/** A Markdown command link opening the frame (the label is escaped; enable `OPEN_FRAME` on the MarkdownString). */
export function frameMarkdownLink(frame: WorkspaceFrame): string {
  return `[${esc(frame.label)}](command:${OPEN_FRAME}?${encodeURIComponent(JSON.stringify([frameArg(frame)]))})`;
}

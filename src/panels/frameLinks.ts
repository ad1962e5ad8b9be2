/**
 * Stack-trace frames that open the source, for the panels that show stack traces (trace and search details): each
 * frame line whose file maps into a workspace folder (`mapPath`: the `observability.codeInsights.pathMappings`
 * prefixes, then the longest common path suffix) gets an opaque id; the page sends the id back and the file opens at
 * the frame's line. The target is always one of the folder's files as `findFiles` lists them, so nothing outside the
 * workspace is opened and a path never escapes its folder. The file list of a folder is read bounded and kept briefly
 * (by each panel, and once for the hovers).
 */
import * as vscode from 'vscode';
import {
  frameLines,
  indexWorkspace,
  mapPath,
  type PrefixMapping,
  type StackLink,
  type WorkspaceIndex,
} from '../codeModel';

const MAX_FILES = 20_000;
const EXCLUDE = '{**/node_modules/**,**/.git/**,**/out/**,**/dist/**,**/build/**,**/target/**}';
/** How long a folder's file list is kept before it is read again. */
const INDEX_MS = 30_000;
/** Most link targets a panel keeps (the oldest go first). */
const MAX_TARGETS = 2000;

/** Folder file lists by folder URI, with when they were read. */
type FolderIndexes = Map<string, { at: number; index: Promise<WorkspaceIndex> }>;

/** The lists the hovers read (each panel keeps its own). */
const shared: FolderIndexes = new Map();

function folderIndex(folder: vscode.WorkspaceFolder, indexes: FolderIndexes): Promise<WorkspaceIndex> {
  const key = folder.uri.toString();
  const hit = indexes.get(key);
  if (hit && Date.now() - hit.at < INDEX_MS) return hit.index;
  const index = Promise.resolve(
    vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*'), EXCLUDE, MAX_FILES),
  ).then((uris) => indexWorkspace(uris.map((u) => vscode.workspace.asRelativePath(u, false))));
  indexes.set(key, { at: Date.now(), index });
  return index;
}

function prefixes(folder: vscode.WorkspaceFolder): PrefixMapping[] {
  const raw = vscode.workspace.getConfiguration('observability.codeInsights', folder.uri).get<unknown>('pathMappings');
  const out: PrefixMapping[] = [];
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    for (const [from, to] of Object.entries(raw as Record<string, unknown>)) {
      if (typeof to === 'string' && from.trim() !== '') out.push({ from, to });
    }
  }
  return out;
}

/** A frame line of a stack trace whose file maps into a workspace folder: the file, line and a label for it. */
export interface WorkspaceFrame {
  /** The line's index in the text. */
  index: number;
  folder: vscode.WorkspaceFolder;
  /** The folder-relative path (`/`-separated, one of the folder's files). */
  path: string;
  uri: vscode.Uri;
  line: number;
  column: number;
  /** `src/pay/charge.ts:42` (with the folder's name when the workspace has several folders). */
  label: string;
}

/** The frame lines of a stack trace that map into the workspace (none without a workspace folder). */
export async function workspaceFrames(text: string, indexes: FolderIndexes = shared): Promise<WorkspaceFrame[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const frames = frameLines(text);
  if (folders.length === 0 || frames.length === 0) return [];
  const out: WorkspaceFrame[] = [];
  for (const frame of frames) {
    for (const folder of folders) {
      const m = mapPath(frame.file, await folderIndex(folder, indexes), prefixes(folder));
      if (m.kind !== 'mapped') continue;
      const where = folders.length > 1 ? `${folder.name}/${m.path}` : m.path;
      out.push({
        index: frame.index,
        folder,
        path: m.path,
        uri: vscode.Uri.joinPath(folder.uri, ...m.path.split('/')),
        line: frame.line,
        column: frame.column ?? 1,
        label: `${where}:${frame.line}`,
      });
      break;
    }
  }
  return out;
}

/** Opens a workspace file at a 1-based line and column, in `viewColumn`. */
export async function openAt(uri: vscode.Uri, line1: number, column1: number, viewColumn: vscode.ViewColumn) {
  const doc = await vscode.workspace.openTextDocument(uri);
  const line = Math.min(Math.max(line1, 1), doc.lineCount) - 1;
  const column = Math.max(column1, 1) - 1;
  const at = new vscode.Position(line, Math.min(column, doc.lineAt(line).text.length));
  await vscode.window.showTextDocument(doc, {
    viewColumn,
    selection: new vscode.Range(at, at),
    preview: true,
  });
}

interface Target {
  uri: vscode.Uri;
  line: number;
  column: number;
}

/** One panel's frame links: the ids it handed out and where they lead. */
export class FrameLinks {
  private readonly targets = new Map<number, Target>();
  private next = 1;
  private readonly indexes: FolderIndexes = new Map();

  /** The links of a stack trace's frame lines that map into the workspace (none without a workspace folder). */
  async links(text: string): Promise<StackLink[]> {
    const out: StackLink[] = [];
    for (const frame of await workspaceFrames(text, this.indexes)) {
      const id = this.next++;
      this.targets.set(id, { uri: frame.uri, line: frame.line, column: frame.column });
      if (this.targets.size > MAX_TARGETS) this.targets.delete(this.targets.keys().next().value as number);
      out.push({ index: frame.index, id, title: vscode.l10n.t('Open {0}', frame.label), label: frame.label });
    }
    return out;
  }

  /** Opens the file of a link at its line, in a column beside the panel's; unknown ids do nothing. */
  async open(id: unknown, beside: vscode.ViewColumn | undefined): Promise<void> {
    const target = typeof id === 'number' ? this.targets.get(id) : undefined;
    if (!target) return;
    const column = beside === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
    await openAt(target.uri, target.line, target.column, column);
  }
}

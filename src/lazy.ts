/**
 * What the thin entry (src/extension.ts) registers at activation so that every view, command and editor feature is
 * there at once while the code behind them (API client, schemas, tree, editors, alert files) loads on first use.
 *
 * This module is part of the activation bundle: it imports nothing but `vscode` and src/constants.ts (and types).
 */
import * as vscode from 'vscode';
import { CODE_INSIGHTS_PICKS_KEY, CONNECTIONS_STATE_KEY, SCHEME_PREFIX } from './constants';

export {
  CONNECTIONS_STATE_KEY,
  RESOURCE_SCHEME,
  CONTEXT_HAS_CONNECTIONS,
  PREVIEW_VIEW_TYPES,
  SCHEME_PREFIX,
  STATUS_FIRST_REFRESH_MS,
  VIEW_ID,
} from './constants';

/** Whether globalState holds at least one saved connection (cheap: no parsing of the entries). */
export function hasSavedConnections(state: vscode.Memento): boolean {
  const raw = state.get<unknown>(CONNECTIONS_STATE_KEY);
  return Array.isArray(raw) && raw.length > 0;
}

/**
 * Whether one of these editors shows a file of a workspace folder that has a code insights pick in workspaceState
 * (read directly: the keys are folder URIs; nothing is parsed beyond them).
 */
export function showsPickedFolderFile(state: vscode.Memento, editors: readonly vscode.TextEditor[]): boolean {
  const raw = state.get<unknown>(CODE_INSIGHTS_PICKS_KEY);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return false;
  const picked = new Set(Object.keys(raw));
  if (picked.size === 0) return false;
  return editors.some((e) => {
    if (e.document.uri.scheme !== 'file') return false;
    const folder = vscode.workspace.getWorkspaceFolder(e.document.uri);
    return folder !== undefined && picked.has(folder.uri.toString());
  });
}

/** An alert file of the workspace (`*.alert.json` outside the extension's own schemes). */
export function isWorkspaceAlertFile(uri: vscode.Uri): boolean {
  return (
    uri.path.endsWith('.alert.json') &&
    !uri.scheme.startsWith(SCHEME_PREFIX) &&
    uri.scheme !== 'git' &&
    uri.scheme !== 'output'
  );
}

/** URIs of the extension's own schemes open in editor tabs (restored from the last session, for example). */
export function ownTabUris(): vscode.Uri[] {
  const out: vscode.Uri[] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      const uris =
        input instanceof vscode.TabInputText
          ? [input.uri]
          : input instanceof vscode.TabInputTextDiff
            ? [input.original, input.modified]
            : [];
      out.push(...uris.filter((u) => u.scheme.startsWith(SCHEME_PREFIX)));
    }
  }
  return out;
}

/**
 * Stand-ins for the contributed commands: each loads the features (which register the real handler in its place) and
 * runs the command again with the same arguments.
 */
export class PlaceholderCommands implements vscode.Disposable {
  private readonly registrations: vscode.Disposable[] = [];

  constructor(
    ids: readonly string[],
    private readonly load: () => unknown,
  ) {
    for (const id of ids) {
      this.registrations.push(
        vscode.commands.registerCommand(id, async (...args: unknown[]) => {
          this.load();
          return vscode.commands.executeCommand(id, ...args);
        }),
      );
    }
  }

  /** Called right before the features register their commands. */
  dispose(): void {
    for (const r of this.registrations.splice(0)) r.dispose();
  }
}

/**
 * The explorer's tree data provider as the view sees it from activation on. It loads the features on the first
 * question the view asks and then answers with the real provider, whose change events it passes on.
 */
export class LazyTreeProvider<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<T | T[] | undefined | null | void>();
  private real: vscode.TreeDataProvider<T> | undefined;
  private subscription: vscode.Disposable | undefined;
  readonly onDidChangeTreeData = this.changes.event;

  constructor(private readonly load: () => unknown) {}

  /** Hands over to the real provider (called by the features while they load). */
  attach(real: vscode.TreeDataProvider<T>): void {
    this.real = real;
    this.subscription?.dispose();
    this.subscription = real.onDidChangeTreeData?.((e) => this.changes.fire(e));
  }

  private provider(): vscode.TreeDataProvider<T> {
    if (!this.real) this.load();
    if (!this.real) throw new Error('The Observability explorer failed to load; see the Observability log.');
    return this.real;
  }

  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.provider().getTreeItem(element);
  }

  getChildren(element?: T): vscode.ProviderResult<T[]> {
    return this.provider().getChildren(element);
  }

  getParent(element: T): vscode.ProviderResult<T> {
    return this.provider().getParent?.(element);
  }

  resolveTreeItem(
    item: vscode.TreeItem,
    element: T,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<vscode.TreeItem> {
    const real = this.provider();
    return real.resolveTreeItem ? real.resolveTreeItem(item, element, token) : item;
  }

  dispose(): void {
    this.subscription?.dispose();
    this.changes.dispose();
  }
}

/**
 * The file system of the editable resource documents (scheme `observability`) as VS Code sees it from activation on.
 * A document of the scheme opened before the features loaded (restored from the last session, or reopened from the
 * editor history) loads them, and every call then goes to their real file system, whose change events it passes
 * on. (A scheme has one provider for the window's lifetime, so this one stays registered.)
 */
export class LazyFileSystemProvider implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  private real: vscode.FileSystemProvider | undefined;
  private subscription: vscode.Disposable | undefined;
  readonly onDidChangeFile = this.changes.event;

  constructor(private readonly load: () => unknown) {}

  /** Hands over to the real file system (called by the features while they load). */
  attach(real: vscode.FileSystemProvider): void {
    this.real = real;
    this.subscription?.dispose();
    this.subscription = real.onDidChangeFile((e) => this.changes.fire(e));
  }

  private fs(): vscode.FileSystemProvider {
    if (!this.real) this.load();
    if (!this.real) {
      throw vscode.FileSystemError.Unavailable(
        vscode.l10n.t('The Observability editor features failed to load; see the Observability log.'),
      );
    }
    return this.real;
  }

  watch(
    uri: vscode.Uri,
    options: { readonly recursive: boolean; readonly excludes: readonly string[] },
  ): vscode.Disposable {
    return this.fs().watch(uri, options);
  }

  stat(uri: vscode.Uri): vscode.FileStat | Thenable<vscode.FileStat> {
    return this.fs().stat(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] | Thenable<[string, vscode.FileType][]> {
    return this.fs().readDirectory(uri);
  }

  createDirectory(uri: vscode.Uri): void | Thenable<void> {
    return this.fs().createDirectory(uri);
  }

  readFile(uri: vscode.Uri): Uint8Array | Thenable<Uint8Array> {
    return this.fs().readFile(uri);
  }

  writeFile(
    uri: vscode.Uri,
    content: Uint8Array,
    options: { readonly create: boolean; readonly overwrite: boolean },
  ): void | Thenable<void> {
    return this.fs().writeFile(uri, content, options);
  }

  delete(uri: vscode.Uri, options: { readonly recursive: boolean }): void | Thenable<void> {
    return this.fs().delete(uri, options);
  }

  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): void | Thenable<void> {
    return this.fs().rename(oldUri, newUri, options);
  }

  dispose(): void {
    this.subscription?.dispose();
    this.changes.dispose();
  }
}

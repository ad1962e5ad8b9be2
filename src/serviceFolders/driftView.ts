import * as vscode from 'vscode';
import { findNodeAtLocation, parseTree } from 'jsonc-parser/lib/esm/main';
import { DIAGNOSTIC_SOURCE } from '../jsonDocuments/diagnostics';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import { SERVICE_FOLDER_TARGET_FILE } from '../jsonDocuments/serviceFolderFiles';
import { driftOf, type DriftEntry, type DriftState } from './drift';
import type { Snapshot } from './files';
import type { FolderFile } from './plan';
import { kindOfFile, TARGET_FILE } from './layout';
import type { PlanResult, ServiceFolderService, ServiceRef } from './service';
import { resourceDriftUri } from '../resources/driftUri';
import type { DriftMark } from '../resources/driftMarks';

/** Read-only documents with the service's version of a file that drifted (the left side of its diff). */
export const DRIFT_SCHEME = 'observability-service-folder-drift';
/** The id of the Source Control lists of service folders (`scmProvider` in `when` clauses). */
export const DRIFT_SCM_ID = 'observabilityServiceFolder';

/** What a refresh found in one folder (returned by the refresh command, for automation and tests). */
export interface FolderDriftReport {
  readonly folder: string;
  /** Why the service could not be compared (no connection, a failed request): nothing is marked then. */
  readonly error?: string;
  readonly changes: readonly {
    readonly path: string;
    readonly state: DriftState;
    /** The Source Control group that lists it. */
    readonly group: string;
    /** The Explorer's mark of the file (none for a resource only on the service: it has no file). */
    readonly badge?: string;
    readonly tooltip: string;
  }[];
  /** The Observability tree items of the folder's service that are marked (the service, each drifted resource). */
  readonly treeMarks?: readonly { readonly uri: string; readonly badge?: string; readonly tooltip: string }[];
}

interface FolderState {
  readonly folder: vscode.Uri;
  readonly live?: Snapshot;
  readonly files?: readonly FolderFile[];
  readonly serviceLabel: string;
  readonly entries: readonly DriftEntry[];
  readonly error?: string;
  /** The folder's own service (its items in the Observability tree are marked too). */
  readonly target?: ServiceRef;
}

interface FolderControl {
  readonly scm: vscode.SourceControl;
  readonly groups: Record<'changed' | 'folderOnly' | 'serviceOnly', vscode.SourceControlResourceGroup>;
}

const GROUP_OF: Record<DriftState, keyof FolderControl['groups']> = {
  changed: 'changed',
  problem: 'changed',
  folderOnly: 'folderOnly',
  serviceOnly: 'serviceOnly',
};

/**
 * Marks the files of service folders that differ from their service — a badge and tooltip in the Explorer (a file
 * decoration) and a Source Control list per folder whose entries open the diff of the service's version against the
 * file. The service is read (one list per kind) on the view's Refresh, after a pull or apply and on this feature's
 * own Refresh; a plan's lists are reused; a save compares the files again with the lists read last (no request).
 */
export class ServiceFolderDrift
  implements vscode.FileDecorationProvider, vscode.TextDocumentContentProvider, vscode.Disposable
{
  private readonly states = new Map<string, FolderState>();
  private readonly controls = new Map<string, FolderControl>();
  private readonly decorations = new Map<string, vscode.FileDecoration>();
  /** The keys of `decorations` that mark Observability tree items (resource drift URIs). */
  private readonly treeMarks = new Set<string>();
  /** The service's versions of the drifted files, per folder. */
  private readonly texts = new Map<string, Map<string, string>>();
  private readonly decorationsChanged = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChangeFileDecorations = this.decorationsChanged.event;
  private readonly textChanged = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.textChanged.event;
  private readonly updated = new vscode.EventEmitter<void>();
  /** Fires when a folder was compared again (CodeLens redraw). */
  readonly onDidUpdate = this.updated.event;
  /** Problems of the plan (a name that resolves to nothing, a body the service refuses) on the files. */
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('observability-service-folders');
  /** Refreshes run one after the other (a save during a refresh waits for it). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly service: ServiceFolderService,
    private readonly log: Logger,
    /** Hears every mark of the Observability tree's items (the tree shows their words). */
    private readonly publishTreeMarks?: (marks: readonly DriftMark[]) => void,
  ) {}

  dispose(): void {
    if (this.typing) clearTimeout(this.typing);
    for (const control of this.controls.values()) control.scm.dispose();
    this.controls.clear();
    this.decorationsChanged.dispose();
    this.textChanged.dispose();
    this.updated.dispose();
    this.diagnostics.dispose();
  }

  /** What is known of the folder of a file: its files and its service's lists (read last), for completion and hover. */
  contextOf(
    uri: vscode.Uri,
  ): { readonly files: readonly FolderFile[]; readonly live?: Snapshot; readonly serviceLabel: string } | undefined {
    const folder = this.folderOfFile(uri);
    const state = folder ? this.states.get(folder.toString()) : undefined;
    if (!state) return undefined;
    return { files: state.files ?? [], ...(state.live ? { live: state.live } : {}), serviceLabel: state.serviceLabel };
  }

  /** The service's version of a file that differs from it (for Compare), when there is one. */
  serviceVersionOf(uri: vscode.Uri): vscode.Uri | undefined {
    const folder = this.folderOfFile(uri);
    const state = folder ? this.states.get(folder.toString()) : undefined;
    const entry = state?.entries.find(
      (e) => e.state === 'changed' && this.fileUri(state.folder, e.path).toString() === uri.toString(),
    );
    return state && entry ? this.serviceUri(state.folder, entry.path) : undefined;
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    return this.decorations.get(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    for (const texts of this.texts.values()) {
      const text = texts.get(uri.toString());
      if (text !== undefined) return text;
    }
    return '';
  }

  /** The service folder a file belongs to (the target file's folder, or its kind sub-folder's parent). */
  folderOfFile(uri: vscode.Uri): vscode.Uri | undefined {
    if (uri.scheme !== 'file') return undefined;
    const name = uri.path.split('/').pop() ?? '';
    if (name === SERVICE_FOLDER_TARGET_FILE) return vscode.Uri.joinPath(uri, '..');
    if (!kindOfFile(name)) return undefined;
    const folder = vscode.Uri.joinPath(uri, '..', '..');
    return this.states.has(folder.toString()) ? folder : undefined;
  }

  /** Every service folder of the workspace, read from its service again. */
  refreshAll(): Promise<FolderDriftReport[]> {
    return this.enqueue(async () => {
      const found = await vscode.workspace.findFiles(`**/${TARGET_FILE}`, '**/node_modules/**');
      const folders = new Map<string, vscode.Uri>();
      for (const uri of found) folders.set(vscode.Uri.joinPath(uri, '..').toString(), vscode.Uri.joinPath(uri, '..'));
      for (const state of this.states.values()) {
        if (!folders.has(state.folder.toString())) this.forget(state.folder);
      }
      const reports: FolderDriftReport[] = [];
      for (const folder of folders.values()) reports.push(await this.update(folder, 'read'));
      return reports;
    });
  }

  /** One folder: `read` reads its service again, `files` compares the files with the lists read last. */
  refresh(folder: vscode.Uri, how: 'read' | 'files'): Promise<FolderDriftReport> {
    return this.enqueue(() => this.update(folder, how));
  }

  /** What every folder shows now, once the refreshes under way are done (no request). */
  shown(): Promise<FolderDriftReport[]> {
    return this.enqueue(async () => [...this.states.values()].map((state) => this.reportOf(state)));
  }

  /** A plan of a folder against its own service: its lists are the service's latest, no request needed. */
  planned(result: PlanResult): void {
    if (!result.options.ownTarget) return;
    void this.enqueue(() => this.update(result.folder, result.live));
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async update(folder: vscode.Uri, how: 'read' | 'files' | Snapshot): Promise<FolderDriftReport> {
    const previous = this.states.get(folder.toString());
    let state: FolderState;
    try {
      let live = typeof how === 'object' ? how : how === 'files' ? previous?.live : undefined;
      if (!live) {
        live = await vscode.window.withProgress({ location: vscode.ProgressLocation.SourceControl }, () =>
          this.service.readOwnService(folder),
        );
      }
      const planned = await this.service.planQuietly(folder, undefined, live);
      state = {
        folder,
        live,
        files: planned.files,
        serviceLabel: planned.options.serviceLabel,
        entries: driftOf(planned.files, live, planned.options),
        target: planned.target,
      };
    } catch (error) {
      const message = errorMessage(error);
      this.log.warn(`Service folder ${folder.fsPath}: could not compare with the service: ${message}`);
      state = { folder, serviceLabel: previous?.serviceLabel ?? '', entries: [], error: message };
    }
    this.show(state, previous);
    await this.showProblems(state, previous);
    this.updated.fire();
    return this.reportOf(state);
  }

  private forget(folder: vscode.Uri): void {
    const previous = this.states.get(folder.toString());
    if (!previous) return;
    this.show({ folder, serviceLabel: previous.serviceLabel, entries: [] }, previous);
    for (const entry of previous.entries) this.diagnostics.delete(this.fileUri(folder, entry.path));
    this.states.delete(folder.toString());
    this.texts.delete(folder.toString());
    this.controls.get(folder.toString())?.scm.dispose();
    this.controls.delete(folder.toString());
  }

  private fileUri(folder: vscode.Uri, path: string): vscode.Uri {
    return vscode.Uri.joinPath(folder, ...path.split('/'));
  }

  private serviceUri(folder: vscode.Uri, path: string): vscode.Uri {
    return vscode.Uri.from({ scheme: DRIFT_SCHEME, path: `/${path}`, query: folder.toString() });
  }

  private tooltipOf(entry: DriftEntry, serviceLabel: string): string {
    switch (entry.state) {
      case 'changed':
        return vscode.l10n.t('Differs from {0}: {1}', serviceLabel, entry.details.join(', '));
      case 'folderOnly':
        return vscode.l10n.t('Not on {0}: Apply creates it', serviceLabel);
      case 'serviceOnly':
        return vscode.l10n.t('Only on {0}: Pull writes it into the folder', serviceLabel);
      case 'problem':
        return vscode.l10n.t('The plan cannot use this file: {0}', entry.details.join('; '));
    }
  }

  private decorationOf(entry: DriftEntry, tooltip: string): vscode.FileDecoration | undefined {
    switch (entry.state) {
      case 'changed':
        return new vscode.FileDecoration(
          'M',
          tooltip,
          new vscode.ThemeColor('gitDecoration.modifiedResourceForeground'),
        );
      case 'folderOnly':
        return new vscode.FileDecoration(
          'A',
          tooltip,
          new vscode.ThemeColor('gitDecoration.untrackedResourceForeground'),
        );
      case 'problem':
        return new vscode.FileDecoration('!', tooltip, new vscode.ThemeColor('list.errorForeground'));
      case 'serviceOnly':
        return undefined;
    }
  }

  private show(state: FolderState, previous: FolderState | undefined): void {
    const key = state.folder.toString();
    this.states.set(key, state);
    const touched = new Map<string, vscode.Uri>();
    for (const entry of previous?.entries ?? []) {
      const uri = this.fileUri(state.folder, entry.path);
      this.decorations.delete(uri.toString());
      touched.set(uri.toString(), uri);
    }
    const texts = new Map<string, string>();
    this.texts.set(key, texts);
    const control = this.controlOf(state);
    const resources: Record<keyof FolderControl['groups'], vscode.SourceControlResourceState[]> = {
      changed: [],
      folderOnly: [],
      serviceOnly: [],
    };
    for (const entry of state.entries) {
      const uri = this.fileUri(state.folder, entry.path);
      const tooltip = this.tooltipOf(entry, state.serviceLabel);
      const decoration = this.decorationOf(entry, tooltip);
      if (decoration) {
        decoration.propagate = true;
        this.decorations.set(uri.toString(), decoration);
        touched.set(uri.toString(), uri);
      }
      let command: vscode.Command;
      if (entry.serviceText !== undefined) {
        const serviceUri = this.serviceUri(state.folder, entry.path);
        texts.set(serviceUri.toString(), entry.serviceText);
        this.textChanged.fire(serviceUri);
        command =
          entry.state === 'changed'
            ? {
                title: vscode.l10n.t('Compare with the Service'),
                command: 'vscode.diff',
                arguments: [serviceUri, uri, vscode.l10n.t('{0}: service ↔ folder', entry.path)],
              }
            : { title: vscode.l10n.t('Open'), command: 'vscode.open', arguments: [serviceUri] };
      } else {
        command = { title: vscode.l10n.t('Open'), command: 'vscode.open', arguments: [uri] };
      }
      resources[GROUP_OF[entry.state]].push({
        resourceUri: uri,
        command,
        decorations: {
          tooltip,
          strikeThrough: entry.state === 'serviceOnly',
          faded: entry.state === 'serviceOnly',
        },
      });
    }
    for (const [id, group] of Object.entries(control.groups)) {
      group.resourceStates = resources[id as keyof FolderControl['groups']];
    }
    control.scm.count = state.entries.length;
    this.showInTree(touched);
    if (touched.size > 0) this.decorationsChanged.fire([...touched.values()]);
  }

  /**
   * The Observability tree's marks: each resource whose file differs from it, and the service of a folder with any
   * drift. Marks are recomputed from every folder (two folders may be pulled from the same service).
   */
  private showInTree(touched: Map<string, vscode.Uri>): void {
    for (const key of this.treeMarks) {
      this.decorations.delete(key);
      touched.set(key, vscode.Uri.parse(key));
    }
    this.treeMarks.clear();
    const published: DriftMark[] = [];
    const services = new Map<
      string,
      { uri: vscode.Uri; count: number; label: string; connectionId: string; serviceId: string }
    >();
    for (const folder of this.states.values()) {
      if (!folder.target || folder.entries.length === 0) continue;
      const { connectionId, serviceId } = folder.target;
      const service = vscode.Uri.parse(resourceDriftUri(connectionId, serviceId));
      const seen = services.get(service.toString()) ?? {
        uri: service,
        count: 0,
        label: folder.serviceLabel,
        connectionId,
        serviceId,
      };
      seen.count += folder.entries.length;
      services.set(service.toString(), seen);
      for (const entry of folder.entries) {
        if (entry.state !== 'changed' || !entry.kind || entry.id === undefined) continue;
        const uri = vscode.Uri.parse(resourceDriftUri(connectionId, serviceId, { kind: entry.kind, id: entry.id }));
        const decoration = this.decorationOf(entry, this.tooltipOf(entry, folder.serviceLabel));
        if (!decoration) continue;
        this.decorations.set(uri.toString(), decoration);
        this.treeMarks.add(uri.toString());
        published.push({
          connectionId,
          serviceId,
          resource: { kind: entry.kind, id: entry.id },
          ...(decoration.badge ? { badge: decoration.badge } : {}),
          tooltip: decoration.tooltip ?? '',
        });
        touched.set(uri.toString(), uri);
      }
    }
    for (const [key, { uri, count, label, connectionId, serviceId }] of services) {
      const tooltip =
        count === 1
          ? vscode.l10n.t('1 file of a service folder differs from {0}', label)
          : vscode.l10n.t('{0} files of a service folder differ from {1}', count, label);
      this.decorations.set(
        key,
        new vscode.FileDecoration('M', tooltip, new vscode.ThemeColor('gitDecoration.modifiedResourceForeground')),
      );
      this.treeMarks.add(key);
      touched.set(key, uri);
      published.push({ connectionId, serviceId, badge: 'M', tooltip });
    }
    this.publishTreeMarks?.(published);
  }

  /** The plan's problems as diagnostics, at the field they name (`sourceName: no source named …`). */
  private async showProblems(state: FolderState, previous: FolderState | undefined): Promise<void> {
    for (const entry of previous?.entries ?? []) this.diagnostics.delete(this.fileUri(state.folder, entry.path));
    for (const entry of state.entries) {
      if (entry.state !== 'problem' || !entry.kind) continue;
      const uri = this.fileUri(state.folder, entry.path);
      let text = '';
      try {
        const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        text = '';
      }
      this.diagnostics.set(
        uri,
        entry.details.map((message) => {
          const diagnostic = new vscode.Diagnostic(rangeIn(text, message), message, vscode.DiagnosticSeverity.Error);
          diagnostic.source = DIAGNOSTIC_SOURCE;
          return diagnostic;
        }),
      );
    }
  }

  private controlOf(state: FolderState): FolderControl {
    const key = state.folder.toString();
    const known = this.controls.get(key);
    if (known) return known;
    const label = vscode.l10n.t('Service folder {0}', vscode.workspace.asRelativePath(state.folder));
    const scm = vscode.scm.createSourceControl(DRIFT_SCM_ID, label, state.folder);
    scm.inputBox.visible = false;
    const group = (id: string, title: string) => {
      const g = scm.createResourceGroup(id, title);
      g.hideWhenEmpty = true;
      return g;
    };
    const control: FolderControl = {
      scm,
      groups: {
        changed: group('changed', vscode.l10n.t('Differs from the service')),
        folderOnly: group('folderOnly', vscode.l10n.t('Only in the folder')),
        serviceOnly: group('serviceOnly', vscode.l10n.t('Only on the service')),
      },
    };
    this.controls.set(key, control);
    return control;
  }

  private reportOf(state: FolderState): FolderDriftReport {
    const control = this.controls.get(state.folder.toString());
    const changes: FolderDriftReport['changes'][number][] = [];
    for (const [id, group] of Object.entries(control?.groups ?? {})) {
      for (const r of group.resourceStates) {
        const entry = state.entries.find(
          (e) => this.fileUri(state.folder, e.path).toString() === r.resourceUri.toString(),
        );
        if (!entry) continue;
        const badge = this.provideFileDecoration(r.resourceUri)?.badge;
        changes.push({
          path: entry.path,
          state: entry.state,
          group: id,
          ...(badge ? { badge } : {}),
          tooltip: r.decorations?.tooltip ?? '',
        });
      }
    }
    const treeMarks: { uri: string; badge?: string; tooltip: string }[] = [];
    if (state.target) {
      const service = vscode.Uri.parse(resourceDriftUri(state.target.connectionId, state.target.serviceId)).toString();
      for (const key of [...this.treeMarks].sort()) {
        if (key !== service && !key.startsWith(`${service}/`)) continue;
        const decoration = this.provideFileDecoration(vscode.Uri.parse(key));
        if (!decoration) continue;
        treeMarks.push({
          uri: key,
          ...(decoration.badge ? { badge: decoration.badge } : {}),
          tooltip: decoration.tooltip ?? '',
        });
      }
    }
    return {
      folder: state.folder.toString(),
      ...(state.error !== undefined ? { error: state.error } : {}),
      changes: changes.sort((a, b) => a.path.localeCompare(b.path)),
      treeMarks,
    };
  }

  /** Compares the files of the folder of a saved file again (with the lists read last). */
  saved(doc: vscode.TextDocument): void {
    const folder = this.folderOfFile(doc.uri);
    if (folder) void this.refresh(folder, 'files');
  }

  private typing: ReturnType<typeof setTimeout> | undefined;

  /** A file of a folder is being edited: compared again (with the lists read last) once typing pauses. */
  typed(doc: vscode.TextDocument): void {
    const folder = this.folderOfFile(doc.uri);
    if (!folder) return;
    if (this.typing) clearTimeout(this.typing);
    this.typing = setTimeout(() => void this.refresh(folder, 'files'), 400);
  }

  /** A pull (with the lists it read) or an apply (its service is read again) changed a folder. */
  changed(folder: vscode.Uri, live?: Snapshot): void {
    void this.enqueue(() => this.update(folder, live ?? 'read')).catch((error) => this.log.warn(errorMessage(error)));
  }
}

/** Where in a file's text a problem is: the field its message starts with (`tiles.0.config.sourceName: …`), else the top. */
export function rangeIn(text: string, message: string): vscode.Range {
  const at = /^([\w$]+(?:\.[\w$]+)*): /.exec(message)?.[1];
  const root = text ? parseTree(text) : undefined;
  if (!at || !root) return new vscode.Range(0, 0, 0, 0);
  const path = at.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  for (let n = path.length; n > 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n));
    if (!node) continue;
    const start = positionIn(text, node.offset);
    const end = positionIn(text, node.offset + node.length);
    return new vscode.Range(start, end);
  }
  return new vscode.Range(0, 0, 0, 0);
}

function positionIn(text: string, offset: number): vscode.Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return new vscode.Position(line, offset - (before.lastIndexOf('\n') + 1));
}

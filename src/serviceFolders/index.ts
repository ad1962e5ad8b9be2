import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import type { DriftMarks } from '../resources/driftMarks';
import type { ResourceRefresher } from '../resources/model';
import { registerCommands } from './commands';
import { PLAN_SCHEME, ServiceFolderService } from './service';
import { ServiceFolderCodeLensProvider } from './codeLens';
import { DRIFT_SCHEME, ServiceFolderDrift } from './driftView';
import { ServiceFolderNameHelp } from './editorHelp';
import { LAYOUT, FOLDER_KINDS, TARGET_FILE } from './layout';

export interface ServiceFolderRegistrationDeps {
  readonly connections: ConnectionManager;
  /** Reloads what the tree shows after a change (the explorer's provider). */
  readonly refresh: ResourceRefresher;
  readonly log: Logger;
  /** Fires when the explorer reloads everything (its Refresh): the folders' services are read again. */
  readonly refreshedAll?: vscode.Event<void>;
  /** Where the drift marks of the Observability tree's items go (the tree shows their words). */
  readonly driftMarks?: DriftMarks;
}

/**
 * Service folders: a whole service as code (sources, saved searches, webhooks, dashboards and alerts, one file each,
 * references by name): pull, plan, apply and promote.
 */
export function registerServiceFolders(
  context: vscode.ExtensionContext,
  deps: ServiceFolderRegistrationDeps,
): ServiceFolderService {
  const service = new ServiceFolderService({ ...deps, state: context.workspaceState });
  const drift = new ServiceFolderDrift(service, deps.log, (marks) => deps.driftMarks?.replace(marks));
  const nameHelp = new ServiceFolderNameHelp(drift);
  context.subscriptions.push(
    service,
    drift,
    vscode.window.registerFileDecorationProvider(drift),
    vscode.workspace.registerTextDocumentContentProvider(DRIFT_SCHEME, drift),
    vscode.workspace.onDidSaveTextDocument((doc) => drift.saved(doc)),
    service.onDidChange((change) => drift.changed(change.folder, change.live)),
    service.onDidPlan((result) => drift.planned(result)),
    ...(deps.refreshedAll ? [deps.refreshedAll(() => void drift.refreshAll())] : []),
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, service.plans),
    vscode.languages.registerCodeLensProvider(
      [
        { scheme: 'file', pattern: `**/${TARGET_FILE}` },
        ...FOLDER_KINDS.map((kind) => ({
          scheme: 'file',
          pattern: `**/${LAYOUT[kind].folder}/*${LAYOUT[kind].suffix}`,
        })),
      ],
      new ServiceFolderCodeLensProvider((uri) => drift.serviceVersionOf(uri), drift.onDidUpdate),
    ),
    vscode.languages.registerCompletionItemProvider(ServiceFolderNameHelp.selector(), nameHelp, '"'),
    vscode.languages.registerHoverProvider(ServiceFolderNameHelp.selector(), nameHelp),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0) drift.typed(e.document);
    }),
  );
  registerCommands(context, { connections: deps.connections, service, drift });
  if (vscode.workspace.isTrusted) void drift.refreshAll();
  return service;
}

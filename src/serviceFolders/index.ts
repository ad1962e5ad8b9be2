import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import type { ResourceRefresher } from '../resources/model';
import { registerCommands } from './commands';
import { PLAN_SCHEME, ServiceFolderService } from './service';
import { ServiceFolderCodeLensProvider } from './codeLens';
import { LAYOUT, FOLDER_KINDS, TARGET_FILE } from './layout';

export interface ServiceFolderRegistrationDeps {
  readonly connections: ConnectionManager;
  /** Reloads what the tree shows after a change (the explorer's provider). */
  readonly refresh: ResourceRefresher;
  readonly log: Logger;
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
  context.subscriptions.push(
    service,
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, service.plans),
    vscode.languages.registerCodeLensProvider(
      [
        { scheme: 'file', pattern: `**/${TARGET_FILE}` },
        ...FOLDER_KINDS.map((kind) => ({
          scheme: 'file',
          pattern: `**/${LAYOUT[kind].folder}/*${LAYOUT[kind].suffix}`,
        })),
      ],
      new ServiceFolderCodeLensProvider(),
    ),
  );
  registerCommands(context, { connections: deps.connections, service });
  return service;
}

import * as vscode from 'vscode';
import { registerCommands as registerEditorCommands } from './commands';
import type { ConnectionManager } from '../connections/manager';
import { APPLYING_CONTEXT_KEY, ResourceApplier } from './apply';
import { ApplyCodeLensProvider } from './codeLens';
import { LiveCompletionProvider } from '../jsonDocuments/completion';
import { IdNameInlayHintsProvider } from '../jsonDocuments/inlayHints';
import { DocumentChecks, resourceDocuments } from '../jsonDocuments/diagnostics';
import { editableText, editableValue } from '../jsonDocuments/documents';
import { ResourceFileSystem, type Loaded } from './fileSystem';
import type { LiveData } from '../resources/live';
import type { ResourceRefresher } from '../resources/model';
import { SERVER_SCHEME, ServerDocuments } from '../jsonDocuments/serverDocuments';
import { RESOURCE_SCHEME, useServiceNames, type ResourceRef } from '../jsonDocuments/uris';
import type { Logger } from '../log';
import type { WritePipeline } from '../writes/pipeline';
import { WRITE_REQUESTS } from '../resources/requests';
import { DashboardValidator } from './validateDashboard';
import { registerValidateDashboard } from './commands/validateDashboard';

export { RESOURCE_SCHEME } from '../jsonDocuments/uris';

export interface EditorDeps {
  readonly connections: ConnectionManager;
  readonly live: LiveData;
  /** Reloads what the tree shows after a change (the explorer's provider). */
  readonly refresh: ResourceRefresher;
  readonly log: Logger;
  /** Creates and updates resources on the service (src/writes). */
  readonly writes: WritePipeline;
  /**
   * Serves the documents' file system under the `observability` scheme: the entry registered it for the scheme at
   * activation, so that documents of the scheme opened before these features loaded load them.
   */
  attachFileSystem(fs: vscode.FileSystemProvider): void;
}

/**
 * JSON editors for alerts, dashboards and the service query endpoint: the `observability:` file system, live checks
 * and completion, the "what will change" diffs, and the commands that open and apply documents.
 */
export function registerEditors(context: vscode.ExtensionContext, deps: EditorDeps): void {
  const { connections, live, refresh, log, writes } = deps;
  // Tabs and breadcrumbs name the connection and the service instead of showing their IDs.
  useServiceNames({
    namesOf: (connectionId, serviceId) => {
      const connection = connections.get(connectionId);
      const service = connection?.services.find((s) => s.id === serviceId);
      return connection && service?.name ? { connection: connection.label, service: service.name } : undefined;
    },
    all: () =>
      connections.list().flatMap((c) =>
        c.services
          .filter((s) => s.name)
          .map((s) => ({
            connectionId: c.id,
            connection: c.label,
            serviceId: s.id,
            service: s.name as string,
          })),
      ),
  });
  context.subscriptions.push({ dispose: () => useServiceNames(undefined) });

  const load = async (ref: ResourceRef): Promise<Loaded> => {
    const client = connections.clientFor(ref.connectionId);
    // A singleton (the query endpoint) may not exist yet: its document then starts as the template.
    const value = (await WRITE_REQUESTS[ref.kind].get(client, ref.serviceId, ref.id)).data;
    return { text: editableText(ref.kind, value), base: value, exists: value !== null };
  };

  const fs = new ResourceFileSystem(load);
  const checks = new DocumentChecks(
    resourceDocuments(live, (ref) => {
      const held = fs.get(ref);
      return held?.exists && held.base !== undefined ? editableValue(ref.kind, held.base) : undefined;
    }),
  );
  const server = new ServerDocuments();
  const applier = new ResourceApplier({ connections, tree: refresh, fs, checks, live, server, log, writes });
  void vscode.commands.executeCommand('setContext', APPLYING_CONTEXT_KEY, false);

  const lenses = new ApplyCodeLensProvider(fs, live, applier);
  deps.attachFileSystem(fs);
  context.subscriptions.push(
    fs,
    checks,
    server,
    applier,
    lenses,
    vscode.languages.registerCodeLensProvider({ scheme: RESOURCE_SCHEME }, lenses),
    vscode.workspace.registerTextDocumentContentProvider(SERVER_SCHEME, server),
    vscode.languages.registerCompletionItemProvider(
      LiveCompletionProvider.selector,
      new LiveCompletionProvider(live),
      '"',
      ':',
    ),
    vscode.languages.registerInlayHintsProvider(
      IdNameInlayHintsProvider.resourceSelector,
      new IdNameInlayHintsProvider(live),
    ),
  );
  registerEditorCommands(context, { connections, tree: refresh, fs, live, applier, log });
  registerValidateDashboard(context, new DashboardValidator({ connections, checks, live, server, log }));
}

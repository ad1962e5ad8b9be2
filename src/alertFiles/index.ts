import * as vscode from 'vscode';
import { registerCommands as registerAlertFileCommands } from './commands';
import type { ConnectionManager } from '../connections/manager';
import { LiveCompletionProvider } from '../jsonDocuments/completion';
import { IdNameInlayHintsProvider } from '../jsonDocuments/inlayHints';
import type { LiveData } from '../resources/live';
import type { ResourceRefresher } from '../resources/model';
import { AlertFileChecks } from './checks';
import { AlertFileCodeLensProvider } from './codeLens';
import { targetOf } from './format';
import { AlertFileService } from './service';
import { NameCompletionProvider, NameInlayHintsProvider } from './nameProviders';
import { parseAlertFile } from './text';
import { connectionFor } from '../connections/fileTarget';
import { isAlertFileUri, PREVIEW_SCHEME, PreviewDocuments } from './workspace';
import type { Logger } from '../log';
import type { WritePipeline } from '../writes/pipeline';

export interface AlertFileRegistrationDeps {
  readonly connections: ConnectionManager;
  readonly live: LiveData;
  /** Reloads what the tree shows after a change (the explorer's provider). */
  readonly refresh: ResourceRefresher;
  readonly log: Logger;
  /** Creates and updates resources on the service (src/writes). */
  readonly writes: WritePipeline;
}

/** Alert files in the workspace (`*.alert.json`): diagnostics, live completion, CodeLens, apply, plan, export. */
export function registerAlertFiles(
  context: vscode.ExtensionContext,
  deps: AlertFileRegistrationDeps,
): AlertFileService {
  const { connections, live, refresh, log } = deps;
  const checks = new AlertFileChecks(connections, live);
  const previews = new PreviewDocuments();
  const service = new AlertFileService({ connections, tree: refresh, checks, previews, log, writes: deps.writes });
  const lenses = new AlertFileCodeLensProvider(connections, service);
  const nameWhere = (doc: vscode.TextDocument) => {
    if (!vscode.workspace.isTrusted || !isAlertFileUri(doc.uri)) return undefined;
    const target = targetOf(parseAlertFile(doc.getText()).value);
    const connection = connectionFor(connections, target.organizationId, target.serviceId, target.baseUrl);
    return connection && target.serviceId
      ? { connectionId: connection.connectionId, serviceId: target.serviceId, serviceLabel: connection.serviceLabel }
      : undefined;
  };
  const completion = new LiveCompletionProvider(live, (doc) => {
    if (!vscode.workspace.isTrusted || !isAlertFileUri(doc.uri)) return undefined;
    const target = targetOf(parseAlertFile(doc.getText()).value);
    const connection = connectionFor(connections, target.organizationId, target.serviceId, target.baseUrl);
    return connection && target.serviceId
      ? { connectionId: connection.connectionId, serviceId: target.serviceId, kind: 'alert' }
      : undefined;
  });
  context.subscriptions.push(
    checks,
    previews,
    service,
    lenses,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.languages.registerCodeLensProvider(
      [{ scheme: 'file', pattern: '**/*.alert.json' }, { scheme: PREVIEW_SCHEME }],
      lenses,
    ),
    vscode.languages.registerCompletionItemProvider(
      [{ scheme: 'file', pattern: '**/*.alert.json' }],
      completion,
      '"',
      ':',
    ),
    vscode.languages.registerCompletionItemProvider(
      [{ scheme: 'file', pattern: '**/*.alert.json' }],
      new NameCompletionProvider(live, nameWhere),
      '"',
      ':',
    ),
    vscode.languages.registerInlayHintsProvider(
      [{ scheme: 'file', pattern: '**/*.alert.json' }],
      new NameInlayHintsProvider(live, nameWhere),
    ),
    vscode.languages.registerInlayHintsProvider(
      [{ scheme: 'file', pattern: '**/*.alert.json' }],
      new IdNameInlayHintsProvider(live, (doc) => {
        if (!vscode.workspace.isTrusted || !isAlertFileUri(doc.uri)) return undefined;
        const target = targetOf(parseAlertFile(doc.getText()).value);
        const connection = connectionFor(connections, target.organizationId, target.serviceId, target.baseUrl);
        return connection && target.serviceId
          ? { connectionId: connection.connectionId, serviceId: target.serviceId }
          : undefined;
      }),
    ),
  );
  registerAlertFileCommands(context, { connections, service });
  return service;
}

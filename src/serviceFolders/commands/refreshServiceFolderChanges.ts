import * as vscode from 'vscode';
import { folderArgs, toUri, type ServiceFolderCommandDeps } from './common';
import type { FolderDriftReport } from '../driftView';

/**
 * `observability.refreshServiceFolderChanges`: reads the services of the workspace's service folders again (one list
 * per kind each) and marks the files that differ; `{ folder }` (or a Source Control list's title) for one folder; `{ shown: true }` only
 * returns what is shown (no request). Returns what each folder shows.
 */
export function registerRefreshServiceFolderChanges(
  context: vscode.ExtensionContext,
  deps: ServiceFolderCommandDeps,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'observability.refreshServiceFolderChanges',
      async (arg: unknown): Promise<FolderDriftReport[]> => {
        if ((arg as { shown?: unknown } | undefined)?.shown === true) return deps.drift.shown();
        const root = (arg as { rootUri?: unknown } | undefined)?.rootUri;
        const folder = root instanceof vscode.Uri ? root : toUri(folderArgs(arg).folder);
        if (folder) return [await deps.drift.refresh(folder, 'read')];
        return deps.drift.refreshAll();
      },
    ),
  );
}

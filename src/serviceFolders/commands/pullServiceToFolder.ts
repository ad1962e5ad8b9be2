import * as vscode from 'vscode';
import { errorMessage } from '../../errors';
import { folderArgs, serviceRefOf, toUri, type ServiceFolderCommandDeps } from './common';
import type { PullResult } from '../service';

/** `observability.pullServiceToFolder`: a service's resources into a workspace folder (merged when pulled before). */
export function registerPullServiceToFolder(context: vscode.ExtensionContext, deps: ServiceFolderCommandDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'observability.pullServiceToFolder',
      async (arg: unknown): Promise<PullResult | undefined> => {
        const args = folderArgs(arg);
        const ref = await serviceRefOf(arg, deps.connections, vscode.l10n.t('Service to pull'));
        if (!ref) return undefined;
        let folder = toUri(args.folder);
        if (!folder) {
          const picked = await vscode.window.showOpenDialog({
            canSelectFiles: false,
            canSelectFolders: true,
            canSelectMany: false,
            openLabel: vscode.l10n.t('Pull into This Folder'),
            ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
          });
          folder = picked?.[0];
        }
        if (!folder) return undefined;
        try {
          const result = await deps.service.pull(ref, folder, args.noPrompt === true);
          if (!args.noPrompt) {
            const conflicts = result.conflicts.length;
            void vscode.window.showInformationMessage(
              conflicts > 0
                ? vscode.l10n.t(
                    'Pulled into {0}: {1} file(s) written; {2} file(s) changed on both sides kept their values (see the diffs).',
                    vscode.workspace.asRelativePath(folder),
                    result.written.length,
                    conflicts,
                  )
                : vscode.l10n.t(
                    'Pulled into {0}: {1} file(s) written.',
                    vscode.workspace.asRelativePath(folder),
                    result.written.length,
                  ),
            );
          }
          return result;
        } catch (error) {
          const message = vscode.l10n.t('Pull to Folder failed: {0}', errorMessage(error));
          if (!args.noPrompt) void vscode.window.showErrorMessage(message);
          throw new Error(message);
        }
      },
    ),
  );
}

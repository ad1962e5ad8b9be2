import * as vscode from 'vscode';
import { folderArgs, serviceFolderOf, serviceRefOf, type ServiceFolderCommandDeps } from './common';
import type { ApplyResult } from '../service';

/**
 * `observability.promoteServiceFolder`: applies a service folder to another service or connection (staging →
 * production, Cloud → self-hosted). Names are resolved there; files keep the IDs of their own service.
 */
export function registerPromoteServiceFolder(context: vscode.ExtensionContext, deps: ServiceFolderCommandDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'observability.promoteServiceFolder',
      async (arg: unknown): Promise<ApplyResult | undefined> => {
        const folder = await serviceFolderOf(arg);
        if (!folder) return undefined;
        const args = folderArgs(arg);
        const other = await serviceRefOf(
          args.connectionId ? args : {},
          deps.connections,
          vscode.l10n.t('Service to promote the folder to'),
        );
        if (!other) return undefined;
        return deps.service.apply(folder, {
          other,
          noPrompt: args.noPrompt === true,
          ...(args.connectionMap ? { connectionMap: args.connectionMap } : {}),
        });
      },
    ),
  );
}

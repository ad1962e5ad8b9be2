import * as vscode from 'vscode';
import { folderArgs, serviceFolderOf, type ServiceFolderCommandDeps } from './common';
import type { ApplyResult } from '../service';

/** `observability.applyServiceFolder`: applies a service folder to its own service (plans, confirms, applies). */
export function registerApplyServiceFolder(context: vscode.ExtensionContext, deps: ServiceFolderCommandDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'observability.applyServiceFolder',
      async (arg: unknown): Promise<ApplyResult | undefined> => {
        const folder = await serviceFolderOf(arg);
        if (!folder) return undefined;
        const args = folderArgs(arg);
        return deps.service.apply(folder, {
          noPrompt: args.noPrompt === true,
          ...(args.serviceChanges ? { serviceChanges: args.serviceChanges } : {}),
        });
      },
    ),
  );
}

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
        return deps.service.apply(folder, { noPrompt: folderArgs(arg).noPrompt === true });
      },
    ),
  );
}

import * as vscode from 'vscode';
import { folderArgs, serviceFolderOf, type ServiceFolderCommandDeps } from './common';
import type { FolderPlan } from '../plan';

/** `observability.planServiceFolder`: what applying a service folder would do, as a read-only document. */
export function registerPlanServiceFolder(context: vscode.ExtensionContext, deps: ServiceFolderCommandDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'observability.planServiceFolder',
      async (arg: unknown): Promise<FolderPlan | undefined> => {
        const folder = await serviceFolderOf(arg);
        if (!folder) return undefined;
        const args = folderArgs(arg);
        const other =
          args.connectionId && args.serviceId
            ? { connectionId: args.connectionId, serviceId: args.serviceId }
            : undefined;
        const result = await deps.service.plan(folder, other, other ? args.connectionMap : undefined);
        if (!args.noPrompt) await deps.service.showPlan(result);
        return result.plan;
      },
    ),
  );
}

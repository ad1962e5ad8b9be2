import * as vscode from 'vscode';
import { AlertFileCommandDeps, PlanArgs, objectArg, toUri } from './common';
import { noPrompt } from '../../commandArgs';

/** `observability.planAlertFiles`. */
export function registerPlanAlertFiles(context: vscode.ExtensionContext, deps: AlertFileCommandDeps): void {
  const { service } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.planAlertFiles', async (arg: unknown) => {
      const args = objectArg<PlanArgs>(arg);
      const folder = toUri(args.folder) ?? (arg instanceof vscode.Uri ? arg : undefined);
      return service.showPlan(folder ? { folder } : {}, !noPrompt(args, 'show'));
    }),
  );
}

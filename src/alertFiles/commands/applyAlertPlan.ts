import * as vscode from 'vscode';
import { AlertFileCommandDeps, PlanArgs, objectArg, toUri } from './common';
import { noPrompt } from '../../commandArgs';

/** `observability.applyAlertPlan`. */
export function registerApplyAlertPlan(context: vscode.ExtensionContext, deps: AlertFileCommandDeps): void {
  const { service } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.applyAlertPlan', async (arg: unknown) => {
      const args = objectArg<PlanArgs>(arg);
      const folder = toUri(args.folder);
      return service.applyPlan({ ...(folder ? { folder } : {}), confirm: noPrompt(args, 'confirm') });
    }),
  );
}

import * as vscode from 'vscode';
import { AlertFileCommandDeps, fileOf } from './common';

/** `observability.compareAlertFile`. */
export function registerCompareAlertFile(context: vscode.ExtensionContext, deps: AlertFileCommandDeps): void {
  const { service } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.compareAlertFile', async (arg: unknown) => {
      const uri = fileOf(arg);
      return uri ? service.compare(uri) : false;
    }),
  );
}

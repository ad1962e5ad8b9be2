import * as vscode from 'vscode';
import { AlertFileCommandDeps, FileArgs, fileOf, objectArg } from './common';
import { noPrompt } from '../../commandArgs';

/** `observability.applyAlertFile`. */
export function registerApplyAlertFile(context: vscode.ExtensionContext, deps: AlertFileCommandDeps): void {
  const { service } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.applyAlertFile', async (arg: unknown) => {
      const uri = fileOf(arg);
      if (!uri) return undefined;
      const confirm = noPrompt(objectArg<FileArgs>(arg), 'confirm');
      return service.apply(uri, { confirm });
    }),
  );
}

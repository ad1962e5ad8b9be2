import * as vscode from 'vscode';
import { AlertFileCommandDeps, FileArgs, fileOf, objectArg } from './common';
import { noPrompt } from '../../commandArgs';

/** `observability.validateAlertFile`. */
export function registerValidateAlertFile(context: vscode.ExtensionContext, deps: AlertFileCommandDeps): void {
  const { service } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.validateAlertFile', async (arg: unknown) => {
      const uri = fileOf(arg);
      return uri ? service.validate(uri, noPrompt(objectArg<FileArgs>(arg), 'quiet')) : undefined;
    }),
  );
}

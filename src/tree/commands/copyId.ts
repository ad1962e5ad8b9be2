import * as vscode from 'vscode';
import { ResourceCommandDeps, copyValueOf } from './common';

/** `observability.copyId`. */
export function registerCopyId(context: vscode.ExtensionContext, _deps: ResourceCommandDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.copyId', async (arg) => {
      const copy = copyValueOf(arg);
      if (!copy) return;
      await vscode.env.clipboard.writeText(copy.value);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0} {1}', copy.what, copy.value), 2500);
    }),
  );
}

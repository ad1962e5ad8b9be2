import * as vscode from 'vscode';
import { ResourceCommandDeps } from './common';

/** `observability.filter`. */
export function registerFilter(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.filter', async (arg) => {
      let text: string | undefined = typeof arg === 'string' ? arg : undefined;
      if (text === undefined) {
        text = await vscode.window.showInputBox({
          title: vscode.l10n.t('Filter the Observability Explorer'),
          prompt: vscode.l10n.t(
            'Show dashboards, alerts and sources whose name contains this text. Leave empty to show everything.',
          ),
          value: tree.filter,
          placeHolder: vscode.l10n.t('part of a name'),
        });
        if (text === undefined) return;
      }
      tree.setFilter(text);
    }),
  );
}

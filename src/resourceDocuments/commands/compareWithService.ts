import * as vscode from 'vscode';
import { parseUri } from '../../jsonDocuments/uris';
import { ApplyArgs, EditorCommandDeps, asObject } from './common';

/** `observability.compareWithService`. */
export function registerCompareWithService(context: vscode.ExtensionContext, deps: EditorCommandDeps): void {
  const { applier } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.compareWithService', async (arg): Promise<boolean> => {
      const o = asObject<ApplyArgs>(arg);
      const uri =
        arg instanceof vscode.Uri
          ? arg
          : typeof o.uri === 'string'
            ? vscode.Uri.parse(o.uri)
            : (o.uri ?? vscode.window.activeTextEditor?.document.uri);
      if (!uri || !parseUri(uri)) return false;
      const target = uri.toString();
      const doc =
        vscode.workspace.textDocuments.find((d) => d.uri.toString() === target) ??
        (await vscode.workspace.openTextDocument(uri));
      return applier.compare(doc);
    }),
  );
}

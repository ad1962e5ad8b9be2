import * as vscode from 'vscode';
import { sanitizeServerText } from '../../api';
import { ReadonlyJsonProvider, type JsonItemRef } from '../readonlyDocuments';
import { ResourceCommandDeps, targetOf } from './common';

/** `observability.openJson`. */
export function registerOpenJson(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree, json } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.openJson', async (arg): Promise<vscode.Uri | undefined> => {
      const target = targetOf(arg, tree);
      if (!target) return undefined;
      const ref: JsonItemRef = {
        connectionId: target.connectionId,
        serviceId: target.serviceId,
        kind: target.kind,
        id: target.id,
      };
      if (json.lookup(ref) === undefined) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('{0} is not loaded. Expand its folder first.', sanitizeServerText(target.name)),
        );
        return undefined;
      }
      const uri = ReadonlyJsonProvider.uriFor(ref, target.name);
      const doc = await vscode.workspace.openTextDocument(uri);
      if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
      await vscode.window.showTextDocument(doc, { preview: true });
      return uri;
    }),
  );
}

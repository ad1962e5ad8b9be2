import * as vscode from 'vscode';
import type { ApplyOptions, ApplyResult } from '../apply';
import { parseUri, RESOURCE_SCHEME } from '../../jsonDocuments/uris';
import { ApplyArgs, EditorCommandDeps, asObject } from './common';
import { noPrompt } from '../../commandArgs';

/** `observability.applyResource`. */
export function registerApplyResource(context: vscode.ExtensionContext, deps: EditorCommandDeps): void {
  const { applier } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.applyResource', async (arg): Promise<ApplyResult> => {
      let uri: vscode.Uri | undefined;
      let options: ApplyOptions = {};
      if (arg instanceof vscode.Uri) {
        uri = arg;
      } else {
        const o = asObject<ApplyArgs>(arg);
        uri = typeof o.uri === 'string' ? vscode.Uri.parse(o.uri) : o.uri instanceof vscode.Uri ? o.uri : undefined;
        options = {
          confirm: noPrompt(o, 'confirm'),
          confirmAlertDeletion: o.confirmAlertDeletion === true,
          confirmKeyRemoval: o.confirmKeyRemoval === true,
          confirmSecretRemoval: o.confirmSecretRemoval === true,
          overwrite: o.overwrite === true,
        };
      }
      uri ??= vscode.window.activeTextEditor?.document.uri;
      if (!uri || uri.scheme !== RESOURCE_SCHEME || !parseUri(uri)) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t(
            'Apply works on the alert, dashboard, query endpoint, webhook, saved search, source and role documents opened from the Observability explorer.',
          ),
        );
        return { outcome: 'notResource' };
      }
      const target = uri.toString();
      const doc =
        vscode.workspace.textDocuments.find((d) => d.uri.toString() === target) ??
        (await vscode.workspace.openTextDocument(uri));
      return applier.apply(doc, options);
    }),
  );
}

import * as vscode from 'vscode';
import { dashboardTemplate, toText } from '../../jsonDocuments/documents';
import { uriFor, type ResourceRef } from '../../jsonDocuments/uris';
import { EditorCommandDeps, ResourceCommandArgs, asObject, editorCommandHelpers, nextDraftKey } from './common';

/** `observability.createDashboard`. */
export function registerCreateDashboard(context: vscode.ExtensionContext, deps: EditorCommandDeps): void {
  const { fs } = deps;
  const { open, scopeOf } = editorCommandHelpers(deps);
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.createDashboard', async (arg): Promise<string | undefined> => {
      const scope = await scopeOf(arg);
      if (!scope) return undefined;
      const o = asObject<ResourceCommandArgs>(arg);
      const body = dashboardTemplate(o.name ?? vscode.l10n.t('New dashboard'));
      const ref: ResourceRef = { ...scope, kind: 'dashboard', draftKey: nextDraftKey() };
      fs.set(ref, { text: toText(body), base: undefined, exists: false });
      const uri = uriFor(ref, body.name as string);
      await open(uri);
      return uri.toString();
    }),
  );
}

import * as vscode from 'vscode';
import { uriFor } from '../../jsonDocuments/uris';
import { EditorCommandDeps, editorCommandHelpers } from './common';
import { errorMessage } from '../../errors';

/** `observability.upsertQueryEndpoint`. */
export function registerUpsertQueryEndpoint(context: vscode.ExtensionContext, deps: EditorCommandDeps): void {
  const { fs } = deps;
  const { open, scopeOf, queryEndpointRef, serviceName, existingUri } = editorCommandHelpers(deps);
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.upsertQueryEndpoint', async (arg): Promise<string | undefined> => {
      const scope = await scopeOf(arg);
      if (!scope) return undefined;
      const ref = queryEndpointRef(scope);
      const uri = existingUri(ref) ?? uriFor(ref, `${serviceName(scope)} query endpoint`);
      try {
        await open(uri);
      } catch (error) {
        const cause = fs.loadFailure(ref) ?? error;
        const message = vscode.l10n.t('Could not open the query endpoint: {0}', errorMessage(cause));
        deps.log.error(message);
        void vscode.window.showErrorMessage(message);
        return undefined;
      }
      return uri.toString();
    }),
  );
}

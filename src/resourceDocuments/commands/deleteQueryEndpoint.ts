import * as vscode from 'vscode';
import { sanitizeServerText } from '../../api';
import { EditorCommandDeps, ResourceCommandArgs, asObject, editorCommandHelpers } from './common';
import { errorMessage } from '../../errors';
import { noPrompt } from '../../commandArgs';

/** `observability.deleteQueryEndpoint`. */
export function registerDeleteQueryEndpoint(context: vscode.ExtensionContext, deps: EditorCommandDeps): void {
  const { connections, fs, tree } = deps;
  const { scopeOf, queryEndpointRef, serviceName } = editorCommandHelpers(deps);
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'observability.deleteQueryEndpoint',
      async (arg): Promise<{ deleted: boolean; requestId?: string; error?: string }> => {
        const scope = await scopeOf(arg);
        if (!scope) return { deleted: false };
        const confirmed = noPrompt(asObject<ResourceCommandArgs>(arg), 'confirm');
        if (!confirmed) {
          const del = vscode.l10n.t('Delete');
          const answer = await vscode.window.showWarningMessage(
            vscode.l10n.t('Delete the query endpoint of {0}?', serviceName(scope)),
            {
              modal: true,
              detail: vscode.l10n.t(
                'Applications calling the endpoint get errors from then on. This cannot be undone.',
              ),
            },
            del,
          );
          if (answer !== del) return { deleted: false };
        }
        try {
          const response = await vscode.window.withProgress(
            { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Deleting the query endpoint…') },
            () => connections.clientFor(scope.connectionId).deleteQueryEndpoint(scope.serviceId),
          );
          const ref = queryEndpointRef(scope);
          const held = fs.get(ref);
          if (held) fs.rebase(ref, null, false);
          tree.refreshKinds(scope.connectionId, scope.serviceId, ['queryEndpoint']);
          const message = vscode.l10n.t('Query endpoint of {0} deleted.', serviceName(scope));
          deps.log.info(`${message}${response.requestId ? ` (requestId ${response.requestId})` : ''}`);
          void vscode.window.showInformationMessage(
            sanitizeServerText(
              response.requestId ? `${message} ${vscode.l10n.t('Request ID: {0}', response.requestId)}` : message,
              1000,
            ),
          );
          return { deleted: true, ...(response.requestId ? { requestId: response.requestId } : {}) };
        } catch (error) {
          const message = errorMessage(error);
          deps.log.error(message);
          void vscode.window.showErrorMessage(message);
          return { deleted: false, error: message };
        }
      },
    ),
  );
}

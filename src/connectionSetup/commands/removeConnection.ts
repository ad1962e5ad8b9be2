import * as vscode from 'vscode';
import { COMMAND_IDS, resolveConnection, command, type ConnectionCommandDeps } from './common';
import { argsOf, noPrompt } from '../../commandArgs';

async function removeConnection(deps: ConnectionCommandDeps, arg: unknown): Promise<boolean> {
  const connection = await resolveConnection(deps, arg, vscode.l10n.t('Connection to remove'));
  if (!connection) return false;
  const skipConfirmation = noPrompt(argsOf(arg), 'skipConfirmation');
  if (!skipConfirmation) {
    const remove = vscode.l10n.t('Remove');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove the connection "{0}"?', connection.label),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Its key secret is deleted from the system keyring. Nothing changes on the service; the API key itself stays valid until you revoke it in the console.',
        ),
      },
      remove,
    );
    if (choice !== remove) return false;
  }
  await deps.connections.remove(connection.id);
  if (!skipConfirmation) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Connection "{0}" removed.', connection.label));
  }
  return true;
}

// ------------------------------------------------------------------ Choose Services

/** `observability.removeConnection`: confirms first, unless `{ connectionId, noPrompt: true }` (old name `skipConfirmation`) is given. */
export function registerRemoveConnection(deps: ConnectionCommandDeps): vscode.Disposable {
  return vscode.commands.registerCommand(
    COMMAND_IDS.remove,
    command(
      deps,
      (arg) => noPrompt(argsOf(arg), 'skipConfirmation'),
      (arg) => removeConnection(deps, arg),
    ),
  );
}

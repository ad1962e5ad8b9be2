import * as vscode from 'vscode';
import { argsOf, noPrompt } from '../../commandArgs';
import { hostOf } from '../../connections/pick';
import { isSelfHosted, type StoredConnection } from '../../connections/types';
import { command, resolveConnection, type ConnectionCommandDeps } from './common';
import { needsPlainHttpConsent, plainHttpWarning } from './selfHosted';

export const PLAIN_HTTP_COMMAND_IDS = {
  allow: 'observability.allowPlainHttp',
  withdraw: 'observability.withdrawPlainHttp',
} as const;

function plainHttpConnection(connection: StoredConnection | undefined): StoredConnection | undefined {
  if (!connection) return undefined;
  if (!isSelfHosted(connection) || !needsPlainHttpConsent(connection.baseUrl)) {
    throw new Error(
      vscode.l10n.t(
        'The connection "{0}" does not use plain http to another machine; there is nothing to allow or withdraw.',
        connection.label,
      ),
    );
  }
  return connection;
}

/**
 * Withdraws the permission to send the key over plain http: from now on no request of the connection is sent (each is
 * refused with a message saying why) until the permission is given again or the connection moves to https.
 */
async function withdraw(deps: ConnectionCommandDeps, arg: unknown): Promise<boolean> {
  const connection = plainHttpConnection(
    await resolveConnection(deps, arg, vscode.l10n.t('Connection to stop using plain http')),
  );
  if (!connection) return false;
  if (connection.allowPlainHttp !== true) return false;
  await deps.connections.update(connection.id, { allowPlainHttp: false });
  if (!noPrompt(argsOf(arg), 'skipConfirmation')) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Plain http is no longer allowed for "{0}": nothing is sent to {1} until you allow it again or move the connection to https.',
        connection.label,
        hostOf(connection.baseUrl),
      ),
    );
  }
  return true;
}

/** Allows plain http for one connection, after a modal confirmation that says the key travels unencrypted. */
async function allow(deps: ConnectionCommandDeps, arg: unknown): Promise<boolean> {
  const connection = plainHttpConnection(
    await resolveConnection(deps, arg, vscode.l10n.t('Connection to allow plain http for')),
  );
  if (!connection) return false;
  if (connection.allowPlainHttp === true) return false;
  if (!noPrompt(argsOf(arg), 'skipConfirmation')) {
    const allowLabel = vscode.l10n.t('Allow Plain HTTP for This Connection');
    const choice = await vscode.window.showWarningMessage(
      plainHttpWarning(hostOf(connection.baseUrl)),
      { modal: true },
      allowLabel,
    );
    if (choice !== allowLabel) return false;
  }
  await deps.connections.update(connection.id, { allowPlainHttp: true });
  return true;
}

export function registerPlainHttpCommands(deps: ConnectionCommandDeps): vscode.Disposable {
  const automated = (arg: unknown) => noPrompt(argsOf(arg), 'skipConfirmation');
  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      PLAIN_HTTP_COMMAND_IDS.withdraw,
      command(deps, automated, (arg) => withdraw(deps, arg)),
    ),
    vscode.commands.registerCommand(
      PLAIN_HTTP_COMMAND_IDS.allow,
      command(deps, automated, (arg) => allow(deps, arg)),
    ),
  );
}

import * as vscode from 'vscode';
import * as z from 'zod';
import { lazySchema } from '../../schema/lazySchema';
import { inputStep } from '../prompts';
import { type StoredConnection } from '../../connections/types';
import { validateKeySecret } from '../../connections/validation';
import {
  COMMAND_IDS,
  fieldCheck,
  parseArgs,
  hasAnyField,
  checkWithProgress,
  hostOf,
  resolveConnection,
  assertCloudConnection,
  command,
  type ConnectionCommandDeps,
} from './common';

const secretArgsSchema = lazySchema(() =>
  z.object({
    connectionId: z.string().min(1),
    keySecret: fieldCheck((s) => validateKeySecret(s)),
    skipCheck: z.boolean().optional(),
  }),
);

async function updateSecretInteractive(
  deps: ConnectionCommandDeps,
  connection: StoredConnection,
): Promise<string | undefined> {
  const title = vscode.l10n.t('Update Key Secret: {0}', connection.label);
  let typed = '';
  for (;;) {
    const value = await inputStep({
      title,
      step: 1,
      totalSteps: 1,
      value: typed,
      password: true,
      prompt: vscode.l10n.t('New key secret for key {0}. It is kept in the system keyring only.', connection.keyId),
      validate: (text) => validateKeySecret(text),
      validateWhileTyping: false,
    });
    if (typeof value !== 'string') return undefined;
    typed = value;
    const result = await checkWithProgress(deps, deps.connections.configOf(connection), typed);
    if (!result.ok) {
      const retry = vscode.l10n.t('Enter Again');
      const save = vscode.l10n.t('Save Anyway');
      const choice = await vscode.window.showErrorMessage(
        vscode.l10n.t('The new secret did not work for {0}', hostOf(connection.baseUrl)),
        { modal: true, detail: result.reason },
        retry,
        save,
      );
      if (choice === retry) continue;
      if (choice !== save) return undefined;
    }
    await deps.connections.setSecret(connection.id, typed);
    void vscode.window.showInformationMessage(vscode.l10n.t('Key secret of "{0}" updated.', connection.label));
    return connection.id;
  }
}

async function updateSecretFromArgs(deps: ConnectionCommandDeps, arg: unknown): Promise<string> {
  const args = parseArgs(secretArgsSchema, arg, COMMAND_IDS.updateSecret);
  const connection = deps.connections.get(args.connectionId);
  if (!connection) throw new Error(vscode.l10n.t('The connection {0} no longer exists.', args.connectionId));
  assertCloudConnection(connection, vscode.l10n.t('Update Key Secret'));
  if (!args.skipCheck) {
    const result = await checkWithProgress(deps, deps.connections.configOf(connection), args.keySecret);
    if (!result.ok) {
      throw new Error(
        vscode.l10n.t('The new secret did not work for {0}: {1}', hostOf(connection.baseUrl), result.reason),
      );
    }
  }
  await deps.connections.setSecret(connection.id, args.keySecret);
  return connection.id;
}

// ------------------------------------------------------------------ Remove Connection

/** `observability.updateKeySecret`: asks for the new secret, or `{ connectionId, keySecret, skipCheck? }` (no prompts). */
export function registerUpdateKeySecret(deps: ConnectionCommandDeps): vscode.Disposable {
  return vscode.commands.registerCommand(
    COMMAND_IDS.updateSecret,
    command(
      deps,
      (arg) => hasAnyField(arg, ['keySecret']),
      async (arg) => {
        if (hasAnyField(arg, ['keySecret'])) return updateSecretFromArgs(deps, arg);
        const connection = await resolveConnection(
          deps,
          arg,
          vscode.l10n.t('Connection whose key secret to replace'),
          vscode.l10n.t('Update Key Secret'),
        );
        return connection ? updateSecretInteractive(deps, connection) : undefined;
      },
    ),
  );
}

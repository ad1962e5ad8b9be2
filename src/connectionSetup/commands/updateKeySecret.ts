import * as vscode from 'vscode';
import * as z from 'zod';
import { lazySchema } from '../../schema/lazySchema';
import { inputStep } from '../prompts';
import { isSelfHosted, type StoredConnection } from '../../connections/types';
import { errorMessage } from '../../errors';
import { validateKeySecret } from '../../connections/validation';
import {
  COMMAND_IDS,
  fieldCheck,
  parseArgs,
  hasAnyField,
  checkWithProgress,
  hostOf,
  resolveConnection,
  command,
  type ConnectionCommandDeps,
} from './common';
import { checkSelfHosted, validateApiKey } from './selfHosted';

const secretArgsSchema = lazySchema(() =>
  z.object({
    connectionId: z.string().min(1),
    keySecret: fieldCheck((s) => validateKeySecret(s)),
    skipCheck: z.boolean().optional(),
  }),
);

/**
 * Tries a new key on the connection's saved address: undefined when it works, else why not. A self-hosted key is
 * checked by reading the deployment's team, over plain http only when the connection's permission holds.
 */
async function tryKey(
  deps: ConnectionCommandDeps,
  connection: StoredConnection,
  secret: string,
): Promise<string | undefined> {
  if (isSelfHosted(connection)) {
    try {
      await checkSelfHosted(deps, connection.baseUrl, connection.allowPlainHttp === true, secret);
      return undefined;
    } catch (error) {
      return errorMessage(error);
    }
  }
  const result = await checkWithProgress(deps, deps.connections.configOf(connection), secret);
  return result.ok ? undefined : result.reason;
}

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
      prompt: isSelfHosted(connection)
        ? vscode.l10n.t(
            'New personal API key for {0}. It is kept in the system keyring only; ClickHouse access and everything else stay.',
            hostOf(connection.baseUrl),
          )
        : vscode.l10n.t('New key secret for key {0}. It is kept in the system keyring only.', connection.keyId),
      validate: (text) => (isSelfHosted(connection) ? validateApiKey(text) : validateKeySecret(text)),
      validateWhileTyping: false,
    });
    if (typeof value !== 'string') return undefined;
    typed = isSelfHosted(connection) ? value.trim() : value;
    const failed = await tryKey(deps, connection, typed);
    if (failed !== undefined) {
      const retry = vscode.l10n.t('Enter Again');
      const save = vscode.l10n.t('Save Anyway');
      const choice = await vscode.window.showErrorMessage(
        vscode.l10n.t('The new secret did not work for {0}', hostOf(connection.baseUrl)),
        { modal: true, detail: failed },
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
  const secret = isSelfHosted(connection) ? args.keySecret.trim() : args.keySecret;
  if (isSelfHosted(connection)) {
    const issue = validateApiKey(secret);
    if (issue) {
      throw new Error(vscode.l10n.t('Invalid argument for {0}: keySecret: {1}', COMMAND_IDS.updateSecret, issue));
    }
  }
  if (!args.skipCheck) {
    const failed = await tryKey(deps, connection, secret);
    if (failed !== undefined) {
      throw new Error(vscode.l10n.t('The new secret did not work for {0}: {1}', hostOf(connection.baseUrl), failed));
    }
  }
  await deps.connections.setSecret(connection.id, secret);
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
        const connection = await resolveConnection(deps, arg, vscode.l10n.t('Connection whose key secret to replace'));
        return connection ? updateSecretInteractive(deps, connection) : undefined;
      },
    ),
  );
}

import * as vscode from 'vscode';
import * as z from 'zod';
import { QueryClient } from '../../api/query';
import { redact } from '../../api/redact';
import { argsOf, noPrompt } from '../../commandArgs';
import {
  clickHouseAddressIssue,
  clickHousePlainHttpGrantable,
  normalizeClickHouseAddress,
} from '../../connections/clickHouseAccess';
import { hostOf, pickConnection } from '../../connections/pick';
import { isSelfHosted, type StoredConnection } from '../../connections/types';
import { errorMessage } from '../../errors';
import { lazySchema } from '../../schema/lazySchema';
import { inputStep } from '../prompts';
import { command, connectionIdOf, hasAnyField, parseArgs, type ConnectionCommandDeps } from './common';

export const CLICKHOUSE_ACCESS_COMMAND_IDS = {
  set: 'observability.setClickHouseAccess',
  remove: 'observability.removeClickHouseAccess',
} as const;

const setArgsSchema = lazySchema(() =>
  z.object({
    connectionId: z.string().min(1),
    url: z.string().min(1),
    user: z.string().trim().min(1),
    password: z.string().min(1),
    /** Save even when the check fails (automation's "Save Anyway"). */
    keepOnFailure: z.boolean().optional(),
    skipCheck: z.boolean().optional(),
  }),
);

/** The connection a command is for: named by its argument, or picked among the self-hosted ones that fit. */
async function resolveSelfHosted(
  deps: ConnectionCommandDeps,
  arg: unknown,
  placeholder: string,
  fits: (c: StoredConnection) => boolean,
): Promise<StoredConnection | undefined> {
  const id = connectionIdOf(arg);
  if (id !== undefined) {
    const found = deps.connections.get(id);
    if (!found) throw new Error(vscode.l10n.t('The connection {0} no longer exists.', id));
    return found;
  }
  return pickConnection({ list: () => deps.connections.list().filter((c) => isSelfHosted(c) && fits(c)) }, placeholder);
}

function selfHostedOnly(connection: StoredConnection | undefined): StoredConnection | undefined {
  if (connection && !isSelfHosted(connection)) {
    throw new Error(
      vscode.l10n.t(
        '"{0}" is a ClickHouse Cloud connection: its previews already run SQL on the query endpoint. ClickHouse access is for self-hosted connections.',
        connection.label,
      ),
    );
  }
  return connection;
}

/**
 * `SELECT 1` on ClickHouse's HTTP interface with the typed user and password, under a cancellable progress
 * notification. Undefined when it answered, else what went wrong (operation, status, ClickHouse's message, query ID;
 * sanitised and without the password).
 */
async function check(
  connection: StoredConnection,
  url: string,
  user: string,
  password: string,
): Promise<string | undefined> {
  const client = new QueryClient({
    transport: 'clickhouseHttp',
    queryUrl: url,
    keyId: user,
    getSecret: () => password,
    // Before it is saved: the permission it would get (the connection's own host, under the API's permission).
    allowPlainHttp: clickHousePlainHttpGrantable(connection, url),
  });
  try {
    return await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Checking ClickHouse access at {0}…', hostOf(url)),
        cancellable: true,
      },
      async (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        try {
          await client.run({ sql: 'SELECT 1', maxRows: 1, signal: abort.signal });
          return undefined;
        } catch (e) {
          return redact(errorMessage(e), [password]);
        } finally {
          sub.dispose();
        }
      },
    );
  } finally {
    await client.dispose().catch(() => undefined);
  }
}

function failureText(url: string, reason: string): string {
  return vscode.l10n.t('Check ClickHouse access at {0} failed: {1}', hostOf(url), reason);
}

async function setFromArgs(deps: ConnectionCommandDeps, arg: unknown): Promise<string> {
  const args = parseArgs(setArgsSchema, arg, CLICKHOUSE_ACCESS_COMMAND_IDS.set);
  const connection = selfHostedOnly(deps.connections.get(args.connectionId));
  if (!connection) throw new Error(vscode.l10n.t('The connection {0} no longer exists.', args.connectionId));
  const issue = clickHouseAddressIssue(connection, args.url);
  if (issue) throw new Error(issue);
  const url = normalizeClickHouseAddress(args.url);
  if (!args.skipCheck) {
    const failed = await check(connection, url, args.user, args.password);
    if (failed !== undefined && !args.keepOnFailure) throw new Error(failureText(url, failed));
  }
  await deps.connections.setClickHouseAccess(connection.id, { url, user: args.user }, args.password);
  return connection.id;
}

async function setInteractive(deps: ConnectionCommandDeps, arg: unknown): Promise<string | undefined> {
  const connection = selfHostedOnly(
    await resolveSelfHosted(
      deps,
      arg,
      vscode.l10n.t('Self-hosted connection to give ClickHouse access for previews'),
      () => true,
    ),
  );
  if (!connection) return undefined;
  const title = vscode.l10n.t('Set ClickHouse Access for Previews: {0}', connection.label);
  let url = connection.clickHouse?.url ?? '';
  let user = connection.clickHouse?.user ?? 'default';
  let password = '';
  for (;;) {
    const typedUrl = await inputStep({
      title,
      step: 1,
      totalSteps: 3,
      value: url,
      prompt: vscode.l10n.t(
        "The address of the deployment's ClickHouse HTTP interface (for example https://clickhouse.example.com:8443).",
      ),
      validate: (text) => clickHouseAddressIssue(connection, text),
    });
    if (typeof typedUrl !== 'string') return undefined;
    url = normalizeClickHouseAddress(typedUrl);
    const typedUser = await inputStep({
      title,
      step: 2,
      totalSteps: 3,
      value: user,
      prompt: vscode.l10n.t('The ClickHouse user (a read-only user is enough).'),
      validate: (text) => (text.trim() === '' ? vscode.l10n.t('Enter the ClickHouse user.') : undefined),
    });
    if (typeof typedUser !== 'string') return undefined;
    user = typedUser.trim();
    const typedPassword = await inputStep({
      title,
      step: 3,
      totalSteps: 3,
      value: password,
      password: true,
      prompt: vscode.l10n.t('The password of {0}. It is kept in the system keyring only.', user),
      validate: (text) => (text === '' ? vscode.l10n.t('Enter the password.') : undefined),
    });
    if (typeof typedPassword !== 'string') return undefined;
    password = typedPassword;
    const failed = await check(connection, url, user, password);
    if (failed !== undefined) {
      const retry = vscode.l10n.t('Enter Again');
      const save = vscode.l10n.t('Save Anyway');
      const choice = await vscode.window.showErrorMessage(
        failureText(url, failed),
        { modal: true, detail: vscode.l10n.t('Nothing is saved unless you choose "Save Anyway".') },
        retry,
        save,
      );
      if (choice === retry) continue;
      if (choice !== save) return undefined;
    }
    await deps.connections.setClickHouseAccess(connection.id, { url, user }, password);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Previews of "{0}" now run SQL on ClickHouse at {1} as {2}.', connection.label, hostOf(url), user),
    );
    return connection.id;
  }
}

/** Remove ClickHouse Access: confirmed first (it says what goes), then previews use the chart series API again. */
async function remove(deps: ConnectionCommandDeps, arg: unknown): Promise<boolean> {
  const connection = selfHostedOnly(
    await resolveSelfHosted(
      deps,
      arg,
      vscode.l10n.t('Connection whose ClickHouse access to remove'),
      (c) => c.clickHouse !== undefined,
    ),
  );
  if (!connection?.clickHouse) return false;
  if (!noPrompt(argsOf(arg), 'skipConfirmation')) {
    const removeLabel = vscode.l10n.t('Remove ClickHouse Access');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove ClickHouse access from "{0}"?', connection.label),
      {
        modal: true,
        detail: vscode.l10n.t(
          'The address {0}, the user {1} and the stored password are removed. Previews go through the chart series API again.',
          connection.clickHouse.url,
          connection.clickHouse.user,
        ),
      },
      removeLabel,
    );
    if (choice !== removeLabel) return false;
  }
  await deps.connections.removeClickHouseAccess(connection.id);
  return true;
}

/**
 * `observability.setClickHouseAccess` (asks, or `{ connectionId, url, user, password, skipCheck?, keepOnFailure? }`
 * without prompts) and `observability.removeClickHouseAccess` (`{ connectionId, noPrompt }`).
 */
export function registerClickHouseAccessCommands(deps: ConnectionCommandDeps): vscode.Disposable {
  const withFields = (arg: unknown) => hasAnyField(arg, ['url', 'user', 'password']);
  // The palette offers Set only when a self-hosted connection can be picked, Remove only when one has access.
  const updateContext = () => {
    const selfHosted = deps.connections.list().filter(isSelfHosted);
    void vscode.commands.executeCommand('setContext', 'observability.hasSelfHostedConnections', selfHosted.length > 0);
    void vscode.commands.executeCommand(
      'setContext',
      'observability.hasClickHouseAccess',
      selfHosted.some((c) => c.clickHouse !== undefined),
    );
  };
  updateContext();
  return vscode.Disposable.from(
    deps.connections.onDidChange(updateContext),
    vscode.commands.registerCommand(
      CLICKHOUSE_ACCESS_COMMAND_IDS.set,
      command(deps, withFields, (arg) => (withFields(arg) ? setFromArgs(deps, arg) : setInteractive(deps, arg))),
    ),
    vscode.commands.registerCommand(
      CLICKHOUSE_ACCESS_COMMAND_IDS.remove,
      command(
        deps,
        (arg) => noPrompt(argsOf(arg), 'skipConfirmation'),
        (arg) => remove(deps, arg),
      ),
    ),
  );
}

import * as vscode from 'vscode';
import { errorMessage } from '../../errors';
import { commandArgument, noPrompt, scopeOfNode, type NoPromptArgs } from '../../commandArgs';
import { targetOf, type QueryContext } from '../context';
import type { QueryTarget } from '../targets';

/** Arguments of `observability.enableQueryKey`. `confirm: true` is the deprecated name of `noPrompt: true`. */
export interface EnableQueryKeyArgs extends NoPromptArgs {
  connectionId?: string;
  serviceId?: string;
  confirm?: boolean;
}

export interface EnableQueryKeyOutcome {
  enabled: boolean;
  error?: string;
  openApiKeys?: string[];
}

/** `observability.enableQueryKey`: adds the connection's key to the service's query endpoint, keeping every other. */
export function registerEnableQueryKey(ctx: QueryContext): vscode.Disposable {
  return vscode.commands.registerCommand('observability.enableQueryKey', (raw: unknown) => {
    const a = commandArgument<EnableQueryKeyArgs>(raw);
    const args = a.kind === 'args' ? a.args : a.kind === 'node' ? scopeOfNode(a.node) : {};
    return enableQueryKey(ctx, args);
  });
}

/** Adds this connection's key to the service's query endpoint (keeping every key already there), after asking. */
export async function enableQueryKey(ctx: QueryContext, arg: EnableQueryKeyArgs): Promise<EnableQueryKeyOutcome> {
  const { connections, targets, log } = ctx;
  let target: QueryTarget | undefined = targetOf(arg);
  target ??=
    (vscode.window.activeTextEditor && targets.get(vscode.window.activeTextEditor.document.uri)) ||
    (await targets.pick());
  if (!target) return { enabled: false };
  const connection = connections.get(target.connectionId);
  if (!connection) return { enabled: false, error: 'no connection' };
  const serviceName = targets.serviceName(target);
  const api = connections.clientFor(target.connectionId);
  try {
    const [keys, endpoint] = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Reading the query endpoint of {0}…', serviceName),
      },
      () => Promise.all([api.listApiKeys(), api.getQueryEndpoint(target.serviceId)]),
    );
    const suffix = connection.keyId.slice(-4);
    const matches = keys.data.filter((k) => k.keySuffix === suffix);
    if (matches.length !== 1) {
      throw new Error(
        matches.length === 0
          ? vscode.l10n.t(
              'No API key of the organization ends in "{0}", so the key of this connection cannot be added to the query endpoint.',
              suffix,
            )
          : vscode.l10n.t(
              'Several API keys end in "{0}"; add the key to the query endpoint by editing it (Observability: Upsert Query Endpoint).',
              suffix,
            ),
      );
    }
    const key = matches[0] as { id: string; name: string };
    const current = endpoint.data;
    const existing = current?.openApiKeys ?? [];
    if (existing.includes(key.id)) {
      ctx.background.ran(target.connectionId, target.serviceId);
      return { enabled: true, openApiKeys: existing };
    }
    const roles = current && current.roles.length > 0 ? current.roles : ['sql_console_read_only'];
    if (!noPrompt(arg, 'confirm')) {
      const enable = vscode.l10n.t('Enable');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Enable the key "{0}" on the query endpoint of {1}?', key.name, serviceName),
        {
          modal: true,
          detail: [
            vscode.l10n.t('Queries with this key get the roles: {0}.', roles.join(', ')),
            current
              ? vscode.l10n.t('The {0} key(s) already enabled stay enabled.', existing.length)
              : vscode.l10n.t('The service has no query endpoint yet; one is created with this key only.'),
          ].join(' '),
        },
        enable,
      );
      if (answer !== enable) return { enabled: false };
    }
    const body = {
      roles: roles as ('sql_console_read_only' | 'sql_console_admin')[],
      openApiKeys: [...existing, key.id],
      ...(current?.allowedOrigins ? { allowedOrigins: current.allowedOrigins } : {}),
    };
    const saved = await api.upsertQueryEndpoint(target.serviceId, body);
    ctx.refresh.refreshKinds(target.connectionId, target.serviceId, ['queryEndpoint']);
    ctx.background.ran(target.connectionId, target.serviceId);
    log.info(
      `Enabled key ${key.id} on the query endpoint of ${serviceName}${saved.requestId ? ` (requestId ${saved.requestId})` : ''}`,
    );
    void vscode.window.setStatusBarMessage(
      vscode.l10n.t('Key enabled on the query endpoint of {0}.', serviceName),
      4000,
    );
    return { enabled: true, openApiKeys: saved.data.openApiKeys };
  } catch (error) {
    const message = errorMessage(error);
    log.error(message);
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not enable the key on the query endpoint: {0}', message));
    return { enabled: false, error: message };
  }
}

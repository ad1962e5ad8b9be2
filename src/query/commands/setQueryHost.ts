import * as vscode from 'vscode';
import { errorMessage } from '../../errors';
import { commandArgument, scopeOfNode } from '../../commandArgs';
import type { QueryContext } from '../context';

/**
 * Arguments of `observability.setQueryHost`; an empty `queryUrl` restores the default (ClickHouse Cloud's query host
 * for a connection to its API address, none otherwise). The command answers the query host now in use, or undefined.
 */
export interface SetQueryHostArgs {
  connectionId?: string;
  queryUrl?: string;
}

/** `observability.setQueryHost`: where SQL runs for a connection (the Cloud query host, or a loopback emulator). */
export function registerSetQueryHost(ctx: QueryContext): vscode.Disposable {
  return vscode.commands.registerCommand('observability.setQueryHost', async (raw: unknown) => {
    const a = commandArgument<SetQueryHostArgs>(raw);
    const args: SetQueryHostArgs = a.kind === 'args' ? a.args : a.kind === 'node' ? scopeOfNode(a.node) : {};
    const connectionId = args.connectionId ?? (await pickConnectionId(ctx));
    if (!connectionId) return undefined;
    const url = args.queryUrl ?? (await askQueryHost(ctx, connectionId));
    if (url === undefined) return undefined;
    try {
      await ctx.targets.setQueryHost(connectionId, url);
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Invalid query host: {0}', errorMessage(error)));
      return undefined;
    }
    ctx.clients.drop();
    return ctx.targets.queryHost(connectionId);
  });
}

async function pickConnectionId(ctx: QueryContext): Promise<string | undefined> {
  const list = ctx.connections.list();
  if (list.length === 1) return list[0]?.id;
  const picked = await vscode.window.showQuickPick(
    list.map((c) => ({ label: c.label, description: c.baseUrl, id: c.id })),
    { title: vscode.l10n.t('Query host of which connection?') },
  );
  return picked?.id;
}

function askQueryHost(ctx: QueryContext, connectionId: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Query host'),
    prompt: vscode.l10n.t(
      "Where SQL runs for this connection (https; http only for localhost). Leave empty for the default: ClickHouse Cloud's query host for a connection to ClickHouse Cloud's API, none for any other address.",
    ),
    value: ctx.targets.queryHost(connectionId) ?? '',
    validateInput: (v) => {
      if (!v) return undefined;
      try {
        const u = new URL(v);
        return u.protocol === 'https:' ||
          u.hostname === 'localhost' ||
          u.hostname.startsWith('127.') ||
          u.hostname === '[::1]'
          ? undefined
          : vscode.l10n.t('Use https (http only for localhost).');
      } catch {
        return vscode.l10n.t('Enter an absolute URL such as https://queries.clickhouse.cloud');
      }
    },
  });
}

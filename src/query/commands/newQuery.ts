import * as vscode from 'vscode';
import { commandArgument, scopeOfNode } from '../../shared/commandArgs';
import { targetOf, type QueryContext } from '../context';

/** Arguments of `observability.newQuery` (from automation; the explorer passes its service node). */
export interface NewQueryArgs {
  connectionId?: string;
  serviceId?: string;
  /** The document's text instead of the starter statement. */
  sql?: string;
}

/** `observability.newQuery`: an untitled SQL document bound to a service. */
export function registerNewQuery(ctx: QueryContext): vscode.Disposable {
  return vscode.commands.registerCommand('observability.newQuery', async (raw: unknown) => {
    const a = commandArgument<NewQueryArgs>(raw);
    const args: NewQueryArgs = a.kind === 'args' ? a.args : a.kind === 'node' ? scopeOfNode(a.node) : {};
    const target = targetOf(args) ?? (await ctx.targets.pick());
    if (!target) return undefined;
    const content =
      typeof args.sql === 'string'
        ? args.sql
        : `-- ${vscode.l10n.t('Runs on {0}. Ctrl+Enter or the CodeLens runs the statement under the cursor.', ctx.targets.serviceName(target))}\nSHOW TABLES\n`;
    const doc = await vscode.workspace.openTextDocument({ language: 'sql', content });
    await ctx.targets.bind(doc.uri, target);
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc.uri.toString();
  });
}

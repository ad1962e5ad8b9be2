import * as vscode from 'vscode';
import { commandArgument, scopeOfNode } from '../../commandArgs';
import { targetOf, type QueryContext } from '../context';

/** Arguments of `observability.newQuery` (from automation; the explorer passes its service node). */
export interface NewQueryArgs {
  connectionId?: string;
  serviceId?: string;
  /** The document's text instead of the starter statement. */
  sql?: string;
}

/**
 * An untitled SQL document named after the service (`checkout-prod.sql`, then `checkout-prod-2.sql`, …), so its tab
 * is not titled after the first line of its text (the comment).
 */
async function openNamedUntitled(serviceName: string, content: string): Promise<vscode.TextDocument> {
  const base = serviceName.replace(/[\\/:*?"<>|#%\s]+/g, '-').replace(/^-+|-+$/g, '') || 'query';
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
  let uri = vscode.Uri.from({ scheme: 'untitled', path: `${base}.sql` });
  for (let n = 2; open.has(uri.toString()); n++) {
    uri = vscode.Uri.from({ scheme: 'untitled', path: `${base}-${n}.sql` });
  }
  let doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== 'sql') doc = await vscode.languages.setTextDocumentLanguage(doc, 'sql');
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(0, 0), content);
  await vscode.workspace.applyEdit(edit);
  return doc;
}

/** `observability.newQuery`: an untitled SQL document bound to a service, named after it. */
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
    const doc = await openNamedUntitled(ctx.targets.serviceName(target), content);
    await ctx.targets.bind(doc.uri, target);
    await vscode.window.showTextDocument(doc, { preview: false });
    return doc.uri.toString();
  });
}

/** What Run Query runs and where (the document's statements, its service), and what it asks the user first. */
import * as vscode from 'vscode';
import { isReadOnlyStatement, splitStatements, type Statement } from '../../api/query';
import { noPrompt } from '../../commandArgs';
import type { QueryContext } from '../context';
import type { QueryTarget } from '../targets';
import type { RunQueryArgs } from './runOutcome';

export async function documentFor(arg: RunQueryArgs): Promise<vscode.TextDocument | undefined> {
  if (arg.uri) {
    const uri = vscode.Uri.parse(arg.uri);
    return (
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ??
      (await vscode.workspace.openTextDocument(uri))
    );
  }
  return vscode.window.activeTextEditor?.document;
}

/** The SQL to run: given, the statement of a line, the selection, the statement under the cursor, or the whole document. */
export function statementsFor(doc: vscode.TextDocument, arg: RunQueryArgs): Statement[] {
  if (arg.sql !== undefined) return splitStatements(arg.sql);
  const text = doc.getText();
  const all = splitStatements(text);
  if (arg.line !== undefined) {
    const offset = doc.offsetAt(new vscode.Position(arg.line, 0));
    const lineEnd = doc.offsetAt(doc.lineAt(Math.min(arg.line, doc.lineCount - 1)).range.end);
    const hit = all.find((s) => s.start <= lineEnd && s.end >= offset);
    return hit ? [hit] : [];
  }
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document === doc) {
    if (!editor.selection.isEmpty) return splitStatements(doc.getText(editor.selection));
    if (all.length > 1) {
      const at = doc.offsetAt(editor.selection.active);
      const hit = all.find((s) => s.start <= at && at <= s.end + 1);
      if (hit) return [hit];
    }
  }
  return all;
}

export async function ensureTarget(ctx: QueryContext, doc: vscode.TextDocument): Promise<QueryTarget | undefined> {
  const bound = ctx.targets.get(doc.uri);
  if (bound) return bound;
  const picked = await ctx.targets.pick();
  if (picked) await ctx.targets.bind(doc.uri, picked);
  return picked;
}

/** Asks before running statements that can change data; false when the user (or the arguments) declined. */
export async function confirmWrites(arg: RunQueryArgs, statements: Statement[], serviceName: string): Promise<boolean> {
  const writes = statements.filter((s) => !isReadOnlyStatement(s.text));
  if (writes.length === 0 || noPrompt(arg, 'confirm')) return true;
  if (arg.confirm === false) return false;
  const run = vscode.l10n.t('Run');
  const first =
    (writes[0] as Statement).text
      .split('\n')
      .find((l) => l.trim() && !l.trim().startsWith('--'))
      ?.trim() ?? '';
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Run a statement that can change data on {0}?', serviceName),
    {
      modal: true,
      detail: vscode.l10n.t(
        '{0} of the statements is not a SELECT, WITH, SHOW, DESCRIBE or EXPLAIN and may create, change or delete data: {1}',
        writes.length,
        first.length > 120 ? `${first.slice(0, 120)}…` : first,
      ),
    },
    run,
  );
  return answer === run;
}

/** Never wakes a service without asking (or an explicit `wake: true`). */
export async function agreeToWake(arg: RunQueryArgs, serviceName: string): Promise<boolean> {
  if (arg.wake === false) return false;
  const wakeRun = vscode.l10n.t('Wake and Run');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} is idle. Wake it to run the query?', serviceName),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Running the query wakes the service; that can take a minute, and the service then runs (and bills) until it idles again.',
      ),
    },
    wakeRun,
  );
  return answer === wakeRun;
}

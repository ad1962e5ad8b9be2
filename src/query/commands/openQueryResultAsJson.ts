import * as vscode from 'vscode';
import type { QueryContext } from '../context';

/** `observability.openQueryResultAsJson`: the result in the panel as a JSON document. */
export function registerOpenQueryResultAsJson(ctx: QueryContext): vscode.Disposable {
  return vscode.commands.registerCommand('observability.openQueryResultAsJson', () =>
    ctx.panel.openJson().then((d) => d?.uri.toString()),
  );
}

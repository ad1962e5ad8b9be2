import * as vscode from 'vscode';
import type { QueryContext } from '../context';

/** `observability.copyQueryResult`: the result in the panel as `csv` (default), `json` or `markdown`. */
export function registerCopyQueryResult(ctx: QueryContext): vscode.Disposable {
  return vscode.commands.registerCommand('observability.copyQueryResult', (format?: unknown) =>
    ctx.panel.copy(typeof format === 'string' ? format : 'csv'),
  );
}

/**
 * What the results panel's buttons and links do with the result shown: copy it, open it as JSON, open a cell's trace
 * or saved search on the result's service.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../errors';
import type { ShownResult } from './panelState';
import { resultText } from './resultExport';

/** Copies the whole result; returns the text (undefined when nothing is shown or a row cannot be read). */
export async function copyResult(s: ShownResult | undefined, format: string): Promise<string | undefined> {
  const text = s && textOf(format, s);
  if (!s || text === undefined) return undefined;
  await vscode.env.clipboard.writeText(text);
  const copied = vscode.l10n.t('Copied {0} rows as {1}.', s.result.rows.length, format.toUpperCase());
  void vscode.window.setStatusBarMessage(copied, 3000);
  return text;
}

/** Opens the whole result as a JSON document in the active column. */
export async function openResultJson(s: ShownResult | undefined): Promise<vscode.TextDocument | undefined> {
  const content = s && textOf('json', s);
  if (content === undefined) return undefined;
  const doc = await vscode.workspace.openTextDocument({ language: 'json', content });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Active, preview: false });
  return doc;
}

/**
 * Opens the trace of a cell (the page sends its text and the row's time) on the result's service: the command
 * checks the ID, and reads an hour either side of the time.
 */
export function openCellTrace(
  target: ShownResult['target'],
  cell: { traceId?: unknown; spanId?: unknown; time?: unknown },
): Thenable<unknown> {
  const span = typeof cell.spanId === 'string' ? { spanId: cell.spanId } : {};
  if (typeof cell.traceId !== 'string' && !span.spanId) return Promise.resolve(undefined);
  const time = typeof cell.time === 'string' || typeof cell.time === 'number' ? { time: cell.time } : {};
  return vscode.commands.executeCommand('observability.openTrace', {
    ...target,
    ...(typeof cell.traceId === 'string' ? { traceId: cell.traceId } : {}),
    ...span,
    ...time,
  });
}

/** Opens the saved search of a cell (its ID) on the result's service in the search panel. */
export function openCellSavedSearch(target: ShownResult['target'], savedSearchId: unknown): Thenable<unknown> {
  if (typeof savedSearchId !== 'string' || savedSearchId === '') return Promise.resolve(undefined);
  return vscode.commands.executeCommand('observability.searchEvents', { ...target, savedSearchId });
}

/** The whole result as text; undefined (and the error shown) when a row cannot be read. */
function textOf(format: string, s: ShownResult): string | undefined {
  try {
    return resultText(format, s.result.columns, s.result.rows);
  } catch (error) {
    void vscode.window.showErrorMessage(errorMessage(error));
    return undefined;
  }
}

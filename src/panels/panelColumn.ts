/**
 * One editor column for the extension's panels (query results, tile and dashboard previews, alert backtests): the
 * first panel opens beside the editor, the next ones open as tabs of the column a panel already shows in, so the
 * window never splits into narrow columns of one panel each. A panel the user moves takes the others' place with it.
 */
import * as vscode from 'vscode';

const panels: vscode.WebviewPanel[] = [];

/** Where a new panel opens: the column of the panel shown last, or beside the editor when none is open. */
export function panelColumn(): vscode.ViewColumn {
  for (let i = panels.length - 1; i >= 0; i--) {
    const column = panels[i]?.viewColumn;
    if (column !== undefined) return column;
  }
  return vscode.ViewColumn.Beside;
}

/** Counts a panel among the extension's panels until it is closed; the one shown last leads. */
export function trackPanel(panel: vscode.WebviewPanel): void {
  panels.push(panel);
  panel.onDidChangeViewState((e) => {
    if (!e.webviewPanel.visible) return;
    const i = panels.indexOf(panel);
    if (i >= 0) panels.splice(i, 1);
    panels.push(panel);
  });
  panel.onDidDispose(() => {
    const i = panels.indexOf(panel);
    if (i >= 0) panels.splice(i, 1);
  });
}

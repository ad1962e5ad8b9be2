/** The status bar item: the active editor's folder's pick and the range; opens "Choose Service for Code Insights…". */
import * as vscode from 'vscode';
import type { Picks } from './picks';
import { rangeLabel } from './format';
import { codeInsightsSettings } from './settings';

export function createStatusItem(picks: Picks): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('observability.codeInsights', vscode.StatusBarAlignment.Left, 10);
  item.name = vscode.l10n.t('Code Insights');
  item.command = 'observability.codeInsights.chooseService';
  function update(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
    const pick = folder ? picks.of(folder) : undefined;
    if (!folder || !pick) {
      item.hide();
      return;
    }
    const range = rangeLabel(codeInsightsSettings().range);
    item.text = `$(pulse) ${pick.serviceName} · ${pick.sourceName} · ${range}`;
    item.tooltip = vscode.l10n.t(
      'Code insights of {0}: {1}, {2}, last {3}. Click to choose another.',
      folder.name,
      pick.serviceName,
      pick.sourceName,
      range,
    );
    item.show();
  }
  update();
  return vscode.Disposable.from(
    item,
    vscode.window.onDidChangeActiveTextEditor(update),
    picks.onDidChange(update),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('observability.codeInsights') && update()),
  );
}

/** The status bar item: the active editor's folder's pick and the range; opens "Choose Service for Code Insights…". */
import * as vscode from 'vscode';
import type { Aggregates } from './aggregates';
import type { Picks } from './picks';
import type { Signals } from './signals';
import { rangeLabel } from './format';
import { codeInsightsSettings } from './settings';

export function createStatusItem(picks: Picks, aggregates: Aggregates, signals?: Signals): vscode.Disposable {
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
    const entry = aggregates.peek(pick);
    const failed = entry?.state === 'failed';
    item.text = `$(${failed ? 'warning' : 'pulse'}) ${pick.serviceName} · ${pick.sourceName} · ${range}`;
    const about = vscode.l10n.t(
      'Code insights of {0}: {1}, {2}, last {3}. Click to choose another.',
      folder.name,
      pick.serviceName,
      pick.sourceName,
      range,
    );
    // Plain text: the server's message is never rendered as markup.
    const more = signals?.peek(pick);
    const logs = more?.logNote
      ? vscode.l10n.t('Logger calls: no counts ({0}).', more.logNote)
      : more?.logSource
        ? vscode.l10n.t('Logger calls: counted in {0}', more.logSource.name) +
          (more.logCut ? ` ${vscode.l10n.t('({0} more messages not counted).', more.logCut)}` : '.')
        : undefined;
    const marks = more?.exceptionNote ? vscode.l10n.t('Exceptions: none read ({0}).', more.exceptionNote) : undefined;
    item.tooltip = [
      about,
      ...(failed ? [vscode.l10n.t('The figures could not be fetched: {0}', entry?.error ?? '')] : []),
      ...(logs ? [logs] : []),
      ...(marks ? [marks] : []),
    ].join('\n');
    item.show();
  }
  update();
  return vscode.Disposable.from(
    item,
    vscode.window.onDidChangeActiveTextEditor(update),
    picks.onDidChange(update),
    aggregates.onDidChange(update),
    ...(signals ? [signals.onDidChange(update)] : []),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('observability.codeInsights') && update()),
  );
}

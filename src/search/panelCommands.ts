/**
 * Commands on the search panel in front (or the last one in front): `observability.saveSearchAs` (Save as Saved
 * Search…: a new saved-search document with the panel's source, condition, columns and order — nothing is sent before
 * Apply) and `observability.searchCompletions` (what completion offers in its condition: automation and tests).
 */
import * as vscode from 'vscode';
import { argsOf } from '../commandArgs';
import type { SearchPanel } from './panel';

export interface CurrentPanel {
  /** Follows a new panel: in front while it is active, forgotten once closed. */
  track(panel: SearchPanel): void;
}

export function registerPanelCommands(context: vscode.ExtensionContext, panels: Set<SearchPanel>): CurrentPanel {
  let current: SearchPanel | undefined;
  const inFront = (): SearchPanel | undefined => {
    if (current && panels.has(current)) return current;
    return [...panels].pop();
  };
  const none = (): undefined => {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a search first: Observability: Search Events…'));
    return undefined;
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.saveSearchAs', async (): Promise<string | undefined> => {
      const panel = inFront();
      return panel ? panel.saveAs() : none();
    }),
    vscode.commands.registerCommand(
      'observability.searchCompletions',
      async (raw: unknown): Promise<{ fields?: string[]; values?: string[] } | undefined> => {
        const panel = inFront();
        if (!panel) return undefined;
        const field = argsOf<{ field?: string }>(raw).field;
        return panel.completion.offered(typeof field === 'string' ? field : undefined);
      },
    ),
  );
  return {
    track(panel) {
      current = panel;
      panel.panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.active) current = panel;
      });
      panel.panel.onDidDispose(() => {
        panels.delete(panel);
        if (current === panel) current = undefined;
      });
    },
  };
}

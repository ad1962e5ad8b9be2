import * as vscode from 'vscode';
import type { Backtests } from './backtests';
import type { PreviewOutcome } from './context';
import type { PreviewPanels } from './panels';
import { parseWebviewState, type PanelMode } from './protocol';
import type { TilePreviews } from './tilePreviews';

/** Panels VS Code restored after a window reload, drawn again. */
export function createRestorePanel(
  panels: PreviewPanels,
  previews: TilePreviews,
  backtests: Backtests,
): (mode: PanelMode, webviewPanel: vscode.WebviewPanel, raw: unknown) => Promise<PreviewOutcome> {
  const { previewPanel, backtestPanel } = panels;
  const { previewTile, previewDashboard } = previews;
  const { backtestAlert } = backtests;

  /**
   * Draws a panel VS Code restored after a reload (its serializer, registered by the entry, hands it over): the
   * tile, dashboard or alert and the range the webview kept in its state, fetched again. What cannot be drawn any
   * more (connection removed, alert deleted) says why inside the panel, without a notification.
   */
  async function restorePanel(
    mode: PanelMode,
    webviewPanel: vscode.WebviewPanel,
    raw: unknown,
  ): Promise<PreviewOutcome> {
    const state = parseWebviewState(raw);
    const panel = mode === 'backtest' ? backtestPanel : previewPanel;
    if (!panel.adopt(webviewPanel, state.range)) return { ok: false, error: 'already open' };
    const target = state.restore;
    let out: PreviewOutcome;
    if (!target) out = { ok: false, error: vscode.l10n.t('This panel cannot be restored; open the preview again.') };
    else if (mode === 'backtest' && target.kind === 'alert') out = await backtestAlert(target.args, true);
    else if (mode === 'preview' && target.kind === 'tile') out = await previewTile(target.args, true);
    else if (mode === 'preview' && target.kind === 'dashboard') out = await previewDashboard(target.args, true);
    else out = { ok: false, error: vscode.l10n.t('This panel cannot be restored; open the preview again.') };
    if (!out.ok && !out.rendered && panel.isOpen) {
      const title = mode === 'backtest' ? vscode.l10n.t('Alert Backtest') : vscode.l10n.t('Tile Preview');
      const r = await panel.show(
        { kind: 'error', title, message: out.error ?? '' },
        { title, ...(target ? { restore: target } : {}) },
      );
      return { ...out, rendered: r?.summary };
    }
    return out;
  }

  return restorePanel;
}

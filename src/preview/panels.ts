import * as vscode from 'vscode';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import { FOLLOW_DELAY_MS, type PreviewOutcome, type Scope } from './context';
import { PreviewPanel, type RenderedState } from './panel';
import { resolveRange, type PreviewData, type RestoreArgs, type RestoreTarget, type TimeRange } from './protocol';

/**
 * The two panels (tile and dashboard previews; backtests) and what they show: the command that draws each again (a
 * range picked in the panel, a refresh, an edit of the document it follows), the document each follows (debounced),
 * and how a failed command is reported.
 */
export interface PreviewPanels {
  readonly previewPanel: PreviewPanel;
  readonly backtestPanel: PreviewPanel;
  /** Draws the preview panel's tile or dashboard again; `reveal` false for the panel's own requests and edits. */
  previewShown: ((reveal?: boolean) => Promise<PreviewOutcome>) | undefined;
  backtestShown: ((reveal?: boolean) => Promise<PreviewOutcome>) | undefined;
  now(range: TimeRange): { from: number; to: number };
  showData(
    panel: PreviewPanel,
    data: PreviewData,
    title: string,
    restore: RestoreTarget | undefined,
    reveal?: boolean,
    searches?: Record<string, Record<string, unknown>>,
  ): Promise<RenderedState | undefined>;
  restoreArgs(scope: Scope, uri: vscode.Uri | undefined, ids: Record<string, string | undefined>): RestoreArgs;
  follow(doc: vscode.Uri | undefined, which: 'preview' | 'backtest'): void;
  failed(e: unknown, quiet?: boolean): PreviewOutcome;
}

export function createPreviewPanels(context: vscode.ExtensionContext, log: Logger): PreviewPanels {
  const previewPanel = new PreviewPanel(context.extensionUri, 'preview');
  const backtestPanel = new PreviewPanel(context.extensionUri, 'backtest');
  let previewDoc: string | undefined;
  let backtestDoc: string | undefined;
  let followTimer: ReturnType<typeof setTimeout> | undefined;

  context.subscriptions.push(previewPanel, backtestPanel);
  context.subscriptions.push(
    // A range picked or a refresh asked for in a panel: its answer must not bring the panel to the front if the user
    // has moved on to another tab meanwhile (the query budget can hold it for seconds).
    previewPanel.onDidRequest(() => void panels.previewShown?.(false)),
    backtestPanel.onDidRequest(() => void panels.backtestShown?.(false)),
  );

  function now(range: TimeRange): { from: number; to: number } {
    return resolveRange(range, Date.now());
  }

  async function showData(
    panel: PreviewPanel,
    data: PreviewData,
    title: string,
    restore: RestoreTarget | undefined,
    reveal = true,
    searches?: Record<string, Record<string, unknown>>,
  ): Promise<RenderedState | undefined> {
    return panel.show(data, { title, reveal, ...(restore ? { restore } : {}), ...(searches ? { searches } : {}) });
  }

  /** What a window reload needs to draw a panel again: the document, or the connection, service and IDs. */
  function restoreArgs(
    scope: Scope,
    uri: vscode.Uri | undefined,
    ids: Record<string, string | undefined>,
  ): RestoreArgs {
    const args: RestoreArgs = uri
      ? { uri: uri.toString() }
      : { connectionId: scope.connectionId, serviceId: scope.serviceId };
    for (const [k, v] of Object.entries(ids)) if (v !== undefined && (!uri || k === 'tileId')) args[k] = v;
    return args;
  }

  function follow(doc: vscode.Uri | undefined, which: 'preview' | 'backtest'): void {
    if (which === 'preview') previewDoc = doc?.toString();
    else backtestDoc = doc?.toString();
  }

  function failed(e: unknown, quiet = false): PreviewOutcome {
    const message = errorMessage(e);
    log.warn(`preview: ${message}`);
    if (!quiet) void vscode.window.showErrorMessage(message);
    return { ok: false, error: message };
  }

  // ---- The panels follow their document (debounced) --------------------------------------------------------------

  context.subscriptions.push(
    vscode.workspace.onDidChangeTextDocument((e) => {
      const key = e.document.uri.toString();
      if (key !== previewDoc && key !== backtestDoc) return;
      if (followTimer) clearTimeout(followTimer);
      followTimer = setTimeout(() => {
        followTimer = undefined;
        if (key === previewDoc && previewPanel.isOpen) void panels.previewShown?.(false).catch(() => undefined);
        if (key === backtestDoc && backtestPanel.isOpen) void panels.backtestShown?.(false).catch(() => undefined);
      }, FOLLOW_DELAY_MS);
    }),
    { dispose: () => followTimer && clearTimeout(followTimer) },
  );

  const panels: PreviewPanels = {
    previewPanel,
    backtestPanel,
    previewShown: undefined,
    backtestShown: undefined,
    now,
    showData,
    restoreArgs,
    follow,
    failed,
  };
  return panels;
}

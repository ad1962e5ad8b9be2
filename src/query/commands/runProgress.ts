/**
 * The progress notification of a running query (with Cancel), shown only once the run has taken PROGRESS_AFTER_MS:
 * a quick query flashes no notification, and the workbench's page, which also hands the results webview its
 * messages, has that much less to do while the first rows and the summary are on their way.
 */
import * as vscode from 'vscode';

export const PROGRESS_AFTER_MS = 300;

export interface RunProgress {
  /** The message under the title (the latest is shown once the notification opens). */
  report(message: string): void;
  /** The count of rows read so far: at most every 250 ms. */
  rows(count: number): void;
  /** The run ended: the notification closes (or never opens). */
  close(): void;
}

export function runProgress(title: string, cancel: () => void): RunProgress {
  let progress: vscode.Progress<{ message?: string }> | undefined;
  let latest: string | undefined;
  let closed = false;
  let finish: () => void = () => undefined;
  const timer = setTimeout(() => {
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (p, token) => {
        if (closed) return Promise.resolve();
        progress = p;
        if (latest !== undefined) p.report({ message: latest });
        const sub = token.onCancellationRequested(cancel);
        return new Promise<void>((resolve) => {
          finish = () => {
            sub.dispose();
            resolve();
          };
        });
      },
    );
  }, PROGRESS_AFTER_MS);
  const report = (message: string): void => {
    latest = message;
    progress?.report({ message });
  };
  let lastCount = performance.now();
  return {
    report,
    rows: (count) => {
      const now = performance.now();
      if (now - lastCount < 250) return;
      lastCount = now;
      report(vscode.l10n.t('{0} rows', count.toLocaleString()));
    },
    close: () => {
      closed = true;
      clearTimeout(timer);
      finish();
    },
  };
}

import * as vscode from 'vscode';
import { VIEW_ID } from '../../constants';
import type { FiringAlert, FiringStatus } from '../firingStatus';

/** `observability.showFiringAlerts`: focuses the explorer and reveals the first firing alert. No argument. */
export function registerShowFiringAlerts(
  context: vscode.ExtensionContext,
  status: FiringStatus,
  reveal: (alert: FiringAlert) => Promise<boolean>,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.showFiringAlerts', async () => {
      const first = status.firing[0];
      await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
      if (first) await reveal(first);
    }),
  );
}

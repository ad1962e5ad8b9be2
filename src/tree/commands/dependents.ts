import * as vscode from 'vscode';
import { sanitizeServerText } from '../../api';
import type { Alert } from '../../resources/model';
import { alertLabel } from '../../labels/format';

/** A bulleted list of names (at most 15, then "… and N more"). */
export function bulletList(names: readonly string[]): string {
  const shown = names
    .slice(0, 15)
    .map((n) => `• ${sanitizeServerText(n, 200)}`)
    .join('\n');
  const more = names.length > 15 ? `\n${vscode.l10n.t('… and {0} more', names.length - 15)}` : '';
  return `${shown}${more}`;
}

/** Offers the alerts in a quick pick and opens the chosen ones in the alert editor. */
export async function pickAndOpenAlerts(connectionId: string, serviceId: string, alerts: readonly Alert[]) {
  const picked = await vscode.window.showQuickPick(
    alerts.map((a) => ({ label: alertLabel(a), description: a.id, alert: a })),
    { canPickMany: true, title: vscode.l10n.t('Open alerts'), placeHolder: vscode.l10n.t('Alerts to open') },
  );
  for (const p of picked ?? []) {
    await vscode.commands.executeCommand('observability.editResource', {
      connectionId,
      serviceId,
      alertId: p.alert.id,
      name: p.alert.name ?? undefined,
    });
  }
}

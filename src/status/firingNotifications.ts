import * as vscode from 'vscode';
import { sanitizeServerText } from '../api';
import { readSettings, type AlertWatchSettings } from '../config';
import { alertLabel, conditionText } from '../labels/format';
import type { FiringAlert, FiringStatus } from './firingStatus';

/** Whether a connection (label) or service (name or ID) is among those the user asked to hear about. */
export function inNotifyScope(scope: readonly string[], alert: FiringAlert): boolean {
  if (scope.length === 0) return true;
  const names = [alert.connectionLabel, alert.serviceName, alert.serviceId].map((n) => n.toLowerCase());
  return scope.some((entry) => names.includes(entry.toLowerCase()));
}

/**
 * Opt-in notifications (`observability.alerts.notifications.enabled`) when an alert starts or stops firing, for the
 * connections and services in `observability.alerts.notifications.scope`. Nothing is shown while the window is not
 * focused unless `observability.alerts.notifications.whileUnfocused` is on.
 */
export function registerFiringNotifications(
  status: FiringStatus,
  reveal: (alert: FiringAlert) => Promise<boolean>,
): vscode.Disposable {
  return status.onDidChangeFiring(({ started, stopped }) => {
    const settings = readSettings().alerts;
    if (!settings.notify) return;
    if (!vscode.window.state.focused && !settings.notifyWhileUnfocused) return;
    notifyStarted(settings, started, reveal);
    notifyStopped(settings, stopped);
  });
}

function where(alert: FiringAlert): string {
  return sanitizeServerText(alert.serviceName) || sanitizeServerText(alert.serviceId);
}

function notifyStarted(
  settings: AlertWatchSettings,
  started: readonly FiringAlert[],
  reveal: (alert: FiringAlert) => Promise<boolean>,
): void {
  const shown = started.filter((a) => inNotifyScope(settings.notifyScope, a));
  if (shown.length === 0) return;
  const show = vscode.l10n.t('Show');
  if (shown.length === 1) {
    const [alert] = shown as [FiringAlert];
    const message = vscode.l10n.t(
      'Alert "{0}" started firing on {1} ({2}).',
      alertLabel(alert.alert),
      where(alert),
      conditionText(alert.alert),
    );
    void vscode.window.showWarningMessage(message, show).then((choice) => {
      if (choice === show) void reveal(alert);
    });
    return;
  }
  const names = shown.slice(0, 3).map((a) => `"${alertLabel(a.alert)}"`);
  if (shown.length > 3) names.push(vscode.l10n.t('{0} more', shown.length - 3));
  const message = vscode.l10n.t('{0} alerts started firing: {1}.', shown.length, names.join(', '));
  void vscode.window.showWarningMessage(message, show).then((choice) => {
    if (choice === show) void vscode.commands.executeCommand('observability.showFiringAlerts');
  });
}

function notifyStopped(settings: AlertWatchSettings, stopped: readonly FiringAlert[]): void {
  const shown = stopped.filter((a) => inNotifyScope(settings.notifyScope, a));
  if (shown.length === 0) return;
  const message =
    shown.length === 1
      ? vscode.l10n.t('Alert "{0}" stopped firing on {1}.', alertLabel(shown[0]!.alert), where(shown[0]!))
      : vscode.l10n.t(
          '{0} alerts stopped firing: {1}.',
          shown.length,
          shown
            .slice(0, 3)
            .map((a) => `"${alertLabel(a.alert)}"`)
            .join(', ') + (shown.length > 3 ? ', …' : ''),
        );
  void vscode.window.showInformationMessage(message);
}

import * as vscode from 'vscode';
import { VIEW_ID } from '../../constants';
import { alertLabel, conditionText } from '../../labels/format';
import { sanitizeServerText } from '../../api';
import type { FiringAlert, FiringStatus } from '../firingStatus';

interface FiringPick extends vscode.QuickPickItem {
  readonly firing?: FiringAlert;
}

const OPEN_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('go-to-file'),
  tooltip: vscode.l10n.t('Open the alert'),
};

/** "firing since 14:05", or when it was last changed on the server when this window saw it firing from the start. */
function sinceText(f: FiringAlert, silenced: boolean): string {
  const state = silenced ? vscode.l10n.t('silenced, firing') : vscode.l10n.t('firing');
  if (f.since !== undefined) return vscode.l10n.t('{0} since {1}', state, new Date(f.since).toLocaleString());
  const changed = f.alert.updatedAt ? Date.parse(f.alert.updatedAt) : NaN;
  if (!Number.isNaN(changed)) {
    return vscode.l10n.t('{0} (last changed {1})', state, new Date(changed).toLocaleString());
  }
  return state;
}

function pickItem(f: FiringAlert, silenced: boolean): FiringPick {
  const service = sanitizeServerText(f.serviceName) || sanitizeServerText(f.serviceId);
  const connection = sanitizeServerText(f.connectionLabel);
  return {
    label: `$(${silenced ? 'bell-slash' : 'bell-dot'}) ${alertLabel(f.alert)}`,
    description: `${conditionText(f.alert)} · ${service}`,
    detail: `${sinceText(f, silenced)} · ${connection}`,
    buttons: [OPEN_BUTTON],
    firing: f,
  };
}

/**
 * `observability.showFiringAlerts`: a quick pick of the firing alerts across connections and services (silenced ones
 * apart) with their condition, service and since when; the chosen one is revealed in the explorer, or opened with
 * the item's button. No argument; returns the counts listed once the list shows.
 */
export function registerShowFiringAlerts(
  context: vscode.ExtensionContext,
  status: FiringStatus,
  reveal: (alert: FiringAlert) => Promise<boolean>,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.showFiringAlerts', async () => {
      await vscode.window.withProgress({ location: { viewId: VIEW_ID }, title: vscode.l10n.t('Loading alerts…') }, () =>
        status.tick(true),
      );
      const items: FiringPick[] = status.firing.map((f) => pickItem(f, false));
      if (status.silenced.length > 0) {
        items.push(
          { label: vscode.l10n.t('Silenced'), kind: vscode.QuickPickItemKind.Separator },
          ...status.silenced.map((f) => pickItem(f, true)),
        );
      }
      if (items.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('No alerts are firing.'));
        return { firing: 0, silenced: 0 };
      }
      // The command ends once the list shows (automation is not held by an open list); the choice is handled here.
      const pick = vscode.window.createQuickPick<FiringPick>();
      pick.title = vscode.l10n.t('Firing Alerts');
      pick.placeholder = vscode.l10n.t('Choose an alert to show it in the Observability view');
      pick.matchOnDescription = true;
      pick.matchOnDetail = true;
      pick.items = items;
      const go = async (firing: FiringAlert, open: boolean) => {
        pick.hide();
        const { connectionId, serviceId, alert } = firing;
        if (open) {
          await vscode.commands.executeCommand('observability.editResource', {
            connectionId,
            serviceId,
            alertId: alert.id,
          });
          return;
        }
        await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
        await reveal(firing);
      };
      pick.onDidAccept(() => {
        const firing = pick.selectedItems[0]?.firing;
        if (firing) void go(firing, false);
        else pick.hide();
      });
      pick.onDidTriggerItemButton((e) => {
        if (e.item.firing) void go(e.item.firing, true);
      });
      pick.onDidHide(() => pick.dispose());
      pick.show();
      return { firing: status.firing.length, silenced: status.silenced.length };
    }),
  );
}

import * as vscode from 'vscode';
import { alertLabel } from '../../labels/format';
import { DeleteResult, ResourceCommandDeps, resourceCommandHelpers, targetOf } from './common';

/** `observability.deleteDashboard`. */
export function registerDeleteDashboard(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree, connections } = deps;
  const { runDelete } = resourceCommandHelpers(deps);
  const cache = tree.cache;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.deleteDashboard', async (arg): Promise<DeleteResult> => {
      const target = targetOf(arg, tree);
      if (!target || target.kind !== 'dashboard' || !target.id) return { deleted: false };
      const dashboardId = target.id;
      // The service deletes a dashboard's alerts with it: say which, by name.
      await cache.ensure(target.connectionId, target.serviceId, 'alerts');
      const doomed = cache.alertsForDashboard(target.connectionId, target.serviceId, dashboardId).map(alertLabel);
      const alertsKnown = cache.peek(target.connectionId, target.serviceId, 'alerts') !== undefined;
      const shown = doomed
        .slice(0, 15)
        .map((n) => `• ${n}`)
        .join('\n');
      const more = doomed.length > 15 ? `\n${vscode.l10n.t('… and {0} more', doomed.length - 15)}` : '';
      const detail = !alertsKnown
        ? vscode.l10n.t(
            'The service also deletes the alerts on its tiles (the alert list could not be loaded). This cannot be undone.',
          )
        : doomed.length > 0
          ? `${vscode.l10n.t('The service also deletes the {0} alerts on its tiles:', doomed.length)}\n${shown}${more}\n\n${vscode.l10n.t('This cannot be undone.')}`
          : vscode.l10n.t('No alerts watch its tiles. This cannot be undone.');
      const client = connections.clientFor(target.connectionId);
      return runDelete(
        target,
        vscode.l10n.t('Delete dashboard "{0}"?', target.name),
        detail,
        () => client.deleteDashboard(target.serviceId, dashboardId),
        doomed,
      );
    }),
  );
}

import * as vscode from 'vscode';
import { sanitizeServerText } from '../../api';
import { alertsUsingWebhook } from '../../resources/dependents';
import { alertLabel } from '../../labels/format';
import { DeleteResult, ResourceCommandDeps, resourceCommandHelpers, targetOf } from './common';
import { bulletList, pickAndOpenAlerts } from './dependents';

/**
 * `observability.deleteWebhook`. The service refuses (409) to delete a webhook while alerts send to it: those
 * alerts are named first, with a way to open them, and nothing is sent.
 */
export function registerDeleteWebhook(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree, connections, log } = deps;
  const { runDelete } = resourceCommandHelpers(deps);
  const cache = tree.cache;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.deleteWebhook', async (arg): Promise<DeleteResult> => {
      const target = targetOf(arg, tree);
      if (!target || target.kind !== 'webhook' || !target.id) return { deleted: false };
      const webhookId = target.id;
      const { connectionId, serviceId } = target;
      const entry = await cache.ensure(connectionId, serviceId, 'alerts', { maxAgeMs: 0 });
      const users = entry.value ? alertsUsingWebhook(entry.value, webhookId) : undefined;
      if (users && users.length > 0) {
        const names = users.map(alertLabel);
        const message = vscode.l10n.t(
          'Webhook "{0}" is used by {1} alert(s): the service does not delete it until they are reassigned or deleted.',
          sanitizeServerText(target.name, 200),
          users.length,
        );
        log.warn(`Not deleting webhook ${webhookId} of service ${serviceId}: ${users.length} alert(s) use it`);
        if (!target.fromArgs || !target.skipConfirmation) {
          const open = vscode.l10n.t('Open Alerts');
          const answer = await vscode.window.showWarningMessage(
            message,
            { modal: true, detail: bulletList(names) },
            open,
          );
          if (answer === open) await pickAndOpenAlerts(connectionId, serviceId, users);
        }
        return { deleted: false, error: message, blockedBy: names };
      }
      const detail = users
        ? vscode.l10n.t('No alert uses it. This cannot be undone.')
        : vscode.l10n.t(
            'The alert list could not be loaded: the service refuses the delete if alerts use the webhook. This cannot be undone.',
          );
      const client = connections.clientFor(connectionId);
      return runDelete(target, vscode.l10n.t('Delete webhook "{0}"?', target.name), detail, () =>
        client.deleteWebhook(serviceId, webhookId),
      );
    }),
  );
}

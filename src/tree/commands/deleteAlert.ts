import * as vscode from 'vscode';
import { DeleteResult, ResourceCommandDeps, resourceCommandHelpers, targetOf } from './common';

/** `observability.deleteAlert`. */
export function registerDeleteAlert(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree, connections } = deps;
  const { runDelete } = resourceCommandHelpers(deps);
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.deleteAlert', async (arg): Promise<DeleteResult> => {
      const target = targetOf(arg, tree);
      if (!target || target.kind !== 'alert' || !target.id) return { deleted: false };
      const alertId = target.id;
      const client = connections.clientFor(target.connectionId);
      return runDelete(
        target,
        vscode.l10n.t('Delete alert "{0}"?', target.name),
        vscode.l10n.t(
          'The alert stops watching its tile or search and sends no more notifications. This cannot be undone.',
        ),
        () => client.deleteAlert(target.serviceId, alertId),
      );
    }),
  );
}

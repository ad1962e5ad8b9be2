import * as vscode from 'vscode';
import { alertsOnSavedSearch } from '../../resources/dependents';
import { alertLabel } from '../../labels/format';
import { DeleteResult, ResourceCommandDeps, resourceCommandHelpers, targetOf } from './common';
import { bulletList } from './dependents';

/** `observability.deleteSavedSearch`. The service deletes the alerts attached to it: they are named first. */
export function registerDeleteSavedSearch(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree, connections } = deps;
  const { runDelete } = resourceCommandHelpers(deps);
  const cache = tree.cache;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.deleteSavedSearch', async (arg): Promise<DeleteResult> => {
      const target = targetOf(arg, tree);
      if (!target || target.kind !== 'savedSearch' || !target.id) return { deleted: false };
      const id = target.id;
      const { connectionId, serviceId } = target;
      const entry = await cache.ensure(connectionId, serviceId, 'alerts', { maxAgeMs: 0 });
      const doomed = entry.value ? alertsOnSavedSearch(entry.value, id).map(alertLabel) : undefined;
      const detail = !doomed
        ? vscode.l10n.t(
            'The service also deletes the alerts on this saved search (the alert list could not be loaded). This cannot be undone.',
          )
        : doomed.length > 0
          ? `${vscode.l10n.t('The service also deletes the {0} alert(s) on this saved search:', doomed.length)}\n${bulletList(doomed)}\n\n${vscode.l10n.t('This cannot be undone.')}`
          : vscode.l10n.t('No alert watches it. This cannot be undone.');
      const client = connections.clientFor(connectionId);
      return runDelete(
        target,
        vscode.l10n.t('Delete saved search "{0}"?', target.name),
        detail,
        () => client.deleteSavedSearch(serviceId, id),
        doomed,
      );
    }),
  );
}

import * as vscode from 'vscode';
import { sourceDependents } from '../../resources/dependents';
import { alertLabel, nameOf } from '../../labels/format';
import { DeleteResult, ResourceCommandDeps, resourceCommandHelpers, targetOf } from './common';
import { bulletList } from './dependents';

/**
 * `observability.deleteSource`. The service deletes the source only: tiles, saved searches, alerts and correlated
 * sources that read it keep pointing at a source that no longer exists. They are all named in one confirmation.
 */
export function registerDeleteSource(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree, connections } = deps;
  const { runDelete } = resourceCommandHelpers(deps);
  const cache = tree.cache;
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.deleteSource', async (arg): Promise<DeleteResult> => {
      const target = targetOf(arg, tree);
      if (!target || target.kind !== 'source' || !target.id) return { deleted: false };
      const id = target.id;
      const { connectionId, serviceId } = target;
      const kinds = ['dashboards', 'savedSearches', 'alerts', 'sources'] as const;
      const entries = await Promise.all(kinds.map((k) => cache.ensure(connectionId, serviceId, k, { maxAgeMs: 0 })));
      const unknown = kinds.filter((_, i) => entries[i]!.value === undefined);
      const deps_ = sourceDependents(id, {
        dashboards: cache.peek(connectionId, serviceId, 'dashboards'),
        savedSearches: cache.peek(connectionId, serviceId, 'savedSearches'),
        alerts: cache.peek(connectionId, serviceId, 'alerts'),
        sources: cache.peek(connectionId, serviceId, 'sources'),
      });
      const users = [
        ...deps_.tiles.map((t) => vscode.l10n.t('tile "{0}" of dashboard "{1}"', t.tileName, nameOf(t.dashboard))),
        ...deps_.savedSearches.map((s) => vscode.l10n.t('saved search "{0}"', nameOf(s))),
        ...deps_.alerts.map((a) => vscode.l10n.t('alert "{0}"', alertLabel(a))),
        ...deps_.sources.map((s) => vscode.l10n.t('source "{0}"', nameOf(s))),
      ];
      const parts: string[] = [];
      if (users.length > 0) {
        parts.push(
          vscode.l10n.t(
            'These keep pointing at the deleted source and stop working until edited ({0} tile(s), {1} saved search(es), {2} alert(s), {3} source(s)):',
            deps_.tiles.length,
            deps_.savedSearches.length,
            deps_.alerts.length,
            deps_.sources.length,
          ),
          bulletList(users),
          '',
        );
      } else if (unknown.length === 0) {
        parts.push(vscode.l10n.t('No tile, saved search, alert or source uses it.'));
      }
      if (unknown.length > 0) {
        parts.push(vscode.l10n.t('Could not check: {0}.', unknown.join(', ')));
      }
      parts.push(vscode.l10n.t('This cannot be undone.'));
      const client = connections.clientFor(connectionId);
      return runDelete(
        target,
        vscode.l10n.t('Delete source "{0}"?', target.name),
        parts.join('\n'),
        () => client.deleteSource(serviceId, id),
        undefined,
        users,
      );
    }),
  );
}

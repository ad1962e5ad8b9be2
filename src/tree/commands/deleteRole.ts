import * as vscode from 'vscode';
import { DeleteResult, ResourceCommandDeps, resourceCommandHelpers, targetOf } from './common';

/** `observability.deleteRole`. Predefined roles cannot be deleted; the service also refuses roles assigned to users. */
export function registerDeleteRole(context: vscode.ExtensionContext, deps: ResourceCommandDeps): void {
  const { tree, connections } = deps;
  const { runDelete } = resourceCommandHelpers(deps);
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.deleteRole', async (arg): Promise<DeleteResult> => {
      const target = targetOf(arg, tree);
      if (!target || target.kind !== 'role' || !target.id) return { deleted: false };
      const id = target.id;
      const role = tree.cache.peek(target.connectionId, target.serviceId, 'roles')?.find((r) => r.id === id);
      if (role?.isPredefined) {
        const message = vscode.l10n.t('"{0}" is a predefined role: it cannot be deleted.', target.name);
        if (!target.fromArgs) void vscode.window.showWarningMessage(message);
        return { deleted: false, error: message };
      }
      const client = connections.clientFor(target.connectionId);
      return runDelete(
        target,
        vscode.l10n.t('Delete role "{0}"?', target.name),
        vscode.l10n.t(
          'The service refuses to delete the default role and roles assigned to users. This cannot be undone.',
        ),
        () => client.deleteRole(target.serviceId, id),
      );
    }),
  );
}

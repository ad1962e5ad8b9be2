import * as vscode from 'vscode';
import { uriFor, type ResourceRef } from '../../jsonDocuments/uris';
import { EditorCommandDeps, ResourceCommandArgs, asObject, editorCommandHelpers, isNodeLike } from './common';
import { errorMessage } from '../../errors';
import { KINDS } from '../../resources/kinds';
import type { DocumentKind } from '../../resources/model';

/** Kinds an argument object names by `kind` and `id`. */
const EDITABLE_BY_ID: readonly DocumentKind[] = ['alert', 'dashboard', 'webhook', 'savedSearch', 'source', 'role'];

/** `observability.editResource`. */
export function registerEditResource(context: vscode.ExtensionContext, deps: EditorCommandDeps): void {
  const { live, fs } = deps;
  const { open, existingUri } = editorCommandHelpers(deps);
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.editResource', async (arg): Promise<string | undefined> => {
      let ref: ResourceRef | undefined;
      let name: string | undefined;
      if (isNodeLike(arg)) {
        if (arg.type === 'alert') {
          ref = { connectionId: arg.connectionId, serviceId: arg.serviceId, kind: 'alert', id: arg.alert.id };
          name = arg.alert.name ?? undefined;
        } else if (arg.type === 'dashboard') {
          ref = { connectionId: arg.connectionId, serviceId: arg.serviceId, kind: 'dashboard', id: arg.dashboard.id };
          name = arg.dashboard.name ?? undefined;
        } else if (arg.type === 'source') {
          ref = { connectionId: arg.connectionId, serviceId: arg.serviceId, kind: 'source', id: arg.source.id };
          name = arg.source.name ?? undefined;
        } else if (arg.type === 'item') {
          ref = { connectionId: arg.connectionId, serviceId: arg.serviceId, kind: arg.kind, id: arg.item.id };
          name = arg.item.name || undefined;
        }
      } else {
        const o = asObject<ResourceCommandArgs>(arg);
        const kind = o.kind && EDITABLE_BY_ID.includes(o.kind) ? o.kind : undefined;
        if (o.connectionId && o.serviceId && kind && typeof o.id === 'string' && o.id !== '') {
          ref = { connectionId: o.connectionId, serviceId: o.serviceId, kind, id: o.id };
          name = o.name;
        } else if (o.connectionId && o.serviceId && (o.alertId || o.dashboardId)) {
          ref = o.alertId
            ? { connectionId: o.connectionId, serviceId: o.serviceId, kind: 'alert', id: o.alertId }
            : { connectionId: o.connectionId, serviceId: o.serviceId, kind: 'dashboard', id: o.dashboardId as string };
          name = o.name;
        }
      }
      if (!ref) return undefined;
      if (!name && (ref.kind === 'alert' || ref.kind === 'dashboard')) {
        const cached =
          ref.kind === 'alert'
            ? (await live.alerts(ref.connectionId, ref.serviceId))?.find((a) => a.id === ref.id)?.name
            : (await live.dashboards(ref.connectionId, ref.serviceId))?.find((d) => d.id === ref.id)?.name;
        name = cached ?? undefined;
      }
      const uri = existingUri(ref) ?? uriFor(ref, name);
      try {
        await open(uri);
      } catch (error) {
        // The request's own error reads better than VS Code's "Unable to read file …" around it.
        const cause = fs.loadFailure(ref) ?? error;
        const message = vscode.l10n.t('Could not open the {0}: {1}', KINDS[ref.kind].label, errorMessage(cause));
        deps.log.error(message);
        void vscode.window.showErrorMessage(message);
        return undefined;
      }
      return uri.toString();
    }),
  );
}

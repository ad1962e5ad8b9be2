import * as vscode from 'vscode';
import type { Dashboard, TileResponse, Webhook } from '../../schema';
import { toText } from '../../jsonDocuments/documents';
import { sortByName } from '../../labels/plainFormat';
import { parseUri, refKey, uriFor, type ResourceRef } from '../../jsonDocuments/uris';
import { applyEdits, modify } from 'jsonc-parser/lib/esm/main';
import type { CreatedResource } from '../apply';
import { openNewResource } from './createResource';
import { isAlertableDisplayType } from '../../schema';
import { CreateAlertArgs, EditorCommandDeps, asObject, editorCommandHelpers, isNodeLike, nextDraftKey } from './common';

/** `observability.createAlert`. */
export function registerCreateAlert(context: vscode.ExtensionContext, deps: EditorCommandDeps): void {
  const { live, fs } = deps;
  const { open, scopeOf } = editorCommandHelpers(deps);
  context.subscriptions.push(
    vscode.commands.registerCommand('observability.createAlert', async (arg): Promise<string | undefined> => {
      const args = asObject<CreateAlertArgs>(arg);
      let dashboardId = args.dashboardId;
      let tileId = args.tileId;
      let tileName: string | undefined;
      if (isNodeLike(arg)) {
        if (arg.type === 'tile') {
          tileId = arg.tile.id;
          tileName = arg.tile.name ?? undefined;
          dashboardId = arg.parent.dashboard.id;
        } else if (arg.type === 'dashboard') {
          dashboardId = arg.dashboard.id;
        }
      }
      const scope = await scopeOf(arg);
      if (!scope) return undefined;
      const { connectionId, serviceId } = scope;

      let dashboards: readonly Dashboard[] | undefined;
      if (!dashboardId || !tileId || !tileName) dashboards = await live.dashboards(connectionId, serviceId);
      if (!dashboardId) {
        if (!dashboards) {
          void vscode.window.showErrorMessage(
            vscode.l10n.t('The dashboards of the service could not be loaded. Check the explorer for the error.'),
          );
          return undefined;
        }
        const withTiles = dashboards.filter((d) =>
          (d.tiles ?? []).some((t) => isAlertableDisplayType(t.config?.displayType)),
        );
        if (withTiles.length === 0) {
          void vscode.window.showWarningMessage(
            vscode.l10n.t('No dashboard of this service has a line, stacked bar or number tile to alert on.'),
          );
          return undefined;
        }
        // In the tree's order (by name), so the dashboard is where the user saw it.
        const picked = await vscode.window.showQuickPick(
          sortByName(withTiles).map((d) => ({
            label: d.name || d.id,
            description: d.id,
            id: d.id,
            detail: vscode.l10n.t(
              '{0} tiles that can carry an alert',
              (d.tiles ?? []).filter((t) => isAlertableDisplayType(t.config?.displayType)).length,
            ),
          })),
          {
            title: vscode.l10n.t('Create Alert: dashboard'),
            placeHolder: vscode.l10n.t('Which dashboard holds the tile to watch?'),
            matchOnDescription: true,
          },
        );
        if (!picked) return undefined;
        dashboardId = picked.id;
      }
      const dashboard = dashboards?.find((d) => d.id === dashboardId);
      if (!tileId) {
        const tiles: readonly TileResponse[] = (dashboard?.tiles ?? []).filter((t) =>
          isAlertableDisplayType(t.config?.displayType),
        );
        if (tiles.length === 0) {
          void vscode.window.showWarningMessage(
            vscode.l10n.t('This dashboard has no line, stacked bar or number tile to alert on.'),
          );
          return undefined;
        }
        const picked = await vscode.window.showQuickPick(
          tiles.map((t) => ({
            label: t.name || t.id,
            description: t.config?.displayType ?? '',
            detail: t.id,
            id: t.id,
          })),
          {
            title: vscode.l10n.t('Create Alert: tile'),
            placeHolder: vscode.l10n.t('Which tile should the alert watch?'),
          },
        );
        if (!picked) return undefined;
        tileId = picked.id;
      }
      tileName ??= dashboard?.tiles?.find((t) => t.id === tileId)?.name ?? undefined;

      let webhookId = args.webhookId;
      let createWebhookFirst = false;
      if (webhookId === undefined) {
        const webhooks: readonly Webhook[] = (await live.webhooks(connectionId, serviceId)) ?? [];
        if (webhooks.length > 0) {
          const picked = await vscode.window.showQuickPick(
            sortByName(webhooks).map((w) => ({
              label: w.name || w.id,
              description: w.service,
              detail: w.id,
              id: w.id,
            })),
            {
              title: vscode.l10n.t('Create Alert: notify'),
              placeHolder: vscode.l10n.t('Which webhook should the alert notify?'),
            },
          );
          if (!picked) return undefined;
          webhookId = picked.id;
        } else {
          webhookId = '';
          let first = args.createWebhookFirst;
          if (first === undefined) {
            const create = {
              label: `$(add) ${vscode.l10n.t('Create a webhook first')}`,
              detail: vscode.l10n.t(
                'Opens a new webhook document; once it is applied, its ID is filled in this alert.',
              ),
              first: true,
            };
            const without = {
              label: vscode.l10n.t('Continue without a webhook'),
              detail: vscode.l10n.t('Fill in "webhookId" later, once the service has a webhook.'),
              first: false,
            };
            const picked = await vscode.window.showQuickPick([create, without], {
              title: vscode.l10n.t('Create Alert: notify'),
              placeHolder: vscode.l10n.t('The service has no webhook yet: an alert needs one to notify.'),
            });
            if (!picked) return undefined;
            first = picked.first;
          }
          createWebhookFirst = first;
          if (!first) {
            void vscode.window.showWarningMessage(
              vscode.l10n.t('The service has no webhooks yet: fill in "webhookId" once one exists.'),
            );
          }
        }
      }

      const subject = tileName || vscode.l10n.t('Tile');
      const body = {
        name: args.name ?? vscode.l10n.t('{0} above threshold', subject),
        source: 'tile',
        dashboardId,
        tileId,
        threshold: args.threshold ?? 0,
        thresholdType: 'above',
        interval: '1h',
        channel: { type: 'webhook', webhookId },
        message: args.message ?? vscode.l10n.t('{0} is {{value}}, above {{threshold}}.', subject),
      };
      const ref: ResourceRef = { connectionId, serviceId, kind: 'alert', draftKey: nextDraftKey() };
      fs.set(ref, { text: toText(body), base: undefined, exists: false });
      const uri = uriFor(ref, body.name);
      const editor = await open(uri);
      // Put the cursor on the threshold: the value most likely to change.
      const line = editor.document
        .getText()
        .split('\n')
        .findIndex((l) => l.includes('"threshold"'));
      if (line >= 0) {
        const col = editor.document.lineAt(line).text.indexOf(':') + 2;
        editor.selection = new vscode.Selection(
          line,
          col,
          line,
          editor.document.lineAt(line).text.replace(/,$/, '').length,
        );
      }
      if (createWebhookFirst) {
        const webhookUri = await openNewResource(deps, { connectionId, serviceId }, 'webhook', {
          name: vscode.l10n.t('{0} notifications', subject),
        });
        if (webhookUri) {
          const webhookRef = parseUri(webhookUri);
          if (webhookRef) waiting.set(refKey(webhookRef), uri.toString());
          void vscode.window.showInformationMessage(
            vscode.l10n.t(
              'Fill in the webhook and apply it: its ID then goes into the alert "{0}", which opens again.',
              body.name,
            ),
          );
        }
      }
      return uri.toString();
    }),
    deps.applier.onDidCreate((created) => void fillWebhook(created)),
  );

  /** Alert drafts (addresses) waiting for the webhook created from a draft (its key). */
  const waiting = new Map<string, string>();

  /** Puts a webhook created for an alert draft into the draft's channel, and brings the alert back. */
  async function fillWebhook(created: CreatedResource): Promise<void> {
    if (created.kind !== 'webhook') return;
    const key = refKey(created.draft);
    const alertUri = waiting.get(key);
    if (!alertUri) return;
    waiting.delete(key);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === alertUri && !d.isClosed);
    if (!doc) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Webhook created (ID {0}); the alert document it was for is closed.', created.id),
      );
      return;
    }
    const text = doc.getText();
    const edits = modify(text, ['channel', 'webhookId'], created.id, {
      formattingOptions: { insertSpaces: true, tabSize: 2 },
    });
    if (edits.length > 0) {
      const next = applyEdits(text, edits);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)), next);
      await vscode.workspace.applyEdit(edit);
    }
    await vscode.window.showTextDocument(doc, { preview: false });
    deps.log.info(`Webhook ${created.id} filled in the alert draft ${doc.uri.path}.`);
  }
}

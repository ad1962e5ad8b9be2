import * as vscode from 'vscode';
import {
  roleTemplate,
  savedSearchTemplate,
  sourceTemplate,
  webhookTemplate,
  SOURCE_TEMPLATE_KINDS,
  type SourceTemplateKind,
} from '../../resources/kinds';
import { toText } from '../../jsonDocuments/documents';
import { uriFor, type ResourceRef } from '../../jsonDocuments/uris';
import { EditorCommandDeps, asObject, editorCommandHelpers, nextDraftKey } from './common';

/** Kinds with a Create command of this file. */
export type CreatableKind = 'webhook' | 'savedSearch' | 'source' | 'role';

export interface CreateResourceArgs {
  readonly connectionId?: string;
  readonly serviceId?: string;
  /** Name of the new resource (default: "New …"). */
  readonly name?: string;
  /** Create Source: the kind of source (log, trace, metric, session); asked when left out. */
  readonly sourceKind?: SourceTemplateKind;
  /** Create Saved Search: fields filled in over the template (a search panel's source, condition, columns, order). */
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** Fields of a saved search a caller may fill in: strings only, as the request schema takes them. */
const SAVED_SEARCH_FIELDS = ['sourceId', 'select', 'where', 'whereLanguage', 'orderBy'] as const;

function savedSearchFields(fields: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of SAVED_SEARCH_FIELDS) if (typeof fields?.[key] === 'string') out[key] = fields[key];
  return out;
}

const COMMANDS: Record<CreatableKind, string> = {
  webhook: 'observability.createWebhook',
  savedSearch: 'observability.createSavedSearch',
  source: 'observability.createSource',
  role: 'observability.createRole',
};

/**
 * Opens a new document of a kind, filled from its template, in the same editor as alerts: nothing is sent until
 * Apply. Returns the document's address. Used by the Create commands and by Create Alert (a webhook first).
 */
export async function openNewResource(
  deps: EditorCommandDeps,
  scope: { connectionId: string; serviceId: string },
  kind: CreatableKind,
  args: Partial<CreateResourceArgs> = {},
): Promise<vscode.Uri | undefined> {
  const { open } = editorCommandHelpers(deps);
  let body: Record<string, unknown>;
  switch (kind) {
    case 'webhook':
      body = webhookTemplate(args.name ?? vscode.l10n.t('New webhook'));
      break;
    case 'savedSearch':
      body = savedSearchTemplate(
        args.name ?? vscode.l10n.t('New saved search'),
        await deps.live.sources(scope.connectionId, scope.serviceId),
      );
      body = { ...body, ...savedSearchFields(args.fields) };
      break;
    case 'source': {
      let sourceKind = args.sourceKind;
      if (!sourceKind || !(SOURCE_TEMPLATE_KINDS as readonly string[]).includes(sourceKind)) {
        const details: Record<SourceTemplateKind, string> = {
          log: vscode.l10n.t('Log lines (otel_logs): timestamp, select, body, severity'),
          trace: vscode.l10n.t('Spans (otel_traces): duration, trace, span and parent IDs, span name and kind'),
          metric: vscode.l10n.t('Metrics (otel_metrics_*): metric tables, resource attributes'),
          session: vscode.l10n.t('Session replays: the correlated trace source'),
        };
        const picked = await vscode.window.showQuickPick(
          SOURCE_TEMPLATE_KINDS.map((k) => ({ label: k, detail: details[k], sourceKind: k })),
          {
            title: vscode.l10n.t('Create Source: kind'),
            placeHolder: vscode.l10n.t('Which kind of source? The document starts with the expressions it requires.'),
          },
        );
        if (!picked) return undefined;
        sourceKind = picked.sourceKind;
      }
      body = sourceTemplate(
        sourceKind,
        args.name ?? vscode.l10n.t('New {0} source', sourceKind),
        await deps.live.sources(scope.connectionId, scope.serviceId),
      );
      break;
    }
    case 'role':
      body = roleTemplate(args.name ?? vscode.l10n.t('New role'));
      break;
  }
  const ref: ResourceRef = { ...scope, kind, draftKey: nextDraftKey() };
  deps.fs.set(ref, { text: toText(body), base: undefined, exists: false });
  const uri = uriFor(ref, body.name as string);
  await open(uri);
  return uri;
}

/** `observability.createWebhook`, `observability.createSavedSearch`, `observability.createSource`, `observability.createRole`. */
export function registerCreateResource(context: vscode.ExtensionContext, deps: EditorCommandDeps): void {
  const { scopeOf } = editorCommandHelpers(deps);
  for (const [kind, command] of Object.entries(COMMANDS) as [CreatableKind, string][]) {
    context.subscriptions.push(
      vscode.commands.registerCommand(command, async (arg): Promise<string | undefined> => {
        const scope = await scopeOf(arg);
        if (!scope) return undefined;
        return (await openNewResource(deps, scope, kind, asObject<CreateResourceArgs>(arg)))?.toString();
      }),
    );
  }
}

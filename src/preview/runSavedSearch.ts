import * as vscode from 'vscode';
import type { QueryResult } from '../api/query';
import type { LiveData } from '../resources/live';
import { isExplorerNode } from '../commandArgs';
import { errorMessage } from '../errors';
import { sanitizeServerText } from '../api';
import type { SavedSearchLike } from './savedSearchRows';

/** Ranges offered, newest data last: the same choices as the preview panel's picker. */
const RANGES: readonly { id: string; label: string; ms: number }[] = [
  { id: '15m', label: vscode.l10n.t('Last 15 minutes'), ms: 15 * 60_000 },
  { id: '1h', label: vscode.l10n.t('Last hour'), ms: 60 * 60_000 },
  { id: '24h', label: vscode.l10n.t('Last 24 hours'), ms: 24 * 60 * 60_000 },
  { id: '7d', label: vscode.l10n.t('Last 7 days'), ms: 7 * 24 * 60 * 60_000 },
];

export interface RunSavedSearchDeps {
  readonly live: LiveData;
  /** The service's name, as the tree shows it. */
  serviceName(connectionId: string, serviceId: string): string;
  /** The saved search's rows for a range (Cloud: SQL on the query endpoint; self-hosted: the search API). */
  rows(
    scope: { connectionId: string; serviceId: string },
    search: SavedSearchLike,
    range: { from: number; to: number },
  ): Promise<{ result: QueryResult; statement: string }>;
  /** Shows rows in the SQL results panel. */
  show(shown: {
    result: QueryResult;
    serviceName: string;
    sql: string;
    target?: { connectionId: string; serviceId: string };
  }): Promise<unknown>;
}

interface RunSavedSearchArgs {
  connectionId?: unknown;
  serviceId?: unknown;
  savedSearchId?: unknown;
  /** `15m`, `1h`, `24h` or `7d`; asked when absent. */
  range?: unknown;
}

export interface RunSavedSearchOutcome {
  ok: boolean;
  rows?: number;
  statement?: string;
  error?: string;
}

/**
 * `observability.runSavedSearch`: a saved search's events for a chosen range in the results panel of SQL. Argument:
 * a saved search of the tree, or `{ connectionId, serviceId, savedSearchId, range? }`.
 */
export function registerRunSavedSearch(context: vscode.ExtensionContext, deps: RunSavedSearchDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      'observability.runSavedSearch',
      async (arg: unknown): Promise<RunSavedSearchOutcome | undefined> => {
        let scope: { connectionId: string; serviceId: string } | undefined;
        let search: SavedSearchLike | undefined;
        let rangeId: string | undefined;
        if (isExplorerNode(arg)) {
          const node = arg as unknown as {
            type?: string;
            kind?: string;
            connectionId: string;
            serviceId: string;
            item?: SavedSearchLike;
          };
          if (node.type === 'item' && node.kind === 'savedSearch' && node.item) {
            scope = { connectionId: node.connectionId, serviceId: node.serviceId };
            search = node.item;
          }
        } else if (arg && typeof arg === 'object') {
          const a = arg as RunSavedSearchArgs;
          if (typeof a.connectionId === 'string' && typeof a.serviceId === 'string') {
            scope = { connectionId: a.connectionId, serviceId: a.serviceId };
            const list = await deps.live.listSavedSearches(a.connectionId, a.serviceId);
            search = list?.find((s) => s.id === a.savedSearchId);
          }
          if (typeof a.range === 'string') rangeId = a.range;
        }
        if (!scope || !search) {
          void vscode.window.showErrorMessage(vscode.l10n.t('Run Saved Search: choose a saved search in the tree.'));
          return { ok: false, error: 'no saved search' };
        }
        let range = RANGES.find((r) => r.id === rangeId);
        if (!range) {
          const picked = await vscode.window.showQuickPick(
            RANGES.map((r) => ({ label: r.label, range: r })),
            {
              title: vscode.l10n.t('Run Saved Search: {0}', sanitizeServerText(search.name ?? search.id)),
              placeHolder: vscode.l10n.t('Which time range?'),
            },
          );
          if (!picked) return undefined;
          range = picked.range;
        }
        const to = Date.now();
        const from = to - range.ms;
        const serviceName = deps.serviceName(scope.connectionId, scope.serviceId);
        try {
          const { result, statement } = await vscode.window.withProgress(
            {
              location: vscode.ProgressLocation.Notification,
              title: vscode.l10n.t('Running saved search "{0}"…', sanitizeServerText(search.name ?? search.id)),
            },
            () => deps.rows(scope, search, { from, to }),
          );
          await deps.show({ result, serviceName, sql: statement, target: scope });
          return { ok: true, rows: result.rows.length, statement };
        } catch (error) {
          const message = errorMessage(error);
          void vscode.window.showErrorMessage(vscode.l10n.t('Run saved search failed: {0}', message));
          return { ok: false, error: message };
        }
      },
    ),
  );
}

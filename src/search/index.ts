/**
 * Search: `Observability: Search Events…` (palette, a service or a source in the tree) opens a search panel on a log or
 * trace source of a service — a Lucene or SQL condition, a time range, the histogram of event counts, the rows newest
 * first with their details, and a live tail. Its SQL takes the route the previews take (the query feature's client:
 * the query endpoint under the key's rate budget on the Cloud, ClickHouse access on a self-hosted deployment), passed
 * in by src/features.ts; trace IDs open the trace view through its command.
 */
import * as vscode from 'vscode';
import type { QueryResult, RunQueryOptions } from '../api/query';
import { sanitizeServerText } from '../api';
import type { ConnectionManager } from '../connections/manager';
import { isSelfHosted } from '../connections/types';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import type { SourceLike } from '../render';
import { rangeOf, savedSearchArgs, searchArgsOf, type SavedSearchItem, type SearchArgs } from './args';
import { CompletionCache } from './completion';
import { SEARCH_BYTES, SEARCH_ROWS, tableFacts } from './model';
import { SearchPanel, type SearchPanelState } from './panel';
import { registerPanelCommands } from './panelCommands';
import { searchArgsOfState } from './restore';

export type { SearchArgs } from './args';

export interface SearchDeps {
  connections: ConnectionManager;
  log: Logger;
  /** Runs SQL on a service (the query feature's client for the connection: same route and rate budget as previews). */
  runSql(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
  /** Asks for a service that runs SQL; undefined when cancelled. */
  pickService(): Promise<{ connectionId: string; serviceId: string } | undefined>;
  serviceName(target: { connectionId: string; serviceId: string }): string;
}

/** What the command answers: the panel's state once drawn (tests read it). */
export interface SearchOutcome {
  ok: boolean;
  error?: string;
  state?: SearchPanelState;
}

type Source = SourceLike & { id: string; name?: string };

/** What the entry reaches: the search panels VS Code restores after a window reload. */
export interface SearchApi {
  restore(panel: vscode.WebviewPanel, state: unknown): Promise<SearchOutcome | undefined>;
}

export function registerSearch(context: vscode.ExtensionContext, deps: SearchDeps): SearchApi {
  const panels = new Set<SearchPanel>();
  const completion = new CompletionCache();
  const current = registerPanelCommands(context, panels);
  context.subscriptions.push(
    { dispose: () => panels.forEach((p) => p.panel.dispose()) },
    vscode.commands.registerCommand(
      'observability.searchEvents',
      async (raw: unknown): Promise<SearchOutcome | undefined> => {
        const args = searchArgsOf(raw);
        try {
          return await open(args);
        } catch (error) {
          const message = errorMessage(error);
          void vscode.window.showErrorMessage(vscode.l10n.t('Search Events failed: {0}', message));
          return { ok: false, error: message };
        }
      },
    ),
  );

  async function open(args: SearchArgs, restored?: vscode.WebviewPanel): Promise<SearchOutcome | undefined> {
    const scope =
      typeof args.connectionId === 'string' && typeof args.serviceId === 'string'
        ? { connectionId: args.connectionId, serviceId: args.serviceId }
        : await deps.pickService();
    if (!scope) return undefined;
    const connection = deps.connections.get(scope.connectionId);
    if (!connection) throw new Error(vscode.l10n.t('The connection no longer exists.'));
    if (isSelfHosted(connection) && !connection.clickHouse) {
      const message = vscode.l10n.t(
        'Search on "{0}" needs ClickHouse access: run "Set ClickHouse Access for Previews…" on the connection.',
        connection.label,
      );
      void vscode.window.showWarningMessage(message);
      return { ok: false, error: message };
    }
    if (typeof args.savedSearchId === 'string' && args.savedSearchId !== '') {
      // A saved search named by its ID (a link in a tooltip or a SQL result): read it, then open it as the tree does.
      const saved = await deps.connections
        .clientFor(scope.connectionId)
        .getSavedSearch(scope.serviceId, args.savedSearchId);
      args = { ...args, ...savedSearchArgs(saved.data as SavedSearchItem), savedSearchId: undefined };
    }
    const sources = (await deps.connections.clientFor(scope.connectionId).listSources(scope.serviceId))
      .data as unknown as Source[];
    const searchable = sources.filter((s) => s.kind === 'log' || s.kind === 'trace');
    const source = args.sourceId ? sources.find((s) => s.id === args.sourceId) : await pickSource(searchable);
    if (!source) {
      if (args.sourceId) {
        throw new Error(vscode.l10n.t('The source {0} was not found.', sanitizeServerText(args.sourceId)));
      }
      return undefined;
    }
    if (source.kind !== 'log' && source.kind !== 'trace') {
      throw new Error(vscode.l10n.t('Only log and trace sources are searched.'));
    }
    const run = (sql: string, maxRows = SEARCH_ROWS): Promise<QueryResult> =>
      deps.runSql(scope.connectionId, { serviceId: scope.serviceId, sql, maxRows, maxBytes: SEARCH_BYTES });
    const facts = await tableFacts(run, source);
    const { range, preset } = rangeOf(args.range);
    // Sources name no condition language: Lucene, as the search page starts, unless told (a saved search's own).
    const language = args.language === 'sql' ? 'sql' : 'lucene';
    const title = `${sanitizeServerText(source.name ?? source.id)} · ${sanitizeServerText(deps.serviceName(scope))}`;
    const panel = new SearchPanel(context.extensionUri, {
      ...scope,
      title,
      preset,
      request: {
        source,
        condition: args.condition ?? '',
        language,
        range,
        ...facts,
        ...(typeof args.select === 'string' && args.select.trim() ? { select: args.select } : {}),
        ...(typeof args.orderBy === 'string' && args.orderBy.trim() ? { orderBy: args.orderBy } : {}),
      },
      run,
      completion,
      tab: args.tab === 'patterns' ? 'patterns' : 'events',
      ...(restored ? { restored } : {}),
      openTrace: (traceId, time, spanId) =>
        void vscode.commands.executeCommand('observability.openTrace', {
          ...scope,
          // A log source names the trace source its trace IDs are in.
          sourceId:
            source.kind === 'trace'
              ? source.id
              : typeof source.traceSourceId === 'string'
                ? source.traceSourceId
                : undefined,
          ...(traceId ? { traceId } : {}),
          ...(spanId ? { spanId } : {}),
          ...(typeof time === 'string' || typeof time === 'number' ? { time } : {}),
        }),
    });
    panels.add(panel);
    current.track(panel);
    await panel.search();
    const state = await panel.state();
    return { ok: !state.view.error, ...(state.view.error ? { error: state.view.error } : {}), state };
  }

  return {
    /** A panel VS Code restored after a reload: the search its page kept opens in it again. */
    restore: async (panel, raw) => {
      const args = searchArgsOfState(raw);
      const out = args
        ? await open(args, panel).catch((error: unknown): SearchOutcome => {
            const message = errorMessage(error);
            void vscode.window.showErrorMessage(vscode.l10n.t('Search Events failed: {0}', message));
            return { ok: false, error: message };
          })
        : undefined;
      // Drawn in the panel, even when the search itself failed (the panel says why); else the panel goes.
      if (!out?.state) panel.dispose();
      return out ?? { ok: false, error: 'no search kept' };
    },
  };
}

async function pickSource(sources: readonly Source[]): Promise<Source | undefined> {
  if (sources.length === 0) throw new Error(vscode.l10n.t('The service has no log or trace source.'));
  if (sources.length === 1) return sources[0];
  const picked = await vscode.window.showQuickPick(
    sources.map((s) => ({
      label: `$(${s.kind === 'trace' ? 'pulse' : 'list-flat'}) ${sanitizeServerText(s.name ?? s.id)}`,
      description: sanitizeServerText(String(s.kind)),
      source: s,
    })),
    { title: vscode.l10n.t('Search Events'), placeHolder: vscode.l10n.t('Which source?') },
  );
  return picked?.source;
}

/**
 * Running SQL in the editor: `Observability: Run Query` (palette, CodeLens above each statement, Ctrl+Enter in SQL
 * documents), New Query from a service node, the document's target service (status bar), the connection's query
 * host, the read-only guard, the enable-key and wake-service offers, and the results panel. Each command is in its
 * own file under ./commands; this module builds what they share and registers them.
 */
import * as vscode from 'vscode';
import type { ApiError } from '../api';
import type { QueryResult, RunQueryOptions } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import type { ResourceRefresher } from '../resources/model';
import { BackgroundSql } from './background';
import { QueryClients } from './clients';
import { runQueryLenses } from './codeLens';
import { registerQueryCommands } from './commands';
import { registerSqlCompletion } from './completion';
import type { QueryContext } from './context';
import { ResultsPanel } from './panel';
import { QueryTargets } from './targets';

export interface QueryDeps {
  connections: ConnectionManager;
  /** Reloads what the tree shows after a change (the explorer's provider). */
  refresh: ResourceRefresher;
  log: Logger;
}

export interface QueryApi {
  readonly targets: QueryTargets;
  readonly panel: ResultsPanel;
  /** Runs SQL on a service's query endpoint through the connection's query client (same host, key and rate budget). */
  run(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
  /** SQL the user did not ask for (lenses, the agent's Alert tool): held while the service is not ready for it. */
  readonly background: BackgroundSql;
}

export type { RunOutcome, RunQueryArgs } from './commands/runQuery';
export type { ApiError };

export function registerQuery(context: vscode.ExtensionContext, deps: QueryDeps): QueryApi {
  const { connections, log } = deps;
  const targets = new QueryTargets(context, connections);
  const panel = new ResultsPanel(context.extensionUri);
  const clients = new QueryClients(connections, targets);
  const background = new BackgroundSql(connections, targets, clients);
  const lensChanged = new vscode.EventEmitter<void>();
  const ctx: QueryContext = { connections, refresh: deps.refresh, log, targets, panel, clients, background };
  context.subscriptions.push(
    targets,
    panel,
    lensChanged,
    clients,
    background,
    connections.onDidChange(() => {
      clients.drop();
      lensChanged.fire();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('observability.query') || e.affectsConfiguration('http')) clients.drop();
    }),
    targets.onDidChange(() => lensChanged.fire()),
    ...registerQueryCommands(ctx),
    vscode.languages.registerCodeLensProvider(
      { language: 'sql' },
      runQueryLenses(connections, targets, lensChanged.event),
    ),
    registerSqlCompletion({ connections, targets, run: (id, opts) => background.run(id, opts), log }),
  );
  return { targets, panel, background, run: (connectionId, opts) => background.runForUser(connectionId, opts) };
}

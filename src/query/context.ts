import type * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import type { ResourceRefresher } from '../resources/model';
import type { BackgroundSql } from './background';
import type { QueryClients } from './clients';
import type { ResultsPanel } from './panel';
import type { QueryTarget, QueryTargets } from './targets';

/** What the query feature's commands share: built once by `registerQuery`. */
export interface QueryContext {
  readonly connections: ConnectionManager;
  /** Reloads what the tree shows after a change (the explorer's provider). */
  readonly refresh: ResourceRefresher;
  readonly log: Logger;
  readonly targets: QueryTargets;
  readonly panel: ResultsPanel;
  readonly clients: QueryClients;
  /** SQL the user did not ask for, and the holds on it (see ./background). */
  readonly background: BackgroundSql;
}

/** A connection and service named by an argument object or an explorer node, if both are there. */
export function targetOf(value: { connectionId?: unknown; serviceId?: unknown }): QueryTarget | undefined {
  return typeof value.connectionId === 'string' && typeof value.serviceId === 'string'
    ? { connectionId: value.connectionId, serviceId: value.serviceId }
    : undefined;
}

export type Registration = (ctx: QueryContext) => vscode.Disposable;

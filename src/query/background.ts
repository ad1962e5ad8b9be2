/**
 * SQL the user did not ask for — the "would have fired" lens of alert documents, column reads for completion, the
 * agent's Alert tool — goes through here, and only when the service is known ready for it:
 *
 * - never to a connection without a query host (a base URL that is not ClickHouse Cloud's API address and no host
 *   set): the key goes nowhere the user did not name;
 * - never with the wake confirmation, so an idle service is never woken;
 * - after the query endpoint refused the key, or answered that the service is idle or stopped, no more for that
 *   service until the user acts: runs a query or a preview there, enables the key, sets the query host, or changes
 *   the connection.
 *
 * What the user starts (Run Query, a preview, Backtest Alert) runs as before, with its offers to wake the service or
 * enable the key.
 */
import * as vscode from 'vscode';
import { QueryError, type QueryResult, type RunQueryOptions } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import { isSelfHosted } from '../connections/types';
import { SqlHeld, type SqlHold } from '../sqlHold';
import type { QueryClients } from './clients';
import type { QueryTargets } from './targets';

export class BackgroundSql implements vscode.Disposable {
  /** Holds the query endpoint's answers put on services, by `connectionId/serviceId`. */
  private readonly held = new Map<string, SqlHold>();
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fires when a hold may have been lifted (the lens looks again); never when one is added. */
  readonly onDidRelease = this.emitter.event;
  private readonly disposables: vscode.Disposable[] = [this.emitter];

  constructor(
    private readonly connections: ConnectionManager,
    private readonly targets: QueryTargets,
    private readonly clients: QueryClients,
  ) {
    this.disposables.push(
      connections.onDidChange(() => this.release()),
      targets.onDidChangeHost(() => this.release()),
    );
  }

  /** Why background SQL may not go to a service now; undefined when it may. */
  hold(connectionId: string, serviceId: string): SqlHold | undefined {
    const connection = this.connections.get(connectionId);
    // A removed connection fails as before; a self-hosted one runs SQL only on the ClickHouse access it was given.
    if (!connection || isSelfHosted(connection)) return undefined;
    if (!this.targets.queryHost(connectionId)) {
      return {
        reason: 'noQueryHost',
        message: vscode.l10n.t(
          '"{0}" has no query host (its address is not ClickHouse Cloud\'s): set it to run SQL here',
          connection.label,
        ),
        command: {
          title: vscode.l10n.t('Set Query Host…'),
          command: 'observability.setQueryHost',
          arguments: [{ connectionId }],
        },
      };
    }
    return this.held.get(`${connectionId}/${serviceId}`);
  }

  /** Runs SQL the user did not ask for: refused with `SqlHeld` (nothing sent) while the service is held. */
  async run(connectionId: string, opts: RunQueryOptions): Promise<QueryResult> {
    const serviceId = opts.serviceId ?? '';
    const hold = this.hold(connectionId, serviceId);
    if (hold) throw new SqlHeld(hold);
    try {
      return await this.clients.clientFor(connectionId).run({ ...opts, wakeService: false });
    } catch (error) {
      const added = error instanceof QueryError ? this.holdFor(connectionId, serviceId, error) : undefined;
      if (!added) throw error;
      this.held.set(`${connectionId}/${serviceId}`, added);
      throw new SqlHeld(added);
    }
  }

  /** Runs SQL the user asked for (previews, the agent's SQL); a success lifts the service's hold. */
  async runForUser(connectionId: string, opts: RunQueryOptions): Promise<QueryResult> {
    const result = await this.clients.clientFor(connectionId).run(opts);
    this.ran(connectionId, opts.serviceId ?? '');
    return result;
  }

  /** The user ran SQL on the service (or enabled the key there): background work may go there again. */
  ran(connectionId: string, serviceId: string): void {
    if (this.held.delete(`${connectionId}/${serviceId}`)) this.emitter.fire();
  }

  private release(): void {
    this.held.clear();
    this.emitter.fire();
  }

  private holdFor(connectionId: string, serviceId: string, error: QueryError): SqlHold | undefined {
    const name = this.connections.get(connectionId)?.services.find((s) => s.id === serviceId)?.name ?? serviceId;
    switch (error.reason) {
      case 'keyNotEnabled':
        return {
          reason: 'keyNotEnabled',
          message: vscode.l10n.t('the key is not enabled on the query endpoint of {0}', name),
          command: {
            title: vscode.l10n.t('Enable This Key on the Query Endpoint…'),
            command: 'observability.enableQueryKey',
            arguments: [{ connectionId, serviceId }],
          },
        };
      case 'serviceIdle':
        return {
          reason: 'serviceIdle',
          message: vscode.l10n.t('{0} is idle; it is not woken in the background', name),
        };
      case 'serviceStopped':
        return { reason: 'serviceStopped', message: vscode.l10n.t('{0} is stopped', name) };
      default:
        return undefined;
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

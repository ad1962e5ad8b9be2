/**
 * How code insights reach a pick's trace source: whether background work may run SQL for it now (never on a service
 * last seen idle, nothing wakes it; on the Cloud only once its query endpoint was seen set up), the source itself,
 * and the statement run through the query feature's client (the key's one rate budget).
 */
import * as vscode from 'vscode';
import type { TraceSourceLike } from '../codeModel';
import type { QueryResult, RunQueryOptions } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import { isSelfHosted } from '../connections/types';
import { notReady, type Pick } from './picks';

export interface SourceAccessDeps {
  connections: ConnectionManager;
  runSql(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
}

export type TraceSource = TraceSourceLike & { id?: string };

export class SourceAccess {
  /** Cloud services whose query endpoint was seen set up (connection/service). */
  private readonly endpoints = new Map<string, Promise<boolean>>();

  constructor(private readonly deps: SourceAccessDeps) {}

  /** The pick's trace source, once SQL may run for it; throws with the reason otherwise. */
  async sourceOf(pick: Pick): Promise<TraceSource> {
    const why = notReady(this.deps.connections, pick) ?? (await this.endpointMissing(pick));
    if (why) throw new Error(why);
    const client = this.deps.connections.clientFor(pick.connectionId);
    const sources = (await client.listSources(pick.serviceId)).data as unknown as TraceSource[];
    const source = sources.find((s) => s.id === pick.sourceId);
    if (!source) throw new Error(vscode.l10n.t('the trace source no longer exists'));
    return source;
  }

  /** Runs a read statement on the pick's service; the rows as JSON objects by column name. */
  async rows(pick: Pick, sql: string, maxRows: number): Promise<Record<string, unknown>[]> {
    const result = await this.deps.runSql(pick.connectionId, {
      serviceId: pick.serviceId,
      sql,
      maxRows,
      maxBytes: 32 * 1024 * 1024,
    });
    const names = result.columns.map((c) => c.name);
    return result.rows.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]])));
  }

  /** On the Cloud: a reason when the service's query endpoint is not set up (asked once per session). */
  private async endpointMissing(pick: Pick): Promise<string | undefined> {
    const connection = this.deps.connections.get(pick.connectionId);
    if (!connection || isSelfHosted(connection)) return undefined;
    const key = `${pick.connectionId}/${pick.serviceId}`;
    let seen = this.endpoints.get(key);
    if (!seen) {
      seen = this.deps.connections
        .clientFor(pick.connectionId)
        .getQueryEndpoint(pick.serviceId)
        .then((r) => r.data !== null && r.data !== undefined);
      seen.then(
        (ok) => !ok && this.endpoints.delete(key),
        () => this.endpoints.delete(key),
      );
      this.endpoints.set(key, seen);
    }
    return (await seen) ? undefined : vscode.l10n.t('the service has no query endpoint set up');
  }
}

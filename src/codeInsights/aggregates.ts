/**
 * The aggregates: one statement per (connection, service, trace source, range), kept until the next refresh, and
 * for each workspace folder an index of its rows by workspace file, built once per aggregate (so a file opening looks
 * its lenses up in a map). Statements run only for a folder with a pick, through the query feature's client (the
 * key's one rate budget), never on a service last seen idle (nothing wakes it) and, on the Cloud, only once its query
 * endpoint was seen set up.
 */
import * as vscode from 'vscode';
import { codeAggregateSql, indexWorkspace, mapPath, readAggregate, type CodeAggregate } from '../codeModel';
import type { CodeFigures, TraceSourceLike } from '../codeModel';
import type { QueryResult, RunQueryOptions } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import { isSelfHosted } from '../connections/types';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import { notReady, type Pick } from './picks';
import { codeInsightsSettings } from './settings';

export interface AggregateEntry {
  key: string;
  pick: Pick;
  range: { from: number; to: number };
  rangeName: string;
  state: 'pending' | 'done' | 'failed';
  sql?: string;
  quantileNote?: string;
  aggregate?: CodeAggregate;
  error?: string;
  /** Per workspace folder: its rows by workspace-relative file path. */
  files: Map<string, Promise<Map<string, CodeFigures[]>>>;
  done: Promise<void>;
}

export interface AggregateDeps {
  connections: ConnectionManager;
  log: Logger;
  runSql(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
}

const MAX_FILES = 20_000;
const EXCLUDE = '{**/node_modules/**,**/.git/**,**/out/**,**/dist/**,**/build/**,**/target/**}';

export class Aggregates {
  private readonly entries = new Map<string, AggregateEntry>();
  /** Cloud services whose query endpoint was seen set up (connection/service). */
  private readonly endpoints = new Map<string, Promise<boolean>>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Aggregate statements sent so far. */
  statements = 0;

  constructor(private readonly deps: AggregateDeps) {}

  keyOf(pick: Pick, rangeName: string): string {
    return JSON.stringify([pick.connectionId, pick.serviceId, pick.sourceId, rangeName]);
  }

  peek(pick: Pick): AggregateEntry | undefined {
    return this.entries.get(this.keyOf(pick, codeInsightsSettings().range));
  }

  /** The aggregate of a pick over the set range: the kept one, else a new one started. */
  ensure(pick: Pick): AggregateEntry {
    const { range: rangeName, rangeMs } = codeInsightsSettings();
    const key = this.keyOf(pick, rangeName);
    const kept = this.entries.get(key);
    if (kept) return kept;
    const to = Date.now();
    const entry: AggregateEntry = {
      key,
      pick,
      range: { from: to - rangeMs, to },
      rangeName,
      state: 'pending',
      files: new Map(),
      done: Promise.resolve(),
    };
    this.entries.set(key, entry);
    entry.done = this.fetch(entry).then(
      () => this.changed.fire(),
      () => this.changed.fire(),
    );
    return entry;
  }

  /** Forgets the kept aggregates (of these picks, or all); the next look fetches them again. */
  forget(picks?: readonly Pick[]): void {
    if (!picks) {
      this.entries.clear();
    } else {
      const keys = new Set(picks.map((p) => JSON.stringify([p.connectionId, p.serviceId, p.sourceId])));
      for (const [k, e] of this.entries) {
        const { connectionId, serviceId, sourceId } = e.pick;
        if (keys.has(JSON.stringify([connectionId, serviceId, sourceId]))) this.entries.delete(k);
      }
    }
    this.changed.fire();
  }

  private async fetch(entry: AggregateEntry): Promise<void> {
    const { pick } = entry;
    try {
      const why = notReady(this.deps.connections, pick) ?? (await this.endpointMissing(pick));
      if (why) throw new Error(why);
      const client = this.deps.connections.clientFor(pick.connectionId);
      const sources = (await client.listSources(pick.serviceId)).data as unknown as (TraceSourceLike & {
        id?: string;
      })[];
      const source = sources.find((s) => s.id === pick.sourceId);
      if (!source) throw new Error(vscode.l10n.t('the trace source no longer exists'));
      const stmt = codeAggregateSql(source, { range: entry.range });
      if (!stmt.ok) throw new Error(stmt.reason);
      entry.sql = stmt.sql;
      entry.quantileNote = stmt.quantile.note;
      this.statements++;
      const result = await this.deps.runSql(pick.connectionId, {
        serviceId: pick.serviceId,
        sql: stmt.sql,
        maxRows: stmt.limit,
        maxBytes: 32 * 1024 * 1024,
      });
      const names = result.columns.map((c) => c.name);
      const rows = result.rows.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]])));
      entry.aggregate = readAggregate(rows);
      entry.state = 'done';
    } catch (e) {
      entry.state = 'failed';
      entry.error = errorMessage(e);
      this.deps.log.warn(
        `code insights: the aggregate of ${pick.serviceName} / ${pick.sourceName} failed: ${entry.error}`,
      );
    }
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

  /** The aggregate's rows of a workspace folder, by workspace-relative path (built once per aggregate and folder). */
  filesOf(entry: AggregateEntry, folder: vscode.WorkspaceFolder): Promise<Map<string, CodeFigures[]>> {
    const id = folder.uri.toString();
    let files = entry.files.get(id);
    if (!files) {
      files = this.buildIndex(entry, folder);
      entry.files.set(id, files);
    }
    return files;
  }

  private async buildIndex(entry: AggregateEntry, folder: vscode.WorkspaceFolder): Promise<Map<string, CodeFigures[]>> {
    const out = new Map<string, CodeFigures[]>();
    const rows = entry.aggregate?.rows ?? [];
    if (rows.length === 0) return out;
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*'), EXCLUDE, MAX_FILES);
    const index = indexWorkspace(uris.map((u) => vscode.workspace.asRelativePath(u, false)));
    const { pathMappings } = codeInsightsSettings();
    for (const row of rows) {
      if (!row.file) continue;
      const m = mapPath(row.file, index, pathMappings);
      if (m.kind !== 'mapped') continue;
      const list = out.get(m.path);
      if (list) list.push(row);
      else out.set(m.path, [row]);
    }
    return out;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

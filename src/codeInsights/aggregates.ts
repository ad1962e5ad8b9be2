/**
 * The aggregates: one statement per (connection, service, trace source, range), kept until the next refresh, and
 * for each workspace folder an index of its rows by workspace file, built once per aggregate (so a file opening looks
 * its lenses up in a map). Statements run only for a folder with a pick, through the source access (sourceAccess.ts:
 * the query feature's client, never on a service last seen idle, on the Cloud only once its query endpoint was seen).
 */
import * as vscode from 'vscode';
import { codeAggregateSql, readAggregate, type CodeAggregate, type CodeFigures } from '../codeModel';
import type { QueryResult, RunQueryOptions } from '../api/query';
import type { ConnectionManager } from '../connections/manager';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import { rowsByFile } from './fileIndex';
import type { Pick } from './picks';
import { codeInsightsSettings } from './settings';
import { SourceAccess } from './sourceAccess';

export interface AggregateEntry {
  key: string;
  pick: Pick;
  range: { from: number; to: number };
  rangeName: string;
  state: 'pending' | 'done' | 'failed';
  sql?: string;
  quantileNote?: string;
  /** Whether the p95 figures are estimates from the start (a t-digest over sampled spans). */
  weighted?: boolean;
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

export class Aggregates {
  private readonly entries = new Map<string, AggregateEntry>();
  /** The way to the picks' sources (shared with the on-demand statements of the figures view). */
  readonly access: SourceAccess;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Aggregate statements sent so far. */
  statements = 0;

  constructor(private readonly deps: AggregateDeps) {
    this.access = new SourceAccess(deps);
  }

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
      const source = await this.access.sourceOf(pick);
      const stmt = codeAggregateSql(source, { range: entry.range });
      if (!stmt.ok) throw new Error(stmt.reason);
      entry.sql = stmt.sql;
      entry.quantileNote = stmt.quantile.note;
      entry.weighted = stmt.weighted;
      this.statements++;
      entry.aggregate = readAggregate(await this.access.rows(pick, stmt.sql, stmt.limit));
      entry.state = 'done';
    } catch (e) {
      entry.state = 'failed';
      entry.error = errorMessage(e);
      this.deps.log.warn(
        `code insights: the aggregate of ${pick.serviceName} / ${pick.sourceName} failed: ${entry.error}`,
      );
    }
  }

  /** The aggregate's rows of a workspace folder, by workspace-relative path (built once per aggregate and folder). */
  filesOf(entry: AggregateEntry, folder: vscode.WorkspaceFolder): Promise<Map<string, CodeFigures[]>> {
    const id = folder.uri.toString();
    let files = entry.files.get(id);
    if (!files) {
      files = rowsByFile(entry.aggregate?.rows ?? [], folder);
      entry.files.set(id, files);
    }
    return files;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

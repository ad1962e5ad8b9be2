/**
 * Exceptions and log counts at the code: per (pick, range) two bounded statements beside the code aggregate, over the
 * same range and refreshed with it — the pick's recent production exceptions (span events of its trace source, and
 * logged exceptions of its log source) and, for the logger calls with a literal message in the picked workspace
 * folders, how many logs of the log source each wrote. They run only once the code aggregate of the pick was fetched
 * (so never on a service that may not be queried), through the query feature's client (the key's one rate budget).
 * The log source is the trace source's `logSourceId`, else the service's only log source; without one, the status
 * says so and logger calls get no counts.
 */
import * as vscode from 'vscode';
import {
  exceptionAggregateSql,
  exceptionSites,
  logCountsSql,
  logSourceOf,
  readExceptionAggregate,
  readLogCounts,
  type ExceptionAggregate,
  type ExceptionSite,
  type LogSourceLike,
  type TraceSourceLike,
} from '../codeModel';
import { splitTopLevel } from '../api/query/sqlText';
import { errorMessage } from '../errors';
import type { AggregateDeps, Aggregates } from './aggregates';
import type { Pick, Picks } from './picks';
import { codeInsightsSettings } from './settings';
import { scanFolder, type FolderScan } from './workspaceScan';

type Source = (TraceSourceLike & LogSourceLike) & { id?: string; name?: string; logSourceId?: string };

export interface LogSourceUsed {
  id: string;
  name: string;
  /** The body expression the counts match (for the search link). */
  body: string;
}

export interface SignalEntry {
  key: string;
  pick: Pick;
  range: { from: number; to: number };
  rangeName: string;
  state: 'pending' | 'done' | 'failed';
  error?: string;
  logSource?: LogSourceUsed;
  /** Why logger calls get no counts (no log source, a failed statement). */
  logNote?: string;
  /** Why there are no exception marks (the statement failed or could not be made). */
  exceptionNote?: string;
  exceptions?: ExceptionAggregate;
  /** Logs per LIKE pattern, and how many patterns were left out. */
  logCounts?: Map<string, number>;
  logCut?: number;
  sql: string[];
  /** Per workspace folder: its files and logger calls, and the exceptions by workspace file. */
  scans: Map<string, Promise<FolderScan>>;
  sites: Map<string, Promise<Map<string, ExceptionSite[]>>>;
  done: Promise<void>;
}

const samePick = (a: Pick, b: Pick) =>
  a.connectionId === b.connectionId && a.serviceId === b.serviceId && a.sourceId === b.sourceId;

export class Signals {
  private readonly entries = new Map<string, SignalEntry>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Statements sent so far. */
  statements = 0;

  constructor(
    private readonly deps: AggregateDeps,
    private readonly picks: Picks,
    private readonly aggregates: Aggregates,
  ) {}

  peek(pick: Pick): SignalEntry | undefined {
    return this.entries.get(this.aggregates.keyOf(pick, codeInsightsSettings().range));
  }

  /** The pick's exceptions and log counts over the set range: the kept ones, else fetched after the aggregate. */
  ensure(pick: Pick): SignalEntry {
    const aggregate = this.aggregates.ensure(pick);
    const kept = this.entries.get(aggregate.key);
    if (kept) return kept;
    const entry: SignalEntry = {
      key: aggregate.key,
      pick,
      range: aggregate.range,
      rangeName: aggregate.rangeName,
      state: 'pending',
      sql: [],
      scans: new Map(),
      sites: new Map(),
      done: Promise.resolve(),
    };
    this.entries.set(entry.key, entry);
    entry.done = aggregate.done
      .then(() => {
        if (aggregate.state !== 'done') throw new Error(aggregate.error ?? vscode.l10n.t('the figures failed'));
        return this.fetch(entry);
      })
      .then(
        () => {
          entry.state = 'done';
        },
        (e: unknown) => {
          entry.state = 'failed';
          entry.error = errorMessage(e);
        },
      )
      .finally(() => this.changed.fire());
    return entry;
  }

  forget(picks?: readonly Pick[]): void {
    for (const [k, e] of this.entries) if (!picks || picks.some((p) => samePick(p, e.pick))) this.entries.delete(k);
    this.changed.fire();
  }

  /** A folder's files and logger calls for this entry (scanned once per entry). */
  scanOf(entry: SignalEntry, folder: vscode.WorkspaceFolder): Promise<FolderScan> {
    const id = folder.uri.toString();
    let scan = entry.scans.get(id);
    if (!scan) {
      scan = scanFolder(folder);
      entry.scans.set(id, scan);
    }
    return scan;
  }

  /** A folder's exception sites by workspace-relative path (built once per entry and folder). */
  sitesOf(entry: SignalEntry, folder: vscode.WorkspaceFolder): Promise<Map<string, ExceptionSite[]>> {
    const id = folder.uri.toString();
    let sites = entry.sites.get(id);
    if (!sites) {
      sites = this.scanOf(entry, folder).then((scan) =>
        exceptionSites(entry.exceptions?.groups ?? [], (file) => scan.toWorkspace(file)),
      );
      entry.sites.set(id, sites);
    }
    return sites;
  }

  private async run(pick: Pick, sql: string, maxRows: number): Promise<Record<string, unknown>[]> {
    this.statements++;
    const result = await this.deps.runSql(pick.connectionId, {
      serviceId: pick.serviceId,
      sql,
      maxRows,
      maxBytes: 32 * 1024 * 1024,
    });
    const names = result.columns.map((c) => c.name);
    return result.rows.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]])));
  }

  private async fetch(entry: SignalEntry): Promise<void> {
    const { pick } = entry;
    const client = this.deps.connections.clientFor(pick.connectionId);
    const sources = (await client.listSources(pick.serviceId)).data as unknown as Source[];
    const traces = sources.find((s) => s.id === pick.sourceId);
    if (!traces) throw new Error(vscode.l10n.t('the trace source no longer exists'));
    const logs = logSourceOf(traces, sources);
    if (logs) {
      entry.logSource = { id: String(logs.id), name: String(logs.name ?? logs.id), body: bodyOf(logs) };
    } else {
      entry.logNote = vscode.l10n.t('no log source: the trace source names none and the service has not exactly one');
    }
    // Each statement may fail alone (a table without span events, say): the other one still runs.
    try {
      const stmt = exceptionAggregateSql(traces, logs, { range: entry.range });
      if (!stmt.ok) throw new Error(stmt.reason);
      entry.sql.push(stmt.sql);
      entry.exceptions = readExceptionAggregate(await this.run(pick, stmt.sql, stmt.limit));
    } catch (e) {
      entry.exceptionNote = errorMessage(e);
      this.deps.log.warn(`code insights: the exceptions of ${pick.serviceName} failed: ${entry.exceptionNote}`);
    }
    if (logs) await this.countLogs(entry, logs);
  }

  private async countLogs(entry: SignalEntry, logs: Source): Promise<void> {
    const folders = this.picks.entries().filter((e) => samePick(e.pick, entry.pick));
    const patterns: string[] = [];
    for (const { folder } of folders) {
      for (const literal of (await this.scanOf(entry, folder)).literals) if (literal.like) patterns.push(literal.like);
    }
    const stmt = logCountsSql(logs, { range: entry.range, patterns });
    if (!stmt.ok) {
      entry.logNote = stmt.reason;
      return;
    }
    entry.sql.push(stmt.sql);
    try {
      entry.logCounts = readLogCounts((await this.run(entry.pick, stmt.sql, 1))[0], stmt.patterns);
      entry.logCut = stmt.cut;
    } catch (e) {
      entry.logNote = vscode.l10n.t('the log counts failed: {0}', errorMessage(e));
      this.deps.log.warn(`code insights: the log counts of ${entry.pick.serviceName} failed: ${errorMessage(e)}`);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The body expression the counts match, as the statement reads it. */
function bodyOf(source: Source): string {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  return splitTopLevel(text(source.bodyExpression) ?? text(source.implicitColumnExpression) ?? '')[0] ?? 'Body';
}

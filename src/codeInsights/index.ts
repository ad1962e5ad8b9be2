/**
 * Code insights: production figures at the code. Per workspace folder the user picks a connection, service and trace
 * source (nothing is queried before); one aggregate statement per pick and range (src/codeModel) gives calls, error
 * rate and p95 per function, kept and refreshed every few minutes only while a workspace file is visible, and shown as
 * a CodeLens on each function the spans name, a status bar item (the pick and the range) and a list of the hottest
 * functions. The SQL runs through the query feature's client (the key's one rate budget), given by the wiring.
 */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/manager';
import type { Logger } from '../log';
import type { QueryResult, RunQueryOptions } from '../api/query';
import { Aggregates, type AggregateEntry } from './aggregates';
import { chooseService, type ChooseArgs } from './choose';
import { showHottest, type HottestArgs } from './hottest';
import { registerFigureCommands } from './figureCommands';
import type { LensCall } from './lensCalls';
import { CodeInsightLenses } from './lenses';
import { Picks } from './picks';
import { codeInsightsSettings } from './settings';
import { createStatusItem } from './status';
import { ExceptionMarks } from './exceptionMarks';
import { LogLenses } from './logLenses';
import { Signals } from './signals';
import { registerOpenFrame } from '../panels/frameCommand';

export interface CodeInsightsDeps {
  connections: ConnectionManager;
  log: Logger;
  runSql(connectionId: string, opts: RunQueryOptions): Promise<QueryResult>;
}

/** What Refresh Code Insights answers (tests read it): each picked folder's aggregate. */
export interface RefreshOutcome {
  folder: string;
  state: AggregateEntry['state'];
  range: { from: number; to: number };
  sql?: string | undefined;
  error?: string | undefined;
  rows: number;
  /** Exception groups read, logger calls counted, and why either is missing. */
  exceptionGroups?: number | undefined;
  logPatterns?: number | undefined;
  signalsError?: string | undefined;
  logNote?: string | undefined;
}

export interface CodeInsightsApi {
  /** Aggregate statements sent so far. */
  readonly statements: number;
  /** Exception and log count statements sent so far. */
  readonly signalStatements: number;
  /** The function lens provider's recent calls, timed (lensCalls.ts). */
  lensCalls(): readonly LensCall[];
}

export function registerCodeInsights(context: vscode.ExtensionContext, deps: CodeInsightsDeps): CodeInsightsApi {
  const picks = new Picks(context.workspaceState);
  const aggregates = new Aggregates(deps);
  const lenses = new CodeInsightLenses(picks, aggregates);
  const signals = new Signals(deps, picks, aggregates);
  const marks = new ExceptionMarks(picks, signals);
  const logLenses = new LogLenses(picks, signals);
  const status = createStatusItem(picks, aggregates, signals);

  async function refresh(): Promise<RefreshOutcome[]> {
    const entries = picks.entries();
    aggregates.forget(entries.map((e) => e.pick));
    signals.forget(entries.map((e) => e.pick));
    const out: RefreshOutcome[] = [];
    for (const { folder, pick } of entries) {
      const entry = aggregates.ensure(pick);
      await entry.done;
      const more = signals.ensure(pick);
      await more.done;
      out.push({
        folder: folder.uri.toString(),
        state: entry.state,
        range: entry.range,
        sql: entry.sql,
        error: entry.error,
        rows: entry.aggregate?.rows.length ?? 0,
        exceptionGroups: more.exceptions?.groups.length,
        logPatterns: more.logCounts?.size,
        signalsError: more.error ?? more.exceptionNote,
        logNote: more.logNote,
      });
    }
    return out;
  }

  /** Refreshes on the interval, only while a file of a picked folder is visible. */
  let timer: ReturnType<typeof setInterval> | undefined;
  function schedule(): void {
    if (timer) clearInterval(timer);
    timer = setInterval(() => {
      const visible = vscode.window.visibleTextEditors.some((e) => {
        const folder = vscode.workspace.getWorkspaceFolder(e.document.uri);
        return folder !== undefined && e.document.uri.scheme === 'file' && picks.of(folder) !== undefined;
      });
      if (visible) void refresh();
    }, codeInsightsSettings().refreshMs);
  }
  schedule();

  context.subscriptions.push(
    picks,
    aggregates,
    lenses,
    status,
    { dispose: () => timer && clearInterval(timer) },
    aggregates.onDidChange(() => lenses.refresh()),
    signals,
    marks,
    logLenses,
    signals.onDidChange(() => {
      logLenses.refresh();
      void marks.refresh();
    }),
    vscode.window.onDidChangeVisibleTextEditors(() => void marks.refresh()),
    ...lenses.prepareOnOpen(),
    vscode.languages.registerCodeLensProvider({ scheme: 'file' }, logLenses),
    vscode.languages.registerHoverProvider({ scheme: 'file' }, marks),
    picks.onDidChange(() => lenses.refresh()),
    deps.connections.onDidChange(() => {
      void picks.prune(deps.connections);
      aggregates.forget();
      signals.forget();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('observability.codeInsights.refreshMinutes')) schedule();
      if (e.affectsConfiguration('observability.codeInsights.problems')) void marks.refresh();
      else if (e.affectsConfiguration('observability.codeInsights')) {
        aggregates.forget();
        signals.forget();
      }
    }),
    vscode.languages.registerCodeLensProvider({ scheme: 'file' }, lenses),
    vscode.commands.registerCommand('observability.codeInsights.chooseService', (arg?: ChooseArgs) =>
      chooseService(deps.connections, picks, arg && typeof arg === 'object' && !('scheme' in arg) ? arg : {}),
    ),
    vscode.commands.registerCommand('observability.codeInsights.refresh', refresh),
    vscode.commands.registerCommand('observability.codeInsights.showHottest', (arg?: HottestArgs) =>
      showHottest(picks, aggregates, arg && typeof arg === 'object' ? arg : {}),
    ),
    ...registerFigureCommands(aggregates, deps.log),
    registerOpenFrame(),
  );
  return {
    get statements() {
      return aggregates.statements;
    },
    get signalStatements() {
      return signals.statements;
    },
    lensCalls: () => lenses.calls.recent(),
  };
}

import * as vscode from 'vscode';
import { isReadOnlyStatement, QueryError, splitStatements, type QueryColumn, type Statement } from '../../api/query';
import { errorMessage } from '../../errors';
import { commandArgument, noPrompt, type NoPromptArgs } from '../../commandArgs';
import { NoQueryHostError, querySettings } from '../clients';
import type { QueryContext } from '../context';
import { clock, type PanelState, type ResultStream, type ResultTimeline, type StatementResult } from '../panel';
import type { QueryTarget } from '../targets';
import { enableQueryKey } from './enableQueryKey';
import { runProgress } from './runProgress';

/** Arguments of `observability.runQuery` (all optional; keybindings, tests and the CodeLens pass some). */
export interface RunQueryArgs extends NoPromptArgs {
  uri?: string;
  /** Run the statement that contains this line (0-based). */
  line?: number;
  /** Run this SQL instead of the document's. */
  sql?: string;
  /**
   * Deprecated name of `noPrompt` (true: run a statement that is not read-only without asking). `false` declines such
   * a statement without asking.
   */
  confirm?: boolean;
  /** Agree to wake an idle service (`false`: decline without asking). */
  wake?: boolean;
  /** Take "Enable this key on the query endpoint" when the key is not enabled (still confirmed unless `noPrompt`). */
  enableKey?: boolean;
}

export interface RunOutcome {
  ok: boolean;
  declined?: 'target' | 'write' | 'wake' | 'enableKey';
  statements?: number;
  columns?: QueryColumn[];
  rows?: number;
  firstRows?: unknown[][];
  truncated?: 'rows' | 'bytes';
  elapsedMs?: number;
  error?: string;
  reason?: string;
  keyEnabled?: boolean;
  rendered?: PanelState['rendered'];
  renderedMs?: number;
  /** From posting the result (streamed: its last rows and summary) to the panel until it reported the table painted. */
  panelMs?: number;
  /** From the command's start until the panel reported the first rows painted (before the last arrived when streamed). */
  firstPaintMs?: number;
  /** How many rows that first paint showed. */
  firstPaintRows?: number;
  /** From the command's start until the last row was read. */
  receivedMs?: number;
  /** When each stage happened (see `RunTimeline`). */
  timeline?: RunTimeline;
}

/**
 * The stages of a run, epoch milliseconds on the machine's one clock (`performance.timeOrigin + performance.now()`,
 * the same in the extension host and the webview): the command's start, the (last statement's) request sent, its
 * first byte and last row read, and the panel's stages (`ResultTimeline`). The webview's stamps are when it painted.
 */
export interface RunTimeline extends Omit<ResultTimeline, 'seq'> {
  commandStart: number;
  requestSent: number;
  firstByte?: number;
  lastRowRead: number;
}

/** `observability.runQuery`: the selection, the statement under the cursor or the whole SQL document, on its service. */
export function registerRunQuery(ctx: QueryContext): vscode.Disposable {
  return vscode.commands.registerCommand('observability.runQuery', (raw: unknown) => runQuery(ctx, argsFor(raw)));
}

function argsFor(raw: unknown): RunQueryArgs {
  const a = commandArgument<RunQueryArgs>(raw);
  if (a.kind === 'args') return a.args;
  if (a.kind === 'uri') return { uri: a.uri.toString() };
  return {};
}

async function documentFor(arg: RunQueryArgs): Promise<vscode.TextDocument | undefined> {
  if (arg.uri) {
    const uri = vscode.Uri.parse(arg.uri);
    return (
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ??
      (await vscode.workspace.openTextDocument(uri))
    );
  }
  return vscode.window.activeTextEditor?.document;
}

/** The SQL to run: given, the statement of a line, the selection, the statement under the cursor, or the whole document. */
function statementsFor(doc: vscode.TextDocument, arg: RunQueryArgs): Statement[] {
  if (arg.sql !== undefined) return splitStatements(arg.sql);
  const text = doc.getText();
  const all = splitStatements(text);
  if (arg.line !== undefined) {
    const offset = doc.offsetAt(new vscode.Position(arg.line, 0));
    const lineEnd = doc.offsetAt(doc.lineAt(Math.min(arg.line, doc.lineCount - 1)).range.end);
    const hit = all.find((s) => s.start <= lineEnd && s.end >= offset);
    return hit ? [hit] : [];
  }
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document === doc) {
    if (!editor.selection.isEmpty) return splitStatements(doc.getText(editor.selection));
    if (all.length > 1) {
      const at = doc.offsetAt(editor.selection.active);
      const hit = all.find((s) => s.start <= at && at <= s.end + 1);
      if (hit) return [hit];
    }
  }
  return all;
}

async function ensureTarget(ctx: QueryContext, doc: vscode.TextDocument): Promise<QueryTarget | undefined> {
  const bound = ctx.targets.get(doc.uri);
  if (bound) return bound;
  const picked = await ctx.targets.pick();
  if (picked) await ctx.targets.bind(doc.uri, picked);
  return picked;
}

/** Asks before running statements that can change data; false when the user (or the arguments) declined. */
async function confirmWrites(arg: RunQueryArgs, statements: Statement[], serviceName: string): Promise<boolean> {
  const writes = statements.filter((s) => !isReadOnlyStatement(s.text));
  if (writes.length === 0 || noPrompt(arg, 'confirm')) return true;
  if (arg.confirm === false) return false;
  const run = vscode.l10n.t('Run');
  const first =
    (writes[0] as Statement).text
      .split('\n')
      .find((l) => l.trim() && !l.trim().startsWith('--'))
      ?.trim() ?? '';
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('Run a statement that can change data on {0}?', serviceName),
    {
      modal: true,
      detail: vscode.l10n.t(
        '{0} of the statements is not a SELECT, WITH, SHOW, DESCRIBE or EXPLAIN and may create, change or delete data: {1}',
        writes.length,
        first.length > 120 ? `${first.slice(0, 120)}…` : first,
      ),
    },
    run,
  );
  return answer === run;
}

async function runQuery(ctx: QueryContext, arg: RunQueryArgs): Promise<RunOutcome> {
  const commandStart = clock();
  const { targets, panel, log } = ctx;
  const doc = await documentFor(arg);
  if (!doc && arg.sql === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a SQL document to run a query.'));
    return { ok: false, error: 'no document' };
  }
  const statements = doc ? statementsFor(doc, arg) : splitStatements(arg.sql ?? '');
  if (statements.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There is no SQL statement to run here.'));
    return { ok: false, error: 'no statement' };
  }
  const target = doc ? await ensureTarget(ctx, doc) : await targets.pick();
  if (!target) return { ok: false, declined: 'target' };
  const serviceName = targets.serviceName(target);
  if (!(await confirmWrites(arg, statements, serviceName))) return { ok: false, declined: 'write' };

  const started = performance.now();
  let wake = arg.wake === true;
  let enabledKey = false;
  for (let attempt = 0; attempt < 3; attempt++) {
    const { maxRows, maxBytes } = querySettings();
    // The last statement's rows go to the panel as they arrive.
    const last = (statements.at(-1) as Statement).text;
    const stream = panel.stream({ serviceName, sql: last, maxRows, maxBytes, target });
    try {
      let receivedMs = 0;
      let lastRowRead = 0;
      // The summary goes to the panel before the progress notification closes: its message is not queued behind the
      // notification's in the workbench.
      const { runs, painted } = await runAll(ctx, target, statements, wake, stream, async (runs) => {
        receivedMs = performance.now() - started;
        lastRowRead = clock();
        const { result, sql } = runs.at(-1) as StatementResult;
        const shown = {
          result,
          serviceName,
          sql,
          maxRows,
          maxBytes,
          target: { connectionId: target.connectionId, serviceId: target.serviceId },
          ...(runs.length > 1 ? { runs } : {}),
        };
        return { runs, painted: (await panel.present(shown, stream)).painted };
      });
      ctx.background.ran(target.connectionId, target.serviceId);
      const { result } = runs.at(-1) as StatementResult;
      const shown = await painted;
      log.info(
        `Ran query on ${serviceName}: ${result.rows.length} row(s)${result.truncated ? ` (stopped at the ${result.truncated} limit)` : ''} in ${Math.round(result.elapsedMs)} ms${result.queryId ? ` (query ID ${result.queryId})` : ''}`,
      );
      return {
        ok: true,
        statements: statements.length,
        columns: result.columns,
        rows: result.rows.length,
        firstRows: result.rows.slice(0, 50),
        ...(result.truncated ? { truncated: result.truncated } : {}),
        elapsedMs: result.elapsedMs,
        keyEnabled: enabledKey,
        ...(shown.rendered ? { rendered: shown.rendered } : {}),
        ...(shown.renderedMs !== undefined ? { renderedMs: shown.renderedMs } : {}),
        ...(shown.panelMs !== undefined ? { panelMs: shown.panelMs } : {}),
        ...(shown.firstPaintAt !== undefined
          ? { firstPaintMs: shown.firstPaintAt - started, firstPaintRows: shown.firstPaintRows }
          : {}),
        receivedMs,
        timeline: runTimeline(commandStart, lastRowRead, result, shown.timeline),
      };
    } catch (error) {
      stream.abort();
      if (error instanceof QueryError && error.kind === 'cancelled') {
        log.info(`Query on ${serviceName} cancelled.`);
        return { ok: false, error: error.message, reason: 'cancelled' };
      }
      const message = errorMessage(error);
      log.error(message);
      if (error instanceof QueryError && error.reason === 'serviceIdle' && !wake) {
        if (!(await agreeToWake(arg, serviceName))) {
          return { ok: false, declined: 'wake', error: message, reason: error.reason };
        }
        wake = true;
        continue;
      }
      if (error instanceof QueryError && error.reason === 'keyNotEnabled' && !enabledKey) {
        const enable = vscode.l10n.t('Enable this key on the query endpoint');
        const choice =
          arg.enableKey === true
            ? enable
            : arg.enableKey === false
              ? undefined
              : await vscode.window.showErrorMessage(message, enable);
        if (choice !== enable) return { ok: false, error: message, reason: error.reason };
        const done = await enableQueryKey(ctx, { ...target, noPrompt: noPrompt(arg, 'confirm') });
        if (!done.enabled) {
          return { ok: false, declined: 'enableKey', error: done.error ?? message, reason: error.reason };
        }
        enabledKey = true;
        continue;
      }
      if (error instanceof NoQueryHostError) {
        const setHost = vscode.l10n.t('Set Query Host…');
        void vscode.window.showErrorMessage(message, setHost).then((c) => {
          if (c === setHost) {
            void vscode.commands.executeCommand('observability.setQueryHost', { connectionId: error.connectionId });
          }
        });
        return { ok: false, error: message, reason: 'noQueryHost' };
      }
      const showLog = vscode.l10n.t('Show Log');
      void vscode.window.showErrorMessage(message, showLog).then((c) => {
        if (c === showLog) log.show();
      });
      return { ok: false, error: message, ...(error instanceof QueryError ? { reason: error.reason } : {}) };
    }
  }
  return { ok: false, error: 'gave up' };
}

function runTimeline(
  commandStart: number,
  lastRowRead: number,
  result: StatementResult['result'],
  panel: ResultTimeline | undefined,
): RunTimeline {
  const { seq: _seq, ...stages } = panel ?? { seq: 0 };
  // The client's times count from the request it sent (once its slot of the rate budget was granted).
  const requestSent = lastRowRead - result.elapsedMs;
  return {
    commandStart,
    requestSent,
    ...(result.firstByteMs > 0 ? { firstByte: requestSent + result.firstByteMs } : {}),
    lastRowRead,
    ...stages,
  };
}

/** Never wakes a service without asking (or an explicit `wake: true`). */
async function agreeToWake(arg: RunQueryArgs, serviceName: string): Promise<boolean> {
  if (arg.wake === false) return false;
  const wakeRun = vscode.l10n.t('Wake and Run');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0} is idle. Wake it to run the query?', serviceName),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Running the query wakes the service; that can take a minute, and the service then runs (and bills) until it idles again.',
      ),
    },
    wakeRun,
  );
  return answer === wakeRun;
}

/**
 * Runs the statements one after the other under a progress notification (shown once the run takes a moment; its
 * Cancel stops the run), and `ran` with their results before it closes.
 */
async function runAll<T>(
  ctx: QueryContext,
  target: QueryTarget,
  statements: Statement[],
  wake: boolean,
  stream: ResultStream,
  ran: (runs: StatementResult[]) => Promise<T>,
): Promise<T> {
  const s = querySettings();
  const client = ctx.clients.clientFor(target.connectionId);
  const serviceName = ctx.targets.serviceName(target);
  const title =
    statements.length > 1
      ? vscode.l10n.t('Running {0} statements on {1}…', statements.length, serviceName)
      : vscode.l10n.t('Running query on {0}…', serviceName);
  const ac = new AbortController();
  const progress = runProgress(title, () => ac.abort());
  try {
    const runs: StatementResult[] = [];
    for (const [i, st] of statements.entries()) {
      if (statements.length > 1) progress.report(`${i + 1}/${statements.length}`);
      const result = await client.run({
        serviceId: target.serviceId,
        sql: st.text,
        maxRows: s.maxRows,
        maxBytes: s.maxBytes,
        signal: ac.signal,
        wakeService: wake,
        onRows: progress.rows,
        ...(i === statements.length - 1 ? { onBatch: stream.onBatch } : {}),
        compactRows: true,
      });
      runs.push({ sql: st.text, result });
    }
    return await ran(runs);
  } finally {
    progress.close();
  }
}

import * as vscode from 'vscode';
import { QueryError, splitStatements, type Statement } from '../../api/query';
import { errorMessage } from '../../errors';
import { commandArgument, noPrompt } from '../../commandArgs';
import { NoQueryHostError, querySettings } from '../clients';
import type { QueryContext } from '../context';
import { clock, type StatementResult } from '../panel';
import { enableQueryKey } from './enableQueryKey';
import { agreeToWake, confirmWrites, documentFor, ensureTarget, statementsFor } from './runInput';
import { runTimeline, type RunOutcome, type RunQueryArgs } from './runOutcome';
import { runAll } from './runStatements';

export type { RunOutcome, RunQueryArgs, RunTimeline } from './runOutcome';

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

import * as vscode from 'vscode';
import type { Statement } from '../../api/query';
import { querySettings } from '../clients';
import type { QueryContext } from '../context';
import type { ResultStream, StatementResult } from '../panel';
import type { QueryTarget } from '../targets';
import { runProgress } from './runProgress';

/**
 * Runs the statements one after the other under a progress notification (shown once the run takes a moment; its
 * Cancel stops the run), and `ran` with their results before it closes.
 */
export async function runAll<T>(
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

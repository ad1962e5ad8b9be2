/**
 * A span opened by its ID alone: its trace is looked up in the trace source (one statement, one row) in the hour
 * either side of the row's time, or the last day without one; not found, the user is told so and nothing opens.
 */
import * as vscode from 'vscode';
import { sanitizeServerText } from '../api';
import type { StoredConnection } from '../connections/types';
import { errorMessage } from '../errors';
import { TRACE_ID, type SourceLike } from '../render';
import type { TracesDeps } from './index';
import { renderSpanLookup, SPAN_LOOKUP_MS } from './spanLookup';
import { rowTime, windowAround, type TraceRange } from './window';

const t = vscode.l10n.t;

export interface FoundSpan {
  traceId: string;
  sourceId: string;
  range: TraceRange;
}

export async function findSpanTrace(
  deps: TracesDeps,
  a: { connection: StoredConnection; serviceId: string; sourceId?: string | undefined; spanId: string; time?: unknown },
  pick: (sources: readonly SourceLike[], sourceId?: string) => Promise<SourceLike | undefined>,
): Promise<FoundSpan | undefined> {
  const { connection, serviceId, spanId } = a;
  try {
    const sources = (await deps.connections.clientFor(connection.id).listSources(serviceId)).data as SourceLike[];
    const source = await pick(sources, a.sourceId);
    if (!source) {
      void vscode.window.showErrorMessage(t('Open Trace: the service has no trace source.'));
      return undefined;
    }
    const now = Date.now();
    const range = windowAround(a.time) ?? { from: now - SPAN_LOOKUP_MS, to: now };
    const sql = renderSpanLookup(source, spanId, range);
    if (!sql) {
      void vscode.window.showErrorMessage(t('Open Trace: the trace source names no span ID or trace ID expression.'));
      return undefined;
    }
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Looking up span {0}…', spanId) },
      () => deps.runSql(connection.id, { serviceId, sql, maxRows: 1, maxBytes: 1024 * 1024 }),
    );
    const row = result.rows[0];
    const text = row
      ? String(row[0] ?? '')
          .trim()
          .toLowerCase()
      : '';
    const traceId = TRACE_ID.test(text) ? text : undefined;
    if (!traceId) {
      const where =
        a.time !== undefined && rowTime(a.time) !== undefined
          ? t('in the hour either side of the row’s time')
          : t('in the last 24 hours');
      void vscode.window.showWarningMessage(
        t(
          'Span {0} was not found in the source {1} {2}.',
          spanId,
          sanitizeServerText(String(source.name ?? source.id ?? '')),
          where,
        ),
      );
      return undefined;
    }
    return { traceId, sourceId: String(source.id ?? ''), range: windowAround(row?.[1]) ?? range };
  } catch (error) {
    void vscode.window.showErrorMessage(t('Open Trace: looking up span {0} failed: {1}', spanId, errorMessage(error)));
    return undefined;
  }
}

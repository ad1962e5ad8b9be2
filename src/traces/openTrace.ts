/**
 * Observability: Open Trace… — from the palette (asks for the connection, the service and the trace ID) or with an
 * argument object `{ connectionId, serviceId, sourceId?, traceId, spanId?, range?, time? }` (`range`: epoch
 * milliseconds `{ from, to }`; else `time`, the time of the row the trace was opened from: an hour either side of it
 * is read, and the whole table when the trace is not there; `spanId`: the span selected in the waterfall — given
 * without `traceId`, the span is looked up in the trace source around `time` (the last day without one)). Picks the
 * service's trace source (asks when there are several), reads the trace's spans and its logs (SQL on the service's
 * query endpoint; on a self-hosted deployment on its ClickHouse access, which it needs) and shows them in the trace
 * panel. Opening a trace is the user's action that starts the SQL; an idle service is not woken (the query client
 * asks for no wake).
 */
import * as vscode from 'vscode';
import { argsOf, nodeOf, scopeOfNode } from '../commandArgs';
import type { ConnectionManager } from '../connections/manager';
import { pickConnection } from '../connections/pick';
import { isSelfHosted, type StoredConnection } from '../connections/types';
import { errorMessage } from '../errors';
import type { Logger } from '../log';
import { readTrace, TRACE_ID, type SourceLike, type TraceModel } from '../render';
import type { TracePanels } from './panel';
import type { TracesDeps } from './index';
import { rangeArg, windowAround, type TraceRange } from './window';
import { findSpanTrace } from './spanFind';
import { normalizeSpanId, rowOfSpan } from './spanLookup';

export interface OpenTraceArgs {
  connectionId: string;
  serviceId: string;
  sourceId?: string;
  /** The trace; optional when `spanId` is given (the span's trace is looked up). */
  traceId?: string;
  /** The span to select (16 hexadecimal digits). */
  spanId?: string;
  /** The time range to read the trace in (epoch milliseconds). */
  range?: TraceRange;
  /** Without a range: the time of the row the trace was opened from (epoch ms or a date text), ± an hour read. */
  time?: number | string;
}

/** Bytes of one read at most (spans or logs). */
const MAX_BYTES = 64 * 1024 * 1024;

const t = vscode.l10n.t;

export function normalizeTraceId(text: string): string | undefined {
  const id = text.trim().toLowerCase();
  return TRACE_ID.test(id) ? id : undefined;
}

async function pickService(connection: StoredConnection): Promise<string | undefined> {
  if (connection.serviceIds.length <= 1) return connection.serviceIds[0];
  const picked = await vscode.window.showQuickPick(
    connection.serviceIds.map((id) => ({
      label: connection.services.find((s) => s.id === id)?.name ?? id,
      description: id,
      id,
    })),
    { placeHolder: t('The service whose trace to open') },
  );
  return picked?.id;
}

async function pickTraceSource(sources: readonly SourceLike[], sourceId?: string): Promise<SourceLike | undefined> {
  const traces = sources.filter((s) => s.kind === 'trace');
  if (sourceId) return traces.find((s) => s.id === sourceId);
  if (traces.length <= 1) return traces[0];
  const picked = await vscode.window.showQuickPick(
    traces.map((s) => ({ label: String(s.name ?? s.id), description: String(s.id ?? ''), source: s })),
    { placeHolder: t('The trace source to read the trace from') },
  );
  return picked?.source;
}

export function createOpenTrace(deps: TracesDeps, panels: TracePanels, log: Logger) {
  const { connections } = deps;
  return async (raw?: unknown): Promise<TraceModel | undefined> => {
    const args = argsOf<OpenTraceArgs>(raw);
    const node = nodeOf(raw);
    const fromNode = node ? scopeOfNode(node) : {};
    const connection =
      (args.connectionId ?? fromNode.connectionId)
        ? connections.get((args.connectionId ?? fromNode.connectionId) as string)
        : await pickConnection(connections, t('The connection whose trace to open'));
    if (!connection) {
      if (args.connectionId) void vscode.window.showErrorMessage(t('Open Trace: the connection does not exist.'));
      return undefined;
    }
    const serviceId = args.serviceId ?? fromNode.serviceId ?? (await pickService(connection));
    if (!serviceId) return undefined;
    if (isSelfHosted(connection) && !connection.clickHouse) {
      void vscode.window.showErrorMessage(
        t(
          'Opening a trace of {0} needs ClickHouse access (the self-hosted API has no SQL): add it with Edit Connection.',
          connection.label,
        ),
      );
      return undefined;
    }
    const spanId = args.spanId !== undefined ? normalizeSpanId(String(args.spanId)) : undefined;
    if (args.spanId !== undefined && !spanId) {
      void vscode.window.showErrorMessage(t('Open Trace: a span ID is 16 hexadecimal digits.'));
      return undefined;
    }
    if (args.traceId === undefined && spanId) {
      const found = await findSpanTrace(
        deps,
        { connection, serviceId, sourceId: args.sourceId, spanId, time: args.time },
        pickTraceSource,
      );
      if (!found) return undefined;
      return readAndShow(connections, deps, panels, log, { connection, serviceId, spanId, ...found });
    }
    const traceId =
      args.traceId !== undefined
        ? normalizeTraceId(String(args.traceId))
        : normalizeTraceId(
            (await vscode.window.showInputBox({
              title: t('Open Trace'),
              prompt: t('The trace ID: 32 hexadecimal digits'),
              placeHolder: '4bf92f3577b34da6a3ce929d0e0e4736',
              validateInput: (v) => (normalizeTraceId(v) ? undefined : t('A trace ID is 32 hexadecimal digits.')),
            })) ?? '',
          );
    if (!traceId) {
      if (args.traceId !== undefined) {
        void vscode.window.showErrorMessage(t('Open Trace: a trace ID is 32 hexadecimal digits.'));
      }
      return undefined;
    }
    const range = rangeArg(args.range) ?? windowAround(args.time);
    return readAndShow(connections, deps, panels, log, {
      connection,
      serviceId,
      traceId,
      sourceId: args.sourceId,
      range,
      ...(spanId ? { spanId } : {}),
    });
  };
}

export async function readAndShow(
  connections: ConnectionManager,
  deps: TracesDeps,
  panels: TracePanels,
  log: Logger,
  a: {
    connection: StoredConnection;
    serviceId: string;
    traceId: string;
    sourceId?: string | undefined;
    range?: TraceRange | undefined;
    /** The span to select in the waterfall. */
    spanId?: string | undefined;
  },
): Promise<(TraceModel & { range?: TraceRange | undefined; selectedRow?: number }) | undefined> {
  const { connection, serviceId, traceId } = a;
  const key = `${connection.id}/${serviceId}/${traceId}`;
  let cancelled = false;
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Reading trace {0}…', traceId), cancellable: true },
      async (_progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => {
          cancelled = true;
          abort.abort();
        });
        const sources = (await connections.clientFor(connection.id).listSources(serviceId)).data as SourceLike[];
        const source = await pickTraceSource(sources, a.sourceId);
        if (!source) {
          if (a.sourceId || !sources.some((s) => s.kind === 'trace')) {
            void vscode.window.showErrorMessage(
              a.sourceId
                ? t('Open Trace: the service has no trace source {0}.', a.sourceId)
                : t('Open Trace: the service has no trace source.'),
            );
          }
          return undefined;
        }
        const restore = { connectionId: connection.id, serviceId, sourceId: String(source.id ?? ''), traceId };
        panels.loading(key, traceId, { ...restore, range: a.range });
        const run = (sql: string, maxRows: number) =>
          deps.runSql(connection.id, { serviceId, sql, maxRows, maxBytes: MAX_BYTES, signal: abort.signal });
        let range = a.range;
        let model = await readTrace(run, source, sources, traceId, range);
        if (model.tree.rows.length === 0 && range) {
          // Not in the window around the row's time (a clock or time zone apart): the whole table, as without a time.
          log.info(`trace ${traceId}: no span between ${range.from} and ${range.to}; reading it without a range`);
          range = undefined;
          model = await readTrace(run, source, sources, traceId);
        }
        if (model.tree.rows.length === 0) {
          panels.close(key);
          void vscode.window.showWarningMessage(
            t('No span of trace {0} in the source {1}.', traceId, model.sourceName || model.sourceId),
          );
          return model;
        }
        panels.show(key, model, t('Trace {0} · {1}', traceId, model.sourceName || model.sourceId), {
          ...restore,
          range,
        });
        log.info(`trace ${traceId}: ${model.tree.rows.length} spans, ${model.logs.length} log lines`);
        if (!a.spanId) return { ...model, range };
        const row = rowOfSpan(model.tree, a.spanId);
        if (row >= 0) panels.select(key, row);
        else void vscode.window.showWarningMessage(t('Span {0} is not in trace {1}.', a.spanId, traceId));
        return { ...model, range, selectedRow: row };
      },
    );
  } catch (error) {
    panels.close(key);
    // Cancelled by the user: nothing to say.
    if (!cancelled) void vscode.window.showErrorMessage(t('Open Trace {0} failed: {1}', traceId, errorMessage(error)));
    return undefined;
  }
}

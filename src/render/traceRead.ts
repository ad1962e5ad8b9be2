/**
 * Reads one trace (pure but for the `run` it is given, no `vscode`): its spans from a trace source and, when the
 * trace source has a log source, the log lines carrying its trace ID, as the tree the waterfall and the agent's
 * Get Trace tool show. Both statements are bounded; what was cut is said in `notes`.
 */
import { renderTraceLogs, renderTraceSpans, TRACE_MAX_LOGS, TRACE_MAX_SPANS, type TraceLogLine } from './trace';
import { logsFromRows, spansFromRows } from './traceRows';
import { buildTraceTree, type TraceTree } from './traceTree';
import type { SourceLike, TimeRange } from './tile';

/** Runs a statement on the service; `truncated` says the reading stopped early (rows or bytes). */
export type TraceReadRun = (
  sql: string,
  maxRows: number,
) => Promise<{ rows: readonly (readonly unknown[])[]; truncated?: 'rows' | 'bytes' | undefined }>;

export interface TraceModel {
  traceId: string;
  sourceId: string;
  sourceName: string;
  tree: TraceTree;
  logs: TraceLogLine[];
  /** The log source read, if any. */
  logSourceName?: string | undefined;
  /** Why the logs are not shown (no log source, or its statement failed). */
  logsNote?: string | undefined;
  /** What was cut. */
  notes: string[];
}

/** The log source of a trace source: its `logSourceId`, else the one log source that names it as its trace source. */
export function logSourceOfTrace(trace: SourceLike, sources: readonly SourceLike[]): SourceLike | undefined {
  const id = typeof trace.logSourceId === 'string' ? trace.logSourceId : undefined;
  const named = id ? sources.find((s) => s.id === id && s.kind === 'log') : undefined;
  if (named) return named;
  const linked = sources.filter((s) => s.kind === 'log' && s.traceSourceId === trace.id);
  return linked.length === 1 ? linked[0] : undefined;
}

const errorOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function readTrace(
  run: TraceReadRun,
  source: SourceLike,
  sources: readonly SourceLike[],
  traceId: string,
  range?: TimeRange,
): Promise<TraceModel> {
  const spansSql = renderTraceSpans(source, traceId, range);
  if (!spansSql.ok) throw new Error(spansSql.reason);
  const logSource = logSourceOfTrace(source, sources);
  const logsSql = logSource ? renderTraceLogs(logSource, traceId, range) : undefined;
  const [spans, logs] = await Promise.all([
    run(spansSql.sql, spansSql.maxRows),
    logsSql?.ok
      ? run(logsSql.sql, logsSql.maxRows).then(
          (r) => ({ ok: true as const, r }),
          (e: unknown) => ({ ok: false as const, reason: errorOf(e) }),
        )
      : Promise.resolve(undefined),
  ]);
  const notes: string[] = [];
  const tree = buildTraceTree(spansFromRows(spans.rows), TRACE_MAX_SPANS);
  if (tree.cut > 0 || spans.truncated === 'rows') {
    notes.push(
      `The trace has more than ${TRACE_MAX_SPANS.toLocaleString('en-US')} spans: the first ones by start are shown.`,
    );
  } else if (spans.truncated === 'bytes') {
    notes.push(
      `The spans read stopped at the size bound: ${tree.spans.length.toLocaleString('en-US')} spans are shown.`,
    );
  }
  let logLines: TraceLogLine[] = [];
  let logsNote: string | undefined;
  if (!logSource) logsNote = 'The trace source has no log source.';
  else if (logsSql && !logsSql.ok) logsNote = logsSql.reason;
  else if (logs && !logs.ok) logsNote = `Reading the logs failed: ${logs.reason}`;
  else if (logs?.ok) {
    logLines = logsFromRows(logs.r.rows).slice(0, TRACE_MAX_LOGS);
    if (logs.r.rows.length > TRACE_MAX_LOGS || logs.r.truncated) {
      notes.push(`The trace has more log lines than the ${logLines.length.toLocaleString('en-US')} shown.`);
    }
  }
  return {
    traceId,
    sourceId: typeof source.id === 'string' ? source.id : '',
    sourceName: typeof source.name === 'string' ? source.name : '',
    tree,
    logs: logLines,
    logSourceName: typeof logSource?.name === 'string' ? logSource.name : undefined,
    logsNote,
    notes,
  };
}

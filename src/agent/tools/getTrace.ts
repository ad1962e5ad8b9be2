/**
 * `observability_getTrace`: one trace's spans as a bounded tree (failed spans first, then the longest, with their
 * ancestors), read-only — the statement the trace panel runs (SQL on a Cloud service's query endpoint, or on a
 * self-hosted deployment's ClickHouse access).
 */
import { sanitizeServerText } from '../../api';
import { errorText, readTrace, TRACE_ID, traceTreeText, type SourceLike } from '../../render';
import { errorResult } from '../failure';
import { resolveScope, scopeName } from '../scope';
import type { ReadTool } from '../tool';

const MAX_BYTES = 64 * 1024 * 1024;

/** A line of the tree, its indentation kept and its text sanitised. */
function cleanLine(line: string): string {
  const m = /^(\s*)(.*)$/.exec(line);
  return `${m?.[1] ?? ''}${sanitizeServerText(m?.[2] ?? '', 1000)}`;
}

/** How the user opens the trace in the editor (its waterfall and logs): the command and its argument. */
export function openTraceNote(
  scope: { connectionId: string; serviceId: string },
  traceId: string,
  sourceId?: string,
): string {
  const args = {
    connectionId: scope.connectionId,
    serviceId: scope.serviceId,
    ...(sourceId ? { sourceId } : {}),
    traceId,
  };
  return `Shown in the editor by the command observability.openTrace with ${JSON.stringify(args)}.`;
}

export const getTrace: ReadTool = {
  name: 'observability_getTrace',
  kind: 'read',
  running: () => 'Reading a trace',
  async run(input, { deps }) {
    const scope = resolveScope(deps.connections.list(), input);
    const traceId = typeof input.traceId === 'string' ? input.traceId.trim().toLowerCase() : '';
    if (!TRACE_ID.test(traceId)) return { title: 'Refused, nothing was sent: a trace ID is 32 hexadecimal digits.' };
    if (scope.selfHosted && !deps.connections.get(scope.connectionId)?.clickHouse) {
      return {
        title: `Refused: ${scopeName(scope)} is a self-hosted deployment without ClickHouse access, and its API reads no trace by ID. Use observability_searchEvents with TraceId:${traceId} instead.`,
      };
    }
    const maxSpans = Math.max(1, Math.min(typeof input.maxSpans === 'number' ? Math.floor(input.maxSpans) : 60, 200));
    try {
      const sources = (await deps.connections.clientFor(scope.connectionId).listSources(scope.serviceId))
        .data as SourceLike[];
      const traces = sources.filter((s) => s.kind === 'trace');
      const wanted = typeof input.source === 'string' ? input.source.trim() : '';
      const source = wanted
        ? traces.find(
            (s) =>
              s.id === wanted ||
              String(s.name ?? '')
                .trim()
                .toLowerCase() === wanted.toLowerCase(),
          )
        : traces.length === 1
          ? traces[0]
          : undefined;
      if (!source) {
        return {
          title: `Name the trace source: one of ${traces.map((s) => `"${sanitizeServerText(s.name) || String(s.id)}"`).join(', ') || '(no trace source)'}.`,
        };
      }
      const run = (sql: string, maxRows: number) =>
        deps.runSql(scope.connectionId, { serviceId: scope.serviceId, sql, maxRows, maxBytes: MAX_BYTES });
      const model = await readTrace(run, source, [], traceId);
      const { tree } = model;
      if (tree.rows.length === 0) {
        return {
          title: `No span of trace ${traceId} in ${scopeName(scope)} (source "${sanitizeServerText(source.name)}").`,
        };
      }
      const failed = tree.rows.filter((r) => r.error && tree.spans[r.span]!.events.some((e) => e.name === 'exception'));
      const shown = Math.min(maxSpans, tree.rows.length);
      return {
        title: `Trace ${traceId} of ${scopeName(scope)}: ${tree.rows.length} spans over ${(tree.endMs - tree.startMs).toFixed(1)} ms, ${tree.services.length} services, ${tree.errors} failed, ${tree.orphans} orphans (UTC start ${new Date(tree.startMs).toISOString()}).`,
        notes: [
          `Shown: up to ${shown} spans (failed first, then the longest) with their ancestors; indentation is nesting.`,
          openTraceNote(scope, traceId, typeof source.id === 'string' ? source.id : undefined),
          ...model.notes,
        ],
        data: [
          `services: ${tree.services.map((s) => sanitizeServerText(s, 200)).join(', ')}`,
          ...failed.map((r) => `exception: ${sanitizeServerText(errorText(tree.spans[r.span]!), 1000)}`),
          ...traceTreeText(tree, maxSpans).split('\n').map(cleanLine),
        ].join('\n'),
      };
    } catch (error) {
      return errorResult(`Get trace ${traceId} of ${scopeName(scope)}`, error);
    }
  },
};

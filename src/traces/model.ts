/**
 * A read trace as the panel's messages (no `vscode`): the waterfall's rows, the logs linked to their spans' rows,
 * and one span's details.
 */
import type { TraceModel } from '../render';
import {
  ROW_CYCLE,
  ROW_DUPLICATE,
  ROW_ERROR,
  ROW_EXCEPTION,
  ROW_ORPHAN,
  type SpanDetails,
  type TraceMessage,
  type WaterfallRow,
} from './protocol';

export function traceMessage(model: TraceModel, title: string): TraceMessage {
  const { tree } = model;
  const serviceIndex = new Map(tree.services.map((s, i) => [s, i]));
  const rowOfSpan = new Map<string, number>();
  const rows: WaterfallRow[] = tree.rows.map((r, i) => {
    const s = tree.spans[r.span]!;
    if (!rowOfSpan.has(s.spanId)) rowOfSpan.set(s.spanId, i);
    return {
      depth: r.depth,
      parent: r.parent,
      descendants: r.descendants,
      flags:
        (r.error ? ROW_ERROR : 0) |
        (r.orphan ? ROW_ORPHAN : 0) |
        (r.cycle ? ROW_CYCLE : 0) |
        (r.duplicate ? ROW_DUPLICATE : 0) |
        (s.events.some((e) => e.name === 'exception') ? ROW_EXCEPTION : 0),
      offsetMs: s.startMs - tree.startMs,
      durationMs: s.durationMs,
      name: s.name,
      service: serviceIndex.get(s.service) ?? 0,
      spanId: s.spanId,
    };
  });
  return {
    type: 'trace',
    traceId: model.traceId,
    title,
    startMs: tree.startMs,
    durationMs: tree.endMs - tree.startMs,
    services: tree.services,
    rows,
    logs: model.logs.map((l) => ({
      offsetMs: l.timeMs - tree.startMs,
      severity: l.severity,
      service: l.service,
      body: l.body,
      row: rowOfSpan.get(l.spanId) ?? -1,
    })),
    logsNote: model.logsNote,
    notes: model.notes,
    errors: tree.errors,
    orphans: tree.orphans,
  };
}

export function spanDetails(model: TraceModel, row: number): SpanDetails | undefined {
  const r = model.tree.rows[row];
  if (!r) return undefined;
  const s = model.tree.spans[r.span]!;
  const start = model.tree.startMs;
  return {
    type: 'details',
    row,
    spanId: s.spanId,
    parentSpanId: s.parentSpanId,
    name: s.name,
    service: s.service,
    kind: s.kind,
    offsetMs: s.startMs - start,
    durationMs: s.durationMs,
    statusCode: s.statusCode,
    statusMessage: s.statusMessage,
    attributes: Object.entries(s.attributes),
    resource: Object.entries(s.resource),
    events: s.events.map((e) => ({
      offsetMs: e.timeMs - start,
      name: e.name,
      attributes: Object.entries(e.attributes),
    })),
  };
}

/**
 * A trace's spans as a tree (pure: no `vscode`): nested by parent span ID, children by start, flattened depth first
 * into the rows the waterfall draws. A span whose parent is not in the trace (an orphan) and a span on a loop of
 * parents start a top-level subtree, marked; a span ID met twice keeps its first span as the parent of its children,
 * the later one marked a duplicate. Iterative, so 100,000 spans nested deep build without recursion.
 */
import { TRACE_MAX_SPANS, type TraceSpan } from './trace';

export interface TraceRow {
  /** Index of the span in the spans given. */
  span: number;
  depth: number;
  /** Row of the parent span, -1 at the top level. */
  parent: number;
  /** Rows below this one (its subtree's size, itself excluded). */
  descendants: number;
  orphan: boolean;
  /** On a loop of parent span IDs (its parent is one of its descendants). */
  cycle: boolean;
  /** Another span of the trace has the same span ID (the first one met holds the children). */
  duplicate: boolean;
  error: boolean;
}

export interface TraceTree {
  spans: TraceSpan[];
  rows: TraceRow[];
  startMs: number;
  endMs: number;
  services: string[];
  errors: number;
  orphans: number;
  /** Spans left out past the bound. */
  cut: number;
}

/** A span failed: its status is Error (or the OpenTelemetry code 2), or it recorded an exception event. */
export function spanFailed(span: TraceSpan): boolean {
  return (
    /^(error|status_code_error|2)$/i.test(span.statusCode.trim()) || span.events.some((e) => e.name === 'exception')
  );
}

export function buildTraceTree(all: readonly TraceSpan[], maxSpans = TRACE_MAX_SPANS): TraceTree {
  const spans = all.slice(0, maxSpans);
  const first = new Map<string, number>();
  const duplicate = spans.map((s, i) => {
    if (s.spanId === '' || !first.has(s.spanId)) {
      if (s.spanId !== '') first.set(s.spanId, i);
      return false;
    }
    return true;
  });
  const byStart = (a: number, b: number) => spans[a]!.startMs - spans[b]!.startMs || a - b;
  const children = new Map<number, number[]>();
  const tops: number[] = [];
  const orphan = spans.map(() => false);
  spans.forEach((s, i) => {
    const p = s.parentSpanId === '' ? undefined : first.get(s.parentSpanId);
    if (s.parentSpanId !== '' && p === undefined) orphan[i] = true;
    if (p === undefined || p === i) {
      if (p === i) orphan[i] = true;
      tops.push(i);
    } else {
      const list = children.get(p);
      if (list) list.push(i);
      else children.set(p, [i]);
    }
  });
  for (const list of children.values()) list.sort(byStart);
  tops.sort(byStart);

  const rows: TraceRow[] = [];
  const placed = new Set<number>();
  const cycle = spans.map(() => false);
  const walk = (top: number) => {
    const stack: { span: number; depth: number; parent: number }[] = [{ span: top, depth: 0, parent: -1 }];
    while (stack.length > 0) {
      const { span, depth, parent } = stack.pop()!;
      if (placed.has(span)) continue;
      placed.add(span);
      const s = spans[span]!;
      rows.push({
        span,
        depth,
        parent,
        descendants: 0,
        orphan: orphan[span]!,
        cycle: cycle[span]!,
        duplicate: duplicate[span]!,
        error: spanFailed(s),
      });
      const row = rows.length - 1;
      const kids = children.get(span) ?? [];
      for (let k = kids.length - 1; k >= 0; k--) stack.push({ span: kids[k]!, depth: depth + 1, parent: row });
    }
  };
  for (const top of tops) walk(top);
  // Spans on a loop of parents are reached from no top: the earliest of each loop starts a subtree of its own.
  if (placed.size < spans.length) {
    const left = spans
      .map((_, i) => i)
      .filter((i) => !placed.has(i))
      .sort(byStart);
    for (const i of left) {
      if (placed.has(i)) continue;
      cycle[i] = true;
      orphan[i] = true;
      walk(i);
    }
  }
  // Subtree sizes: rows are depth first, so a row's subtree is the rows after it until the depth returns.
  for (let r = rows.length - 1; r >= 0; r--) {
    const p = rows[r]!.parent;
    if (p >= 0) rows[p]!.descendants += rows[r]!.descendants + 1;
  }
  let startMs = Infinity;
  let endMs = -Infinity;
  for (const s of spans) {
    startMs = Math.min(startMs, s.startMs);
    endMs = Math.max(endMs, s.startMs + s.durationMs);
  }
  return {
    spans,
    rows,
    startMs: Number.isFinite(startMs) ? startMs : 0,
    endMs: Number.isFinite(endMs) ? endMs : 0,
    services: [...new Set(spans.map((s) => s.service))].sort(),
    errors: rows.filter((r) => r.error).length,
    orphans: rows.filter((r) => r.orphan).length,
    cut: Math.max(0, all.length - spans.length),
  };
}

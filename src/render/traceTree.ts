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

/** Text on one line (names and messages may hold newlines), cut. */
const flat = (s: string, max = 300) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};
const ms = (v: number) => `${v >= 100 ? v.toFixed(0) : v.toFixed(v >= 1 ? 1 : 3)} ms`;

/** An exception event's type and message, or the status message, of a failed span. */
export function errorText(span: TraceSpan): string {
  const ex = span.events.find((e) => e.name === 'exception');
  const type = ex?.attributes['exception.type'] ?? '';
  const message = ex?.attributes['exception.message'] ?? span.statusMessage;
  return flat([type, message].filter(Boolean).join(': '));
}

/**
 * The tree as bounded text: the failed spans first, then the longest, at most `maxSpans`, each with its ancestors
 * so the shape stays; one line a span, indented by depth, in tree order.
 */
export function traceTreeText(tree: TraceTree, maxSpans = 60): string {
  const order = tree.rows
    .map((_, r) => r)
    .sort((a, b) => {
      const ra = tree.rows[a]!;
      const rb = tree.rows[b]!;
      if (ra.error !== rb.error) return ra.error ? -1 : 1;
      return tree.spans[rb.span]!.durationMs - tree.spans[ra.span]!.durationMs;
    });
  const keep = new Set<number>();
  for (const r of order) {
    if (keep.size >= maxSpans) break;
    for (let p = r; p >= 0 && !keep.has(p); p = tree.rows[p]!.parent) keep.add(p);
  }
  const lines: string[] = [];
  for (let r = 0; r < tree.rows.length; r++) {
    if (!keep.has(r)) continue;
    const row = tree.rows[r]!;
    const s = tree.spans[row.span]!;
    const marks = [
      row.orphan ? (row.cycle ? 'parent loop' : `orphan: parent ${s.parentSpanId} missing`) : '',
      row.duplicate ? 'duplicate span ID' : '',
      row.error ? `ERROR ${errorText(s)}`.trim() : '',
    ].filter(Boolean);
    const hidden = row.descendants - countKept(tree, keep, r);
    lines.push(
      `${'  '.repeat(Math.min(row.depth, 40))}- ${flat(s.name)} [${flat(s.service)}] ${ms(s.durationMs)} at +${ms(s.startMs - tree.startMs)} span ${s.spanId}${marks.length ? ` (${marks.join('; ')})` : ''}${hidden > 0 ? ` (+${hidden} spans below not shown)` : ''}`,
    );
  }
  return lines.join('\n');
}

function countKept(tree: TraceTree, keep: Set<number>, r: number): number {
  let n = 0;
  for (let i = r + 1; i <= r + tree.rows[r]!.descendants; i++) if (keep.has(i)) n++;
  return n;
}

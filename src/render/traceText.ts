/** A trace tree as bounded text (the agent's Get Trace tool): one line a span, indented by depth. */
import type { TraceSpan } from './trace';
import type { TraceTree } from './traceTree';

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

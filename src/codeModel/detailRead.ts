/** The rows of the on-demand detail statement (detail.ts) as time buckets and span examples. */

export interface DetailBucket {
  /** The bucket's start, epoch ms. */
  at: number;
  calls: number;
  errors: number;
}

export interface SpanExample {
  at: number;
  traceId: string;
  spanId: string;
  durationMs: number;
  status: string;
  message: string;
  failed: boolean;
}

export interface CodeDetail {
  stepSeconds: number;
  /** Every bucket of the range in order, empty ones at zero. */
  buckets: DetailBucket[];
  slowest: SpanExample[];
  failing: SpanExample[];
}

const num = (v: unknown): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
};

/** The statement's rows (JSON objects by column name) as buckets and examples. */
export function readDetail(
  rows: readonly Record<string, unknown>[],
  range: { from: number; to: number },
  stepSeconds: number,
): CodeDetail {
  const step = stepSeconds * 1000;
  const byAt = new Map<number, DetailBucket>();
  for (let at = Math.floor(range.from / step) * step; at < range.to; at += step) {
    byAt.set(at, { at, calls: 0, errors: 0 });
  }
  const example = (r: Record<string, unknown>): SpanExample => ({
    at: num(r.at_ms),
    traceId: String(r.trace_id ?? ''),
    spanId: String(r.span_id ?? ''),
    durationMs: num(r.duration_ms),
    status: String(r.status ?? ''),
    message: String(r.message ?? ''),
    failed: num(r.errors) > 0,
  });
  const out: CodeDetail = { stepSeconds, buckets: [], slowest: [], failing: [] };
  for (const r of rows) {
    if (r.part === 'bucket') {
      const b = byAt.get(num(r.at_ms));
      if (b) {
        b.calls += num(r.calls);
        b.errors += num(r.errors);
      }
    } else if (r.part === 'slow') out.slowest.push(example(r));
    else if (r.part === 'failing') out.failing.push(example(r));
  }
  out.buckets = [...byAt.values()];
  out.slowest.sort((a, b) => b.durationMs - a.durationMs || b.at - a.at);
  out.failing.sort((a, b) => b.at - a.at);
  return out;
}

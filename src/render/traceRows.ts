/**
 * The rows of a trace's statements (./trace.ts) read back into spans and log lines: starts to the nanosecond, server
 * text cleaned of control, bidi and ANSI characters (newlines and tabs kept, for stack traces) and cut.
 */
import { TRACE_CUTS, type TraceLogLine, type TraceSpan } from './trace';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-_]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** Server text as plain text: ANSI sequences and control or bidi characters removed (newlines and tabs kept), cut. */
export function cleanText(value: unknown, max: number = TRACE_CUTS.event): string {
  const s = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  const clean = s.replace(ANSI, '').replace(CONTROLS, '');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

function cleanMap(value: unknown, max: number): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, 500)) {
    out[cleanText(k, 200)] = cleanText(v, max);
  }
  return out;
}

/** Epoch milliseconds of nanoseconds given as a decimal string (split, as they pass 2^53). */
const msOfNanos = (v: unknown) => {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(Math.trunc(v)) : '';
  if (!/^-?\d+$/.test(s)) return 0;
  if (s.length <= 6) return Number(s) / 1e6;
  return Number(s.slice(0, -6)) + Number(s.slice(-6)) / 1e6;
};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The rows of `renderTraceSpans` as spans. */
export function spansFromRows(rows: readonly (readonly unknown[])[]): TraceSpan[] {
  return rows.map((r) => {
    const times = list(r[11]);
    const names = list(r[12]);
    const attrs = list(r[13]);
    return {
      startMs: msOfNanos(r[0]),
      spanId: cleanText(r[1], TRACE_CUTS.id),
      parentSpanId: cleanText(r[2], TRACE_CUTS.id),
      name: cleanText(r[3], TRACE_CUTS.name),
      service: cleanText(r[4], TRACE_CUTS.name),
      kind: cleanText(r[5], TRACE_CUTS.id),
      durationMs: Math.max(0, Number(r[6]) || 0),
      statusCode: cleanText(r[7], TRACE_CUTS.id),
      statusMessage: cleanText(r[8], TRACE_CUTS.value),
      attributes: cleanMap(r[9], TRACE_CUTS.value),
      resource: cleanMap(r[10], TRACE_CUTS.value),
      events: names.map((n, i) => ({
        timeMs: msOfNanos(times[i]),
        name: cleanText(n, TRACE_CUTS.name),
        attributes: cleanMap(attrs[i], TRACE_CUTS.event),
      })),
    };
  });
}

/** The rows of `renderTraceLogs` as log lines. */
export function logsFromRows(rows: readonly (readonly unknown[])[]): TraceLogLine[] {
  return rows.map((r) => ({
    timeMs: msOfNanos(r[0]),
    spanId: cleanText(r[1], TRACE_CUTS.id),
    severity: cleanText(r[2], TRACE_CUTS.id),
    service: cleanText(r[3], TRACE_CUTS.name),
    body: cleanText(r[4], TRACE_CUTS.value),
  }));
}

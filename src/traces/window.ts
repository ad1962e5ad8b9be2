/**
 * The time window a trace is read in (no `vscode`): opened from a row with a time, the trace's statements read only
 * an hour either side of it (as HyperDX's trace panel queries by the row's time), so ClickHouse skips the parts of the
 * table outside it. The restored panel's state is checked here too.
 */

/** An hour either side of the row's time. */
export const TRACE_WINDOW_MS = 60 * 60 * 1000;

export interface TraceRange {
  from: number;
  to: number;
}

/** What a trace panel keeps in its webview state to open the trace again after a window reload. */
export interface TraceRestore {
  connectionId: string;
  serviceId: string;
  sourceId?: string | undefined;
  traceId: string;
  range?: TraceRange | undefined;
}

/**
 * Epoch milliseconds of a row's time: a number (epoch seconds, milliseconds, microseconds or nanoseconds, told apart
 * by size) or a date text as ClickHouse writes it (`2026-11-29 10:00:00.123456789`, read as UTC unless it names its
 * zone) or ISO 8601. Undefined when it is none of these.
 */
export function rowTime(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return scaled(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d{9,19}$/.test(text)) return scaled(Number(text));
  const m = /^(\d{4}-\d\d-\d\d)(?:[ T](\d\d:\d\d(?::\d\d)?)(\.\d+)?)?\s*(Z|[+-]\d\d:?\d\d)?$/i.exec(text);
  if (!m) return undefined;
  const fraction = m[3] ? m[3].slice(0, 4) : '';
  const zone = m[4] ? (m[4].toUpperCase() === 'Z' ? 'Z' : m[4].replace(/^([+-]\d\d)(\d\d)$/, '$1:$2')) : 'Z';
  const ms = Date.parse(`${m[1]}T${m[2] ?? '00:00:00'}${fraction}${zone}`);
  return Number.isFinite(ms) ? ms : undefined;
}

function scaled(n: number): number {
  if (n < 1e11) return n * 1000;
  if (n < 1e14) return n;
  if (n < 1e17) return Math.floor(n / 1e3);
  return Math.floor(n / 1e6);
}

/** The window around a row's time, or undefined when the time is not known. */
export function windowAround(time: unknown): TraceRange | undefined {
  const ms = rowTime(time);
  return ms === undefined ? undefined : { from: ms - TRACE_WINDOW_MS, to: ms + TRACE_WINDOW_MS };
}

/** A range given as an argument, when it is one (two finite epoch milliseconds, from before to). */
export function rangeArg(value: unknown): TraceRange | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { from, to } = value as { from?: unknown; to?: unknown };
  if (typeof from !== 'number' || typeof to !== 'number' || !Number.isFinite(from) || !Number.isFinite(to)) {
    return undefined;
  }
  return from < to ? { from, to } : undefined;
}

const text = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** The state a restored trace panel kept, when it names a trace to open. */
export function parseTraceRestore(raw: unknown): TraceRestore | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const s = raw as Record<string, unknown>;
  if (!text(s.connectionId) || !text(s.serviceId) || !text(s.traceId)) return undefined;
  const range = rangeArg(s.range);
  return {
    connectionId: s.connectionId,
    serviceId: s.serviceId,
    ...(text(s.sourceId) ? { sourceId: s.sourceId } : {}),
    traceId: s.traceId,
    ...(range ? { range } : {}),
  };
}

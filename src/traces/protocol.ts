/**
 * Messages between the trace panel and its webview (plain data; the webview draws every string as text). The rows
 * come slim (what the waterfall draws); a span's details are sent when it is selected.
 */

import type { TraceRestore } from './window';

/** Flags of a waterfall row. */
export const ROW_ERROR = 1;
export const ROW_ORPHAN = 2;
export const ROW_CYCLE = 4;
export const ROW_DUPLICATE = 8;
/** The span recorded an exception event (its details hold the exception and its stack trace). */
export const ROW_EXCEPTION = 16;

export interface WaterfallRow {
  depth: number;
  /** Row of the parent, -1 at the top level. */
  parent: number;
  descendants: number;
  flags: number;
  /** Milliseconds from the trace's start. */
  offsetMs: number;
  durationMs: number;
  name: string;
  /** Index into `services`. */
  service: number;
  spanId: string;
}

export interface TraceLogRow {
  offsetMs: number;
  severity: string;
  service: string;
  body: string;
  /** The row of the log line's span, -1 when it names no span of the trace. */
  row: number;
}

export interface TraceMessage {
  type: 'trace';
  traceId: string;
  title: string;
  durationMs: number;
  startMs: number;
  services: string[];
  rows: WaterfallRow[];
  logs: TraceLogRow[];
  logsNote?: string | undefined;
  notes: string[];
  errors: number;
  orphans: number;
  /** What the webview keeps in its state to open the trace again after a window reload. */
  restore?: TraceRestore;
}

export interface SpanDetails {
  type: 'details';
  row: number;
  spanId: string;
  parentSpanId: string;
  name: string;
  service: string;
  kind: string;
  offsetMs: number;
  durationMs: number;
  statusCode: string;
  statusMessage: string;
  attributes: [string, string][];
  resource: [string, string][];
  events: { offsetMs: number; name: string; attributes: [string, string][]; links?: FrameLink[] }[];
}

/** A line of an event's `exception.stacktrace` (by index) whose frame opens a workspace file: `openFrame` with the id. */
export interface FrameLink {
  index: number;
  id: number;
  title: string;
}

export type ToWebview =
  | TraceMessage
  | SpanDetails
  | { type: 'loading'; traceId: string; restore?: TraceRestore }
  | { type: 'select'; row: number }
  | { type: 'failed'; message: string };

export type FromWebview = { type: 'ready' } | { type: 'details'; row: number } | { type: 'openFrame'; id: number };

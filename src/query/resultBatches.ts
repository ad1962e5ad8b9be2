/**
 * A result's rows on their way to the results webview, cut into messages: the first screens (FIRST rows), then
 * batches of up to BATCH rows, from the blocks the query client hands over while the query runs or, once it ended,
 * from the whole result. Plain TypeScript (no `vscode`); resultFeed.ts decides when each message goes.
 */
import type { QueryColumn, ResultRows } from '../api/query';

/** Rows of the first message (a few screens); later messages carry up to BATCH rows each. */
export const FIRST = 500;
export const BATCH = 5000;

/** One result on its way: rows waiting, rows sent, and (once known) all of its rows. */
export interface Feed {
  readonly seq: number;
  columns: QueryColumn[];
  /** Blocks handed over by the query client and not sent yet. */
  pending: unknown[][][];
  /** Rows posted to the webview. */
  sent: number;
  /** Set once the first rows went (the panel open and its page ready). */
  opening?: Promise<void>;
  opened: boolean;
  /** A message of rows is on its way to the webview (until it acknowledges it). */
  inFlight: boolean;
  /** The rows still to go wait for the webview's report of the table painted. */
  untilPainted: boolean;
  /** Once the query ended: the result's rows, the ones after `sent` still to go. */
  rest?: ResultRows;
  aborted: boolean;
}

export function newFeed(seq: number): Feed {
  return {
    seq,
    columns: [],
    pending: [],
    sent: 0,
    opened: false,
    inFlight: false,
    untilPainted: false,
    aborted: false,
  };
}

/** Every row handed over and not sent, in order (the blocks are joined only when there are several). */
export function takePending(f: Feed): unknown[][] {
  const rows = f.pending.length === 1 ? (f.pending[0] as unknown[][]) : f.pending.flat();
  f.pending = [];
  return rows;
}

/** The rows of the next message (at most BATCH), taken from what waits; undefined when nothing does. */
export function nextBatch(f: Feed): unknown[][] | undefined {
  if (f.rest) return f.sent < f.rest.length ? f.rest.slice(f.sent, f.sent + BATCH) : undefined;
  if (f.pending.length === 0) return undefined;
  const waiting = takePending(f);
  if (waiting.length > BATCH) f.pending.push(waiting.slice(BATCH));
  return waiting.slice(0, BATCH);
}

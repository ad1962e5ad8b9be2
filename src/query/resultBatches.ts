/**
 * A result's rows on their way to the results webview, cut into messages: the first screens (FIRST rows), then
 * batches of up to BATCH rows, from the rows the query client has read so far while the query runs or, once it ended,
 * from the whole result. Rows are read (kept as text: parsed) only when their message goes. Plain TypeScript (no
 * `vscode`); resultFeed.ts decides when each message goes.
 */
import type { QueryColumn, ResultRows } from '../api/query';

/** Rows of the first message (more than a tall panel shows); later messages carry up to BATCH rows each. */
export const FIRST = 100;
export const BATCH = 5000;

/** One result on its way: rows waiting, rows sent, and (once known) all of its rows. */
export interface Feed {
  readonly seq: number;
  columns: QueryColumn[];
  /** While the query runs: the rows read so far (they grow), of which `available` are handed over. */
  live?: ResultRows;
  available: number;
  /** Rows posted to the webview. */
  sent: number;
  /** Set once the first rows went (the panel open and its page ready). */
  opening?: Promise<void>;
  /** While the first rows are held (`ResultFeed` `holdMs`): lets them go now. */
  release?: () => void;
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
    available: 0,
    sent: 0,
    opened: false,
    inFlight: false,
    untilPainted: false,
    aborted: false,
  };
}

/** The rows of the next message (at most BATCH) from those handed over or the result's; undefined when none wait. */
export function nextBatch(f: Feed): unknown[][] | undefined {
  const rows = f.rest ?? f.live;
  const end = f.rest ? f.rest.length : f.available;
  return rows && f.sent < end ? rows.slice(f.sent, Math.min(end, f.sent + BATCH)) : undefined;
}

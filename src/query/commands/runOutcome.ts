/** What `observability.runQuery` takes and returns, and the timeline of a run. */
import type { QueryColumn } from '../../api/query';
import type { NoPromptArgs } from '../../commandArgs';
import type { PanelState, ResultTimeline, StatementResult } from '../panel';

/** Arguments of `observability.runQuery` (all optional; keybindings, tests and the CodeLens pass some). */
export interface RunQueryArgs extends NoPromptArgs {
  uri?: string;
  /** Run the statement that contains this line (0-based). */
  line?: number;
  /** Run this SQL instead of the document's. */
  sql?: string;
  /**
   * Deprecated name of `noPrompt` (true: run a statement that is not read-only without asking). `false` declines such
   * a statement without asking.
   */
  confirm?: boolean;
  /** Agree to wake an idle service (`false`: decline without asking). */
  wake?: boolean;
  /** Take "Enable this key on the query endpoint" when the key is not enabled (still confirmed unless `noPrompt`). */
  enableKey?: boolean;
}

export interface RunOutcome {
  ok: boolean;
  declined?: 'target' | 'write' | 'wake' | 'enableKey';
  statements?: number;
  columns?: QueryColumn[];
  rows?: number;
  firstRows?: unknown[][];
  truncated?: 'rows' | 'bytes';
  elapsedMs?: number;
  error?: string;
  reason?: string;
  keyEnabled?: boolean;
  rendered?: PanelState['rendered'];
  renderedMs?: number;
  /** From posting the result (streamed: its last rows and summary) to the panel until it reported the table painted. */
  panelMs?: number;
  /** From the command's start until the panel reported the first rows painted (before the last arrived when streamed). */
  firstPaintMs?: number;
  /** How many rows that first paint showed. */
  firstPaintRows?: number;
  /** From the command's start until the last row was read. */
  receivedMs?: number;
  /** When each stage happened (see `RunTimeline`). */
  timeline?: RunTimeline;
}

/**
 * The stages of a run, epoch milliseconds on the machine's one clock (`performance.timeOrigin + performance.now()`,
 * the same in the extension host and the webview): the command's start, the (last statement's) request sent, its
 * first byte and last row read, and the panel's stages (`ResultTimeline`). The webview's stamps are when it painted.
 */
export interface RunTimeline extends Omit<ResultTimeline, 'seq'> {
  commandStart: number;
  requestSent: number;
  firstByte?: number;
  lastRowRead: number;
}

export function runTimeline(
  commandStart: number,
  lastRowRead: number,
  result: StatementResult['result'],
  panel: ResultTimeline | undefined,
): RunTimeline {
  const { seq: _seq, ...stages } = panel ?? { seq: 0 };
  // The client's times count from the request it sent (once its slot of the rate budget was granted).
  const requestSent = lastRowRead - result.elapsedMs;
  return {
    commandStart,
    requestSent,
    ...(result.firstByteMs > 0 ? { firstByte: requestSent + result.firstByteMs } : {}),
    lastRowRead,
    ...stages,
  };
}

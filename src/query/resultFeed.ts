/**
 * The rows of a result on their way to the results webview. A streamed result's first rows open the panel at once and
 * go when its query has run `holdMs` more (a result read by then is shown whole, in one message: its table is
 * painted once, not first with a partial count, and painting does not compete with the read); the next follow in batches while the query runs, one batch in flight at a time (the webview acknowledges each),
 * so the summary of the ended query (`finish`) is never queued behind a backlog of rows. The rows not yet sent by then,
 * and those after the first screens of a result shown whole (`sendWhole`), wait until the webview reports the table
 * painted: the report's way back is not held up by a batch of rows going the other way.
 *
 * Plain TypeScript (no `vscode`): the panel gives it the way to open the page and post to it.
 */
import type { QueryColumn, ResultRows } from '../api/query';
import type { ResultMeta, ToWebview } from './panelMessages';
import { FIRST, newFeed, nextBatch, type Feed } from './resultBatches';

export { BATCH, FIRST } from './resultBatches';

export interface FeedHost {
  /** Opens the panel (or reuses it) and waits for its page to be ready. */
  open(): Promise<void>;
  post(message: ToWebview): void;
  labels(): Record<string, string>;
  /** Notes when result `seq` reached a stage here (see `ResultTimeline`). */
  stamp?(seq: number, stage: FeedStage): void;
  /** Rows of a shown result could not be read (a line of rows that is not JSON): the rest of them do not go. */
  failed?(error: unknown): void;
  /** How long the first rows wait for the query's end before they go (default `HOLD_MS`; 0: no wait). */
  holdMs?: number;
}

/** How long a streamed result's first rows wait for its query's end (see `FeedHost.holdMs`). */
export const HOLD_MS = 50;

/** The stages of a result the feed sees: its first rows handed over and posted, its summary posted. */
export type FeedStage = 'firstBatch' | 'firstPosted' | 'summaryPosted';

/** Now on the machine's clock (epoch milliseconds), the same clock as the webview's stamps. */
export const clock = (): number => performance.timeOrigin + performance.now();

/** Where a query shows its rows while it runs (see `ResultFeed.stream`). */
export interface ResultStream {
  /** The rows read so far, as the query client hands them over after each block (`RunQueryOptions.onBatch`). */
  readonly onBatch: (rows: ResultRows, columns: readonly QueryColumn[]) => void;
  /** The query failed or was cancelled: the panel shows what it showed before. */
  abort(): void;
}

export interface StreamMeta {
  service: string;
  sql: string;
  maxRows: number;
  maxBytes: number;
}

export class ResultFeed {
  private sequence = 0;
  private current: Feed | undefined;
  private readonly feeds = new WeakMap<ResultStream, Feed>();

  constructor(private readonly host: FeedHost) {}

  /** A stream for the next result: its first rows open the panel (or reuse it) and are painted as they arrive. */
  stream(meta: StreamMeta): ResultStream {
    const f = this.newFeed();
    const stream: ResultStream = {
      onBatch: (rows, columns) => {
        if (f.aborted || f.rest || this.current !== f || rows.length === 0) return;
        f.columns = [...columns];
        f.live = rows;
        f.available = rows.length;
        if (!f.opening) {
          this.host.stamp?.(f.seq, 'firstBatch');
          f.opening = this.open(f, meta);
        } else this.flush(f);
      },
      abort: () => {
        if (f.aborted) return;
        f.aborted = true;
        if (this.current === f) this.current = undefined;
        if (f.opened) this.host.post({ type: 'abort', seq: f.seq });
      },
    };
    this.feeds.set(stream, f);
    return stream;
  }

  /**
   * The feed whose first rows are on screen (after they went), or undefined: the stream is then dropped (and the result
   * is to be shown whole), as it is when its first rows are still held.
   */
  async claim(stream: ResultStream | undefined): Promise<Feed | undefined> {
    const f = stream ? this.feeds.get(stream) : undefined;
    if (!f || this.current !== f || f.aborted || !f.opening || f.release) {
      f?.release?.();
      stream?.abort();
      return undefined;
    }
    await f.opening;
    return f.aborted ? undefined : f;
  }

  /** A streamed result's query ended: its summary now, the rows not yet sent once the table is painted. */
  finish(f: Feed, rows: ResultRows, meta: ResultMeta): void {
    f.live = undefined;
    this.host.post({ type: 'done', seq: f.seq, meta });
    this.host.stamp?.(f.seq, 'summaryPosted');
    f.rest = rows;
    f.untilPainted = true;
  }

  /** A result shown whole: its first screens now, the rest once they are painted. Returns its sequence number. */
  sendWhole(columns: QueryColumn[], rows: ResultRows, meta: ResultMeta): number {
    // Read first: rows that cannot be read leave the feed as it was.
    const rowsJson = JSON.stringify(rows.slice(0, FIRST));
    const f = this.newFeed();
    f.opened = true;
    f.rest = rows;
    f.sent = Math.min(rows.length, FIRST);
    f.untilPainted = true;
    this.host.post({ type: 'result', seq: f.seq, columns, rowsJson, meta, labels: this.host.labels() });
    this.host.stamp?.(f.seq, 'firstPosted');
    this.host.stamp?.(f.seq, 'summaryPosted');
    return f.seq;
  }

  /** The webview painted result `seq`: the rows it still lacks may go. */
  painted(seq: number): void {
    const f = this.current;
    if (!f || f.seq !== seq || !f.untilPainted) return;
    f.untilPainted = false;
    this.flush(f);
  }

  /** The webview took a message of rows of result `seq`. */
  acknowledged(seq: number): void {
    const f = this.current;
    if (!f || f.seq !== seq) return;
    f.inFlight = false;
    this.flush(f);
  }

  /** The panel closed: a result on its way to the closed page is shown whole when its query ends. */
  closed(): void {
    if (this.current) this.current.aborted = true;
    this.current = undefined;
  }

  private newFeed(): Feed {
    const f = newFeed(++this.sequence);
    this.current = f;
    return f;
  }

  /** The first rows of a stream: the panel opens (its page loads while the query goes on), then they go after the hold. */
  private async open(f: Feed, meta: StreamMeta): Promise<void> {
    const ms = this.host.holdMs ?? HOLD_MS;
    const held =
      ms > 0
        ? new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, ms);
            f.release = () => {
              clearTimeout(timer);
              resolve();
            };
          })
        : undefined;
    await Promise.all([this.host.open(), held]);
    f.release = undefined;
    if (f.aborted || !f.live) return;
    let first: unknown[][];
    try {
      first = f.live.slice(0, FIRST);
    } catch {
      // Rows that cannot be read: the result is shown whole when the query ends, and says why there.
      f.aborted = true;
      return;
    }
    const rowsJson = JSON.stringify(first);
    const streaming = { ...meta, rowCount: f.available, streaming: true as const };
    this.host.post({
      type: 'result',
      seq: f.seq,
      columns: f.columns,
      rowsJson,
      meta: streaming,
      labels: this.host.labels(),
    });
    this.host.stamp?.(f.seq, 'firstPosted');
    f.sent = first.length;
    f.opened = true;
    f.inFlight = true;
  }

  /** The next batch of rows, unless one is on its way already (its acknowledgement flushes again). */
  private flush(f: Feed): void {
    if (f.aborted || !f.opened || f.inFlight || f.untilPainted || this.current !== f) return;
    let rows: unknown[][] | undefined;
    try {
      rows = nextBatch(f);
    } catch (error) {
      // The rows from here on cannot be read: those shown stay, the rest show as missing. Said once the query ended.
      f.aborted = true;
      if (f.rest) this.host.failed?.(error);
      return;
    }
    if (!rows) {
      // Every row of the result went: the feed is done.
      if (f.rest) this.current = undefined;
      return;
    }
    this.host.post({ type: 'rows', seq: f.seq, from: f.sent, rowsJson: JSON.stringify(rows) });
    f.sent += rows.length;
    f.inFlight = true;
  }
}

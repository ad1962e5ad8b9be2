/**
 * The rows of a result on their way to the results webview. A streamed result's first rows open the panel and go at
 * once; the next follow in batches while the query runs, one batch in flight at a time (the webview acknowledges each),
 * so the summary of the ended query (`finish`) is never queued behind a backlog of rows. The rows not yet sent by then,
 * and those after the first screens of a result shown whole (`sendWhole`), wait until the webview reports the table
 * painted: the report's way back is not held up by a batch of rows going the other way.
 *
 * Plain TypeScript (no `vscode`): the panel gives it the way to open the page and post to it.
 */
import type { QueryColumn, ResultRows } from '../api/query';
import type { ResultMeta, ToWebview } from './panelMessages';
import { FIRST, newFeed, nextBatch, takePending, type Feed } from './resultBatches';

export { BATCH, FIRST } from './resultBatches';

export interface FeedHost {
  /** Opens the panel (or reuses it) and waits for its page to be ready. */
  open(): Promise<void>;
  post(message: ToWebview): void;
  labels(): Record<string, string>;
  /** Notes when result `seq` reached a stage here (see `ResultTimeline`). */
  stamp?(seq: number, stage: FeedStage): void;
}

/** The stages of a result the feed sees: its first rows handed over and posted, its summary posted. */
export type FeedStage = 'firstBatch' | 'firstPosted' | 'summaryPosted';

/** Now on the machine's clock (epoch milliseconds), the same clock as the webview's stamps. */
export const clock = (): number => performance.timeOrigin + performance.now();

/** Where a query shows its rows while it runs (see `ResultFeed.stream`). */
export interface ResultStream {
  /** The rows of a block of the body, as the query client hands them over (`RunQueryOptions.onBatch`). */
  readonly onBatch: (rows: unknown[][], columns: readonly QueryColumn[]) => void;
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
        f.pending.push(rows);
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

  /** The feed whose first rows are on screen (after they went), or undefined (the stream is then dropped). */
  async claim(stream: ResultStream | undefined): Promise<Feed | undefined> {
    const f = stream ? this.feeds.get(stream) : undefined;
    if (!f || this.current !== f || f.aborted || !f.opening) {
      stream?.abort();
      return undefined;
    }
    await f.opening;
    return f.aborted ? undefined : f;
  }

  /** A streamed result's query ended: its summary now, the rows not yet sent once the table is painted. */
  finish(f: Feed, rows: ResultRows, meta: ResultMeta): void {
    f.pending = [];
    this.host.post({ type: 'done', seq: f.seq, meta });
    this.host.stamp?.(f.seq, 'summaryPosted');
    f.rest = rows;
    f.untilPainted = true;
  }

  /** A result shown whole: its first screens now, the rest once they are painted. Returns its sequence number. */
  sendWhole(columns: QueryColumn[], rows: ResultRows, meta: ResultMeta): number {
    const f = this.newFeed();
    f.opened = true;
    f.rest = rows;
    f.sent = Math.min(rows.length, FIRST);
    f.untilPainted = true;
    const rowsJson = JSON.stringify(rows.slice(0, FIRST));
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

  /** The first rows of a stream: the panel opens (its page loads while the query goes on), then they go at once. */
  private async open(f: Feed, meta: StreamMeta): Promise<void> {
    await this.host.open();
    if (f.aborted) return;
    const rows = takePending(f);
    const first = rows.slice(0, FIRST);
    const rowsJson = JSON.stringify(first);
    const streaming = { ...meta, rowCount: rows.length, streaming: true as const };
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
    if (rows.length > FIRST) f.pending.unshift(rows.slice(FIRST));
  }

  /** The next batch of rows, unless one is on its way already (its acknowledgement flushes again). */
  private flush(f: Feed): void {
    if (f.aborted || !f.opened || f.inFlight || f.untilPainted || this.current !== f) return;
    const rows = nextBatch(f);
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

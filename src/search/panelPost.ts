/**
 * How the search panel posts its view to the page (no `vscode`): the first screen of rows with the histogram at once,
 * the other rows once the page reports that screen painted, so the first message is small and nothing queues before
 * it; and the timing of a search's stages on one clock (epoch ms in the extension host and the page).
 */
import type { SearchTiming, SearchView, ToPage } from './protocol';

/** Rows posted with the view: more than a screen (the page draws the rows in view and 20 around them). */
export const FIRST_ROWS = 100;

/** Epoch ms, the clock the page's timings use too (the same machine). */
export const clock = (): number => performance.timeOrigin + performance.now();

/** What the page reports once a frame showing its view is painted. */
export interface PaintReport {
  seq?: number | undefined;
  rows: number;
  receivedAt?: number | undefined;
  drawnAt?: number | undefined;
  paintedAt?: number | undefined;
}

export class ViewPost {
  /** The stages of the last search's drawing (the bench reads them). */
  timing: SearchTiming | undefined;
  private seq = 0;
  /** The rows of the last view not yet posted: from this index of the panel's rows, once its first screen is painted. */
  private rest: { seq: number; from: number } | undefined;

  constructor(private readonly post: (m: ToPage) => void) {}

  /** A new search: nothing of the last one is timed or still to post. */
  reset(): void {
    this.timing = undefined;
    this.rest = undefined;
  }

  /**
   * Posts `view` (whose rows may hold only the first of its `rowCount` rows): its first screen of rows now, the rest
   * once painted. A search's post (`responseAt`: its last response read) starts the timing.
   */
  send(view: SearchView, rowCount: number, responseAt?: number): void {
    const seq = ++this.seq;
    const first = view.rows.length > FIRST_ROWS ? view.rows.slice(0, FIRST_ROWS) : view.rows;
    this.rest = rowCount > first.length ? { seq, from: first.length } : undefined;
    this.post({ type: 'view', view: { ...view, rows: first }, seq, rowCount });
    if (responseAt !== undefined) this.timing = { seq, responseAt, postedAt: clock() };
  }

  /** Rows put before the panel's rows (a live tail's): the rows still to post start that much later. */
  prepended(count: number): void {
    if (this.rest) this.rest.from += count;
  }

  /**
   * The page's report of a paint: completes the timing, posts the rest of the rows when it painted the first screen;
   * answers whether the page now shows every one of `rows` (the panel's) of the last view posted.
   */
  painted(m: PaintReport, rows: readonly string[][]): boolean {
    const seq = Number(m.seq);
    const t = this.timing;
    if (t && seq >= t.seq && t.reportedAt === undefined) {
      this.timing = { ...t, receivedAt: m.receivedAt, drawnAt: m.drawnAt, paintedAt: m.paintedAt, reportedAt: clock() };
    } else if (t?.restPostedAt !== undefined && t.allPaintedAt === undefined && !this.rest && m.rows >= rows.length) {
      this.timing = { ...t, allPaintedAt: m.paintedAt };
    }
    if (this.rest && seq === this.rest.seq) {
      this.post({ type: 'rows', seq, rows: rows.slice(this.rest.from) });
      this.rest = undefined;
      if (this.timing) this.timing = { ...this.timing, restPostedAt: clock() };
      return false;
    }
    return seq === this.seq && !this.rest && m.rows >= rows.length;
  }
}

/**
 * Live tail: every few seconds, while the page is not paused (scrolled away from the newest rows, or a row's details
 * open), the search runs again with the range's end moved to now: the rows since the last run are prepended and the
 * histogram is drawn over the moved range. Its statements go through the same SQL route as the search (on the Cloud,
 * the key's one rate limiter), one run at a time; a run that fails stops nothing but is tried again on the next tick.
 */
import type { QueryResult } from '../api/query';
import { runHistogram, runSearch, type SearchModel, type SearchRequest } from './model';

/** Seconds between tail runs: two statements each, well inside a key's budget of 10 requests per 10 s. */
export const TAIL_INTERVAL_MS = 5_000;
/** Rows the panel keeps (the oldest are dropped as new ones arrive). */
export const MAX_ROWS = 100_000;

export interface TailDeps {
  request(): SearchRequest;
  run(sql: string): Promise<QueryResult>;
  onRows(model: SearchModel, range: { from: number; to: number }): void;
  now?: () => number;
}

export class LiveTail {
  paused = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private running = false;
  private lastTo = 0;
  /** Bumped by a new search (reset) and by stop: a run started before either delivers nothing. */
  private generation = 0;
  /** Rows at the newest end seen so far (both ends of a range are included: the boundary's rows come again). */
  private seen = new Set<string>();

  constructor(private readonly deps: TailDeps) {}

  reset(rows: readonly unknown[][], to: number): void {
    this.generation++;
    this.lastTo = to;
    this.seen = new Set(rows.slice(0, 500).map((r) => JSON.stringify(r)));
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), TAIL_INTERVAL_MS);
  }

  stop(): void {
    this.generation++;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  get active(): boolean {
    return this.timer !== undefined;
  }

  /** One run (tests and the timer): nothing while paused or while the previous run is in flight. */
  async tick(): Promise<boolean> {
    if (this.paused || this.running) return false;
    this.running = true;
    const generation = this.generation;
    try {
      const req = this.deps.request();
      const now = (this.deps.now ?? Date.now)();
      const span = req.range.to - req.range.from;
      const range = { from: now - span, to: now };
      const model = await runSearch(this.deps.run, { ...req, range: { from: this.lastTo, to: now } }, false);
      const histogram = await runHistogram(this.deps.run, { ...req, range });
      // A new search or a stop while this run was in flight: its range and rows are no longer the panel's.
      if (generation !== this.generation) return false;
      const fresh = model.raw.filter((r) => !this.seen.has(JSON.stringify(r)));
      for (const r of fresh.slice(0, 500)) this.seen.add(JSON.stringify(r));
      this.lastTo = now;
      this.deps.onRows({ ...model, raw: fresh, histogram }, range);
      return true;
    } catch {
      return false;
    } finally {
      this.running = false;
    }
  }
}

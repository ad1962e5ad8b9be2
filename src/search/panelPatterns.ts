/**
 * The Patterns tab of a search panel: computed when the tab is shown (one sample statement per search, kept until the
 * next search), posted to the page; a search that changes while it runs drops its answer. Rows appended by the live
 * tail make the patterns stale: mined again (over the moved range) when the tab shows — at most every
 * `PATTERNS_TAIL_MS`, one run at a time, the old patterns shown meanwhile — and not at all while it is hidden (then
 * when it is shown).
 */
import { errorMessage } from '../errors';
import { PATTERN_SAMPLES } from '../render/tile';
import { runPatterns } from './patterns';
import type { PatternsView, ToPage } from './protocol';
import type { Run, SearchRequest } from './request';
import { boundedText } from './text';

export interface PatternsDeps {
  request(): SearchRequest;
  run(sql: string, maxRows: number): ReturnType<Run>;
  /** The search's count (its histogram's total), which the counts are scaled to. */
  total(): number | undefined;
  post(m: ToPage): void;
  now?: () => number;
}

/** While the live tail appends rows, the patterns shown are mined again at most this often (one statement each). */
export const PATTERNS_TAIL_MS = 15_000;

export class PanelPatterns {
  tab: 'events' | 'patterns' = 'events';
  view: PatternsView | undefined;
  private seq = 0;
  private pending: Promise<void> = Promise.resolve();
  /** The live tail appended rows the patterns shown do not include. */
  private stale = false;
  /** The run in flight (its `seq`), and when the last one started. */
  private inFlight: number | undefined;
  private lastRun = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: PatternsDeps) {}

  /** A new search was drawn (`ok` false: it failed): its patterns replace the old ones when the tab shows. */
  searched(ok: boolean): Promise<void> {
    this.seq++;
    this.stale = false;
    this.view = ok ? undefined : { loading: false, rows: [], sampled: 0 };
    return this.tab === 'patterns' && ok ? this.compute() : Promise.resolve();
  }

  /** The page switched tabs. */
  show(tab: 'events' | 'patterns'): Promise<void> {
    this.tab = tab === 'patterns' ? 'patterns' : 'events';
    if (this.tab !== 'patterns') return Promise.resolve();
    if (this.view) {
      this.deps.post({ type: 'patterns', patterns: this.view });
      return this.stale && this.inFlight === undefined ? this.compute(true) : this.pending;
    }
    return this.compute();
  }

  /** The live tail appended `count` rows (and moved the range): the patterns shown are mined again, bounded. */
  appended(count: number): Promise<void> {
    if (count > 0 && this.view) this.stale = true;
    if (!this.stale || this.tab !== 'patterns' || this.inFlight !== undefined) return Promise.resolve();
    if (this.now() - this.lastRun < PATTERNS_TAIL_MS) return Promise.resolve();
    return this.compute(true);
  }

  /** Resolves once the patterns in flight (if any) are drawn. */
  settled(): Promise<void> {
    return this.pending;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Mines the patterns; `quiet`: the patterns shown stay until the new ones come (a refresh for the live tail). */
  private compute(quiet = false): Promise<void> {
    const seq = ++this.seq;
    this.stale = false;
    this.inFlight = seq;
    this.lastRun = this.now();
    if (!quiet || !this.view) {
      this.view = { loading: true, rows: [], sampled: 0 };
      this.deps.post({ type: 'patterns', patterns: this.view });
    }
    this.pending = (async () => {
      let view: PatternsView;
      try {
        view = await runPatterns((sql) => this.deps.run(sql, PATTERN_SAMPLES), this.deps.request(), this.deps.total());
      } catch (error) {
        view = {
          loading: false,
          error: `Patterns failed: ${boundedText(errorMessage(error), 2000)}`,
          rows: [],
          sampled: 0,
        };
      }
      if (this.inFlight === seq) this.inFlight = undefined;
      if (seq !== this.seq) return;
      this.view = view;
      this.deps.post({ type: 'patterns', patterns: view });
    })();
    return this.pending;
  }
}

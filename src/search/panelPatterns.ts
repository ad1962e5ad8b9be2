/**
 * The Patterns tab of a search panel: computed when the tab is shown (one sample statement per search, kept until the
 * next search), posted to the page; a search that changes while it runs drops its answer.
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
}

export class PanelPatterns {
  tab: 'events' | 'patterns' = 'events';
  view: PatternsView | undefined;
  private seq = 0;
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly deps: PatternsDeps) {}

  /** A new search was drawn (`ok` false: it failed): its patterns replace the old ones when the tab shows. */
  searched(ok: boolean): Promise<void> {
    this.seq++;
    this.view = ok ? undefined : { loading: false, rows: [], sampled: 0 };
    return this.tab === 'patterns' && ok ? this.compute() : Promise.resolve();
  }

  /** The page switched tabs. */
  show(tab: 'events' | 'patterns'): Promise<void> {
    this.tab = tab === 'patterns' ? 'patterns' : 'events';
    if (this.tab !== 'patterns') return Promise.resolve();
    if (this.view) {
      this.deps.post({ type: 'patterns', patterns: this.view });
      return this.pending;
    }
    return this.compute();
  }

  /** Resolves once the patterns in flight (if any) are drawn. */
  settled(): Promise<void> {
    return this.pending;
  }

  private compute(): Promise<void> {
    const seq = ++this.seq;
    this.view = { loading: true, rows: [], sampled: 0 };
    this.deps.post({ type: 'patterns', patterns: this.view });
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
      if (seq !== this.seq) return;
      this.view = view;
      this.deps.post({ type: 'patterns', patterns: view });
    })();
    return this.pending;
  }
}

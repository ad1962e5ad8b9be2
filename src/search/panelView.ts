/** What the search panel draws (no `vscode`): the view before a search, once its model came, and once it failed. */
import type { QueryResult } from '../api/query';
import type { CompletionCache } from './completion';
import { boundedText, CELL_CHARS, type SearchModel, type SearchRequest } from './model';
import { PRESETS, type PatternsView, type SearchTiming, type SearchView } from './protocol';

export interface PanelTarget {
  connectionId: string;
  serviceId: string;
  title: string;
  request: SearchRequest;
  preset: string;
  /** Runs SQL on the service (at most `maxRows` rows: the search's by default). */
  run(sql: string, maxRows?: number): Promise<QueryResult>;
  /** Opens a trace; `time` is the time of the row it was opened from (its trace is read around it). */
  openTrace(traceId: string, time?: unknown, spanId?: string): void;
  /** A panel VS Code restored after a window reload, to draw the search in (else a new one is opened). */
  restored?: import('vscode').WebviewPanel;
  completion: CompletionCache;
  /** The tab shown first. */
  tab?: 'events' | 'patterns' | undefined;
}

/** What the panel last drew (the command answers it; tests read it). */
export interface SearchPanelState {
  view: SearchView;
  model?: SearchModel | undefined;
  /** What the page reported painted. */
  rendered?: { rows: number; bars: number; total: number } | undefined;
  /** The Patterns tab, once computed (while it is the tab shown). */
  patterns?: PatternsView | undefined;
  /** When the search's stages happened, from its last response to the page's report (the bench reads it). */
  timing?: SearchTiming | undefined;
}

/** The view before the first search of a panel. */
export function emptyView(title: string, preset: string, r: SearchRequest): SearchView {
  const fields = Object.keys(r.columns ?? {});
  const empty = { buckets: [], groups: [], counts: [], total: 0, bucketMs: 60_000 };
  return {
    title,
    condition: r.condition,
    language: r.language,
    range: r.range,
    preset,
    columns: [],
    fields,
    rows: [],
    traceIdColumn: -1,
    histogram: empty,
    tail: false,
    loading: true,
    notes: [],
  };
}

/** The view of a search that came back. */
export function loadedView(view: SearchView, model: SearchModel): SearchView {
  return {
    ...view,
    loading: false,
    error: undefined,
    columns: model.columns,
    rows: model.raw.map(cells),
    traceIdColumn: model.traceIdColumn,
    spanIdColumn: model.spanIdColumn,
    histogram: model.histogram,
    notes: model.notes,
  };
}

/** The view of a search that failed (its message cut). */
export function failedView(view: SearchView, message: string): SearchView {
  return {
    ...view,
    loading: false,
    error: `Search failed: ${boundedText(message, 2000)}`,
    columns: [],
    rows: [],
    traceIdColumn: -1,
    histogram: { ...view.histogram, buckets: [], groups: [], counts: [], total: 0 },
  };
}

/** A row's cells as the rows list shows them. */
export function cells(row: readonly unknown[]): string[] {
  return row.map((v) => boundedText(v, CELL_CHARS));
}

/** The request a page's Search asks for (condition, language, preset or custom range); answers the preset ('' custom). */
export function applySearchMessage(
  req: SearchRequest,
  m: { condition?: unknown; language?: unknown; preset?: unknown; from?: unknown; to?: unknown },
  now: number,
): string {
  req.condition = String(m.condition ?? '');
  req.language = m.language === 'sql' ? 'sql' : 'lucene';
  const preset = PRESETS.find((p) => p.id === m.preset);
  if (preset) req.range = { from: now - preset.ms, to: now };
  else if (Number.isFinite(m.from) && Number.isFinite(m.to) && Number(m.from) < Number(m.to)) {
    req.range = { from: Number(m.from), to: Number(m.to) };
  }
  return preset ? preset.id : '';
}

/** The view while a search runs (what it asks shown at once). */
export function searchingView(
  view: SearchView,
  req: SearchRequest,
  preset: string,
  tab: SearchView['tab'],
): SearchView {
  const { condition, language, range } = req;
  return { ...view, loading: true, condition, language, range, preset, tab };
}

/** The view once a live tail's new rows came (newest first, the oldest dropped beyond `max`). */
export function prependedView(
  view: SearchView,
  rows: string[][],
  histogram: SearchView['histogram'],
  range: { from: number; to: number },
  max: number,
): SearchView {
  return { ...view, range, rows: [...rows, ...view.rows].slice(0, max), histogram };
}

/** What the page reported painted, and the callers waiting for it. */
export class Drawn {
  rendered: SearchPanelState['rendered'];
  timing: SearchTiming | undefined;
  private readonly waiters: (() => void)[] = [];

  /** Resolves once the page drew (or after a while: a hidden or unresponsive page must not hold the command). */
  wait(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiters.push(resolve);
      setTimeout(resolve, 20_000);
    });
  }

  release(): void {
    this.waiters.splice(0).forEach((w) => w());
  }
}

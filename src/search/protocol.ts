/** Messages between the search panel and its page (no `vscode`, no DOM): the page reads them as untrusted data. */

export interface SearchView {
  title: string;
  condition: string;
  language: 'lucene' | 'sql';
  range: { from: number; to: number };
  /** The preset the range follows (`15m`, `1h`…), or '' for a custom range. */
  preset: string;
  columns: string[];
  /** Field names offered while typing the condition (the table's columns). */
  fields: string[];
  /** Cells as bounded, sanitised text. */
  rows: string[][];
  traceIdColumn: number;
  /** The span ID column: its cells open the trace with that span selected. */
  spanIdColumn?: number;
  histogram: {
    buckets: number[];
    groups: string[];
    counts: number[][];
    total: number;
    bucketMs: number;
  };
  tail: boolean;
  loading: boolean;
  error?: string | undefined;
  notes: string[];
  /** The tab shown: the events, or their patterns. */
  tab?: 'events' | 'patterns' | undefined;
}

/** The Patterns tab: the events of the search grouped by pattern (HyperDX's event patterns). */
export interface PatternsView {
  loading: boolean;
  error?: string | undefined;
  /** Patterns, most events first: text, count as shown ("~12"), level, one event of it (all bounded text). */
  rows: { pattern: string; count: number; countText: string; level?: string | undefined; sample: string }[];
  /** Rows mined, and the total the counts are scaled to. */
  sampled: number;
  total?: number | undefined;
  note?: string | undefined;
}

/** When each stage of drawing a search happened, in epoch ms (`performance.timeOrigin + performance.now()`). */
export interface SearchTiming {
  /** The view's number as posted (the page reports it). */
  seq: number;
  /** The extension host: the search's last response read (its model built). */
  responseAt: number;
  /** The extension host: the view posted to the page. */
  postedAt: number;
  /** The page: the view received. */
  receivedAt?: number | undefined;
  /** The page: the frame that shows the rows and histogram painted (absent when the page painted no frame). */
  paintedAt?: number | undefined;
  /** The extension host: the page's report received. */
  reportedAt?: number | undefined;
  /** The extension host: the rows after the first screen posted; the page: the frame with all of them painted. */
  restPostedAt?: number | undefined;
  allPaintedAt?: number | undefined;
}

export type ToPage =
  | { type: 'view'; view: SearchView; seq?: number }
  | { type: 'prepend'; rows: string[][]; histogram: SearchView['histogram']; range: { from: number; to: number } }
  | {
      type: 'details';
      index: number;
      fields: {
        name: string;
        value: string;
        more?: number | undefined;
        trace?: boolean;
        /** A span ID (the source's span or parent span ID) of a row with a trace ID: "Open span" opens it there. */
        span?: boolean;
        /** Lines of the value (by index) that are stack-trace frames opening a workspace file: `openFrame` with the id. */
        links?: { index: number; id: number; title: string }[];
      }[];
    }
  | { type: 'loading' }
  | { type: 'patterns'; patterns: PatternsView }
  /** Map keys of the recent data, for completion ([map column, key]). */
  | { type: 'mapKeys'; keys: [string, string][] }
  /** Values of a field in the recent data, for completion. */
  | { type: 'values'; field: string; values: string[] }
  /** What the page keeps in its webview state: the search opens again after a window reload. */
  | { type: 'state'; state: SearchRestore };

export type FromPage =
  | { type: 'ready' }
  | { type: 'search'; condition: string; language: 'lucene' | 'sql'; preset: string; from?: number; to?: number }
  | { type: 'tail'; on: boolean }
  | { type: 'paused'; paused: boolean }
  | { type: 'details'; index: number }
  | { type: 'openTrace'; index: number; field?: number; span?: boolean }
  | { type: 'copy'; index: number; field: number }
  | { type: 'addToSearch'; index: number; field: number; negate: boolean }
  | { type: 'showColumn'; index: number; field: number }
  | {
      type: 'rendered';
      rows: number;
      bars: number;
      total: number;
      /** The view's `seq` drawn, and when it was received and its frame painted (epoch ms, the page's clock). */
      seq?: number;
      receivedAt?: number;
      paintedAt?: number;
    }
  | { type: 'tab'; tab: 'events' | 'patterns' }
  | { type: 'saveAs' }
  | { type: 'values'; field: string }
  | { type: 'openFrame'; id: number };

export const PRESETS: readonly { id: string; label: string; ms: number }[] = [
  { id: '15m', label: 'Last 15 minutes', ms: 15 * 60_000 },
  { id: '1h', label: 'Last hour', ms: 60 * 60_000 },
  { id: '6h', label: 'Last 6 hours', ms: 6 * 60 * 60_000 },
  { id: '24h', label: 'Last 24 hours', ms: 24 * 60 * 60_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 24 * 60 * 60_000 },
];

/** What the page keeps in its webview state, so the search opens again after a window reload. */
export interface SearchRestore {
  connectionId: string;
  serviceId: string;
  sourceId: string;
  condition: string;
  language: 'lucene' | 'sql';
  select?: string | undefined;
  /** A preset (`15m`, `1h`…) follows the clock; '' keeps `range`. */
  preset: string;
  range: { from: number; to: number };
}

/**
 * Messages between the preview and backtest panels (extension host) and their webview (dist/preview.js). Shared by
 * both sides; imports nothing from `vscode` and nothing from the DOM. Times are milliseconds since the Unix epoch.
 */

/** How an alert compares its value with the threshold. */
export type ThresholdType = 'above' | 'below' | 'between' | 'not_between';

export interface Threshold {
  type: ThresholdType;
  value: number;
  /** Upper bound of `between` / `not_between`. */
  max?: number;
}

/** A window that would have fired: [start, end) in ms. */
export interface FiredWindow {
  start: number;
  end: number;
  /** The value the window evaluated to. */
  value?: number | null;
}

export type AlertState = 'OK' | 'ALERT';

export interface Transition {
  time: number;
  from: AlertState;
  to: AlertState;
  value?: number | null;
  /** The series (group, "col:value, …") that changed state; omitted for an alert without groups. */
  series?: string;
  /**
   * What decided a change to ALERT, in words: the comparison and, with consecutive windows, the windows that crossed
   * (e.g. "12 is at least 10 in 3 consecutive windows (14:05–14:20)").
   */
  rule?: string;
  /** The ends of the windows whose crossings decided a change to ALERT (the last is this one). */
  windows?: number[];
}

/** The alert's rule, shown beside the fired count. */
export interface AlertRule {
  /** The scheduler's threshold type (above, below, above_exclusive, below_or_equal, equal, not_equal, between, …). */
  thresholdType: string;
  threshold: number;
  thresholdMax?: number;
  /** Evaluation interval ("5m", …). */
  interval: string;
  /** Windows in a row that must cross before it fires (1: every crossing fires). */
  numConsecutiveWindows: number;
  /** The rule in words, e.g. "value is at least 10 in 2 consecutive 5m windows". */
  text: string;
}

export interface Series {
  name: string;
  /** One value per entry of `times`; null where the bucket has no value (drawn as a gap). */
  values: (number | null)[];
}

/** The number formats of ClickStack tiles (`numberFormat`); the preview applies the simple ones. */
export interface NumberFormat {
  output?: string;
  mantissa?: number;
  thousandSeparated?: boolean;
  average?: boolean;
  decimalBytes?: boolean;
  factor?: number;
  currencySymbol?: string;
  unit?: string;
  [key: string]: unknown;
}

interface Titled {
  /** Tile or alert name shown above the content. */
  title?: string;
  /** A line of context under the title (source, granularity, …). */
  subtitle?: string;
}

export interface TimeseriesData extends Titled {
  kind: 'timeseries';
  /** How the series are drawn (default `line`). */
  display?: 'line' | 'stacked_bar';
  times: number[];
  series: Series[];
  numberFormat?: NumberFormat;
  threshold?: Threshold;
  firedWindows?: FiredWindow[];
  transitions?: Transition[];
  /** A backtest's rule (threshold, windows, consecutive count). */
  rule?: AlertRule;
}

export interface NumberData extends Titled {
  kind: 'number';
  value: number | null;
  numberFormat?: NumberFormat;
}

export interface TableColumn {
  name: string;
  type?: string;
}

export interface TableData extends Titled {
  kind: 'table';
  columns: TableColumn[];
  rows: unknown[][];
}

export interface LogLine {
  time: number | string;
  severity?: string;
  service?: string;
  body: string;
}

export interface SearchData extends Titled {
  kind: 'search';
  lines: LogLine[];
}

export interface MarkdownData extends Titled {
  kind: 'markdown';
  text: string;
}

/** A tile the preview cannot draw yet, and exactly why (e.g. "formulas are not previewed yet"). */
export interface UnsupportedData extends Titled {
  kind: 'unsupported';
  reason: string;
}

/** A failure while fetching the data (already sanitised: operation, status, server message, request ID). */
export interface ErrorData extends Titled {
  kind: 'error';
  message: string;
}

/** A heatmap cell: how many rows fell in one time bucket and one value bucket. */
export interface HeatmapCell {
  /** Start of the time bucket. */
  time: number;
  /** Value bucket: 1…buckets between the bounds, 0 below the lower bound, buckets + 1 at or above the upper one. */
  bucket: number;
  /** Lower and upper edge of the value bucket (bucket 0 has no lower edge, the last one no upper edge). */
  from: number | null;
  to: number | null;
  count: number;
}

/** A heatmap tile: counts per time bucket × value bucket (HyperDX's heatmap). */
export interface HeatmapData extends Titled {
  kind: 'heatmap';
  scale: 'log' | 'linear';
  /** Starts of the time buckets drawn (the whole range), and their size. */
  times: number[];
  stepMs: number;
  /** Value bounds and the number of value buckets between them. */
  lo: number;
  hi: number;
  buckets: number;
  /** Cells with a count (others are empty), by time then bucket. */
  cells: HeatmapCell[];
  numberFormat?: NumberFormat;
}

/** A pattern of an event pattern tile: HyperDX's pattern table row. */
export interface PatternRow {
  pattern: string;
  count: number;
  /** The count as HyperDX shows it ("~12"). */
  countText: string;
  /** Severity (logs) or status code (traces) of the pattern's last row. */
  level?: string;
  /** Count per trend bucket (`PatternsData.times`), scaled as the count. */
  trend: number[];
}

/** An event pattern tile: log patterns mined as HyperDX mines them, most frequent first. */
export interface PatternsData extends Titled {
  kind: 'patterns';
  /** Starts of the trend buckets and their size. */
  times: number[];
  stepMs: number;
  patterns: PatternRow[];
  /** Rows mined, and the total count the counts are scaled to (absent: unknown, counts are the sample's). */
  sampled: number;
  total?: number;
}

/** Data of a tile that is still on its way. */
export interface LoadingData extends Titled {
  kind: 'loading';
}

export type TileData =
  | TimeseriesData
  | NumberData
  | TableData
  | SearchData
  | MarkdownData
  | UnsupportedData
  | ErrorData
  | LoadingData
  | HeatmapData
  | PatternsData;

/** A tile of a dashboard, placed on the dashboard's grid (24 columns, as ClickStack lays dashboards out). */
export interface DashboardTile {
  id: string;
  name?: string;
  x: number;
  y: number;
  w: number;
  h: number;
  data: TileData;
}

export interface DashboardData extends Titled {
  kind: 'dashboard';
  tiles: DashboardTile[];
}

export type PreviewData = TileData | DashboardData;

export type RangePreset = '15m' | '1h' | '6h' | '24h' | '7d';

/** The time range a panel shows: a preset relative to now, or a fixed custom range. */
export type TimeRange = { preset: RangePreset } | { preset: 'custom'; from: number; to: number };

export const RANGE_PRESETS: readonly RangePreset[] = ['15m', '1h', '6h', '24h', '7d'];

export const PRESET_MS: Readonly<Record<RangePreset, number>> = {
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 24 * 3_600_000,
};

/** The absolute [from, to] of a range at `now`. */
export function resolveRange(range: TimeRange, now: number): { from: number; to: number } {
  return range.preset === 'custom'
    ? { from: range.from, to: range.to }
    : { from: now - PRESET_MS[range.preset], to: now };
}

/** Which panel the webview is: a tile/dashboard preview, or an alert backtest (transitions table, fired count). */
export type PanelMode = 'preview' | 'backtest';

/** Host → webview: data to draw. `dataJson` is `JSON.stringify(PreviewData)` (one string crosses faster). */
export interface ShowMessage {
  type: 'show';
  seq: number;
  mode: PanelMode;
  range: TimeRange;
  /** Ranges the picker offers (a backtest offers 24 h, 7 d and custom). */
  presets: RangePreset[];
  dataJson: string;
  labels: Record<string, string>;
  /** Tiles whose events can be searched (Search Events), by ID ('' for a single tile). */
  searchable?: string[];
  /** What the panel shows, kept in the webview's state so the panel comes back after a window reload. */
  restore?: RestoreTarget;
}

/** What a panel shows, by reference (never the data): enough to fetch and draw it again after a reload. */
export type RestoreTarget =
  { kind: 'tile'; args: RestoreArgs } | { kind: 'dashboard'; args: RestoreArgs } | { kind: 'alert'; args: RestoreArgs };

/** Arguments of the command that drew the panel: a document's URI, or the connection, service and IDs. */
export type RestoreArgs = Record<string, string>;

/** The webview's saved state (vscode.setState): the range, the scroll position and what it shows. */
export interface WebviewState {
  range?: TimeRange;
  scrollTop?: number;
  restore?: RestoreTarget;
}

export type ToWebview = ShowMessage;

/** What the webview drew, for the host (tests and the bench read it). */
export interface RenderedSummary {
  kind: string;
  /** Rendered text of the title and the body (closed data tables show only their summary), whitespace collapsed, at most 4,000 chars. */
  text: string;
  /** Canvas charts drawn. */
  charts: number;
  /** Series drawn over all charts. */
  series: number;
  /** Points drawn over all charts. */
  points: number;
  /** Data tables offered for screen readers (one per chart). */
  dataTables: number;
  /** Fired windows and transitions marked. */
  firedWindows: number;
  transitions: number;
  /** Threshold drawn: 'line' (above/below), 'band' (between/not_between) or 'none'. */
  threshold: 'line' | 'band' | 'none';
  /** Tiles of a dashboard and their grid placement (CSS grid-area). */
  tiles: { id: string; kind: string; area: string }[];
  /** Theme kind of the body when drawn (vscode-light, vscode-dark, vscode-high-contrast, vscode-high-contrast-light). */
  theme: string;
  /** The colour the first series was drawn with (resolved from the theme). */
  firstSeriesColor: string;
  /** Search Events buttons shown (the panel's own and the dashboard tiles'). */
  searches?: number;
}

/** Webview → host. */
export type FromWebview =
  | { type: 'ready' }
  | {
      type: 'rendered';
      seq: number;
      ms: number;
      parseMs: number;
      drawMs: number;
      canvasMs: number;
      summary: RenderedSummary;
    }
  | { type: 'range'; range: TimeRange }
  | { type: 'refresh' }
  | { type: 'openTable'; tileId?: string }
  | { type: 'copy'; tileId?: string }
  | { type: 'search'; tileId?: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const optionalTile = (v: unknown): { tileId?: string } | undefined =>
  v === undefined ? {} : typeof v === 'string' && v.length <= 200 ? { tileId: v } : undefined;

/** A time range from a message, or undefined when it is not one (custom ranges need from < to). */
export function parseRange(v: unknown): TimeRange | undefined {
  if (!isObject(v)) return undefined;
  if (v.preset === 'custom') {
    return finite(v.from) && finite(v.to) && v.from < v.to ? { preset: 'custom', from: v.from, to: v.to } : undefined;
  }
  return typeof v.preset === 'string' && (RANGE_PRESETS as readonly string[]).includes(v.preset)
    ? { preset: v.preset as RangePreset }
    : undefined;
}

/** Checks a message from the webview; anything malformed is dropped (undefined). */
export function parseFromWebview(m: unknown): FromWebview | undefined {
  if (!isObject(m)) return undefined;
  switch (m.type) {
    case 'ready':
    case 'refresh':
      return { type: m.type };
    case 'range': {
      const range = parseRange(m.range);
      return range ? { type: 'range', range } : undefined;
    }
    case 'openTable':
    case 'copy':
    case 'search': {
      const tile = optionalTile(m.tileId);
      return tile ? { type: m.type, ...tile } : undefined;
    }
    case 'rendered':
      return finite(m.seq) && finite(m.ms) && isObject(m.summary)
        ? {
            type: 'rendered',
            seq: m.seq,
            ms: m.ms,
            parseMs: finite(m.parseMs) ? m.parseMs : NaN,
            drawMs: finite(m.drawMs) ? m.drawMs : NaN,
            canvasMs: finite(m.canvasMs) ? m.canvasMs : NaN,
            summary: m.summary as unknown as RenderedSummary,
          }
        : undefined;
    default:
      return undefined;
  }
}

/** Columns and rows of a tile's data as a table (Open as table, Copy). Undefined when the tile has no data. */
export function dataAsTable(data: TileData): { columns: string[]; rows: unknown[][] } | undefined {
  switch (data.kind) {
    case 'timeseries':
      return {
        columns: ['time', ...data.series.map((s) => s.name)],
        rows: data.times.map((t, i) => [new Date(t).toISOString(), ...data.series.map((s) => s.values[i] ?? null)]),
      };
    case 'number':
      return { columns: ['value'], rows: [[data.value]] };
    case 'table':
      return { columns: data.columns.map((c) => c.name), rows: data.rows };
    case 'search':
      return {
        columns: ['time', 'severity', 'service', 'body'],
        rows: data.lines.map((l) => [
          typeof l.time === 'number' ? new Date(l.time).toISOString() : l.time,
          l.severity ?? null,
          l.service ?? null,
          l.body,
        ]),
      };
    case 'heatmap':
      return {
        columns: ['time', 'bucket', 'from', 'to', 'count'],
        rows: data.cells.map((c) => [new Date(c.time).toISOString(), c.bucket, c.from, c.to, c.count]),
      };
    case 'patterns':
      return {
        columns: ['pattern', 'count', 'level', ...data.times.map((t) => new Date(t).toISOString())],
        rows: data.patterns.map((p) => [p.pattern, p.count, p.level ?? null, ...p.trend]),
      };
    default:
      return undefined;
  }
}

/** Tab-separated text of a table (pastes into spreadsheets); tabs and newlines inside cells become spaces. */
export function toTsv(table: { columns: string[]; rows: unknown[][] }): string {
  const cell = (v: unknown): string =>
    (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)).replace(
      /[\t\r\n]+/g,
      ' ',
    );
  return [table.columns.map(cell).join('\t'), ...table.rows.map((r) => r.map(cell).join('\t'))].join('\n');
}

const RESTORE_KINDS = new Set(['tile', 'dashboard', 'alert']);
/** Keys a restore target's arguments may hold (the commands' own arguments; nothing else is passed on). */
const RESTORE_KEYS = new Set(['uri', 'connectionId', 'serviceId', 'dashboardId', 'tileId', 'alertId']);

/** A webview's saved state as the panel's serializer receives it; anything malformed is left out. */
export function parseWebviewState(v: unknown): WebviewState {
  if (!isObject(v)) return {};
  const out: WebviewState = {};
  const range = parseRange(v.range);
  if (range) out.range = range;
  if (finite(v.scrollTop) && v.scrollTop >= 0) out.scrollTop = v.scrollTop;
  const r = v.restore;
  if (isObject(r) && typeof r.kind === 'string' && RESTORE_KINDS.has(r.kind) && isObject(r.args)) {
    const args: RestoreArgs = {};
    for (const [k, value] of Object.entries(r.args)) {
      if (RESTORE_KEYS.has(k) && typeof value === 'string' && value.length > 0 && value.length <= 2000) args[k] = value;
    }
    if (Object.keys(args).length > 0) out.restore = { kind: r.kind as RestoreTarget['kind'], args };
  }
  return out;
}

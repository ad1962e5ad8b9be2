/**
 * Script of the tile preview and alert backtest webviews (bundled on its own into dist/preview.js and
 * dist/preview.css; never loaded by the extension host). Draws time series with uPlot on a canvas (threshold line or
 * band, fired windows, transitions), numbers, tables, log lines, sanitised Markdown and "cannot preview" notices;
 * a dashboard as its tiles on the dashboard's grid. Every chart comes with its data as a table for screen readers.
 * Colours come from the VS Code theme and are read again when the theme changes.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './preview.css';
import type {
  DashboardData,
  FromWebview,
  PanelMode,
  PreviewData,
  RangePreset,
  RenderedSummary,
  ShowMessage,
  TileData,
  TimeRange,
  TimeseriesData,
  WebviewState,
} from '../protocol';
import { conditionWords } from '../../labels/condition';
import { seriesColors } from '../../panels/chartColors';
import { axisTimeLabels, formatTime, formatTimeZoned, zoneOfRange } from '../../panels/chartTime';
import { formatNumber, parseMarkdown, toLocalInput, yRange, type Inline } from './format';
import { drawHeatmap } from './heatmap';
import { drawPatterns } from './patterns';

declare function acquireVsCodeApi(): {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
};

const vscode = acquireVsCodeApi();
const post = (m: FromWebview): void => vscode.postMessage(m);
const $ = (id: string): HTMLElement => document.getElementById(id) as HTMLElement;

/** Rows of a table or lines of a search tile drawn at most (the rest is counted). */
const MAX_ROWS = 500;
/** Rows of a chart's data table built per task when it is opened. */
const TABLE_CHUNK = 1000;
/** Height of one row of the dashboard grid, px (a 4-row chart tile leaves its plot about 190 px). */
const GRID_ROW = 64;
const GRID_COLUMNS = 24;

type ViewState = WebviewState;

let current: { msg: ShowMessage; data: PreviewData } | undefined;
let labels: Record<string, string> = {};
let plots: uPlot[] = [];
let acc: RenderedSummary = emptySummary();
/** When uPlot last finished drawing a canvas (its draw runs in a microtask after the chart is built). */
let lastCanvasDraw = 0;
const resizeObserver = new ResizeObserver((entries) => {
  for (const e of entries) {
    const plot = (e.target as HTMLElement & { plot?: uPlot }).plot;
    if (plot) {
      const { width, height } = plotSize(e.target as HTMLElement);
      if (Math.abs(plot.width - width) > 1 || Math.abs(plot.height - height) > 1) plot.setSize({ width, height });
    }
  }
});

const l = (key: string, fallback: string): string => labels[key] ?? fallback;
const fill = (template: string, ...args: (string | number)[]): string =>
  template.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));

function emptySummary(): RenderedSummary {
  return {
    kind: '',
    text: '',
    charts: 0,
    series: 0,
    points: 0,
    dataTables: 0,
    firedWindows: 0,
    transitions: 0,
    threshold: 'none',
    tiles: [],
    theme: themeKind(),
    firstSeriesColor: '',
  };
}

function themeKind(): string {
  const c = document.body.classList;
  for (const k of ['vscode-high-contrast-light', 'vscode-high-contrast', 'vscode-light', 'vscode-dark']) {
    if (c.contains(k)) return k;
  }
  return 'vscode-dark';
}

/** Colours of the current theme (read on every draw, so a theme change redraws in the new colours). */
function theme(): {
  fg: string;
  muted: string;
  grid: string;
  alert: string;
  ok: string;
  threshold: string;
  bg: string;
} {
  const css = getComputedStyle(document.body);
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  return {
    fg: v('--vscode-editor-foreground', v('--vscode-foreground', '#cccccc')),
    muted: v('--vscode-descriptionForeground', '#9d9d9d'),
    grid: v('--vscode-charts-lines', v('--vscode-panel-border', '#80808059')),
    alert: v('--vscode-charts-red', '#f14c4c'),
    ok: v('--vscode-charts-green', '#89d185'),
    threshold: v('--vscode-editorWarning-foreground', v('--vscode-charts-orange', '#cca700')),
    bg: v('--vscode-editor-background', '#1e1e1e'),
  };
}

/** The colours of a chart's series in the current theme: by series name, the same in every view. */
function colorsOf(names: readonly string[]): string[] {
  const css = getComputedStyle(document.body);
  return seriesColors(names, themeKind(), (name) => css.getPropertyValue(name));
}

/** A colour with an alpha channel, for fills (hex and rgb() colours; others are returned as they are). */
function withAlpha(color: string, alpha: number): string {
  const hex = color.match(/^#([0-9a-f]{3,8})$/i)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
    return `rgba(${r}, ${g}, ${b}, ${alpha})`;
  }
  const rgb = color.match(/^rgba?\(([^,]+),([^,]+),([^,)]+)/);
  return rgb ? `rgba(${rgb[1]},${rgb[2]},${rgb[3]}, ${alpha})` : color;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function button(text: string, onClick: () => void, title?: string): HTMLButtonElement {
  const b = el('button', undefined, text);
  b.type = 'button';
  if (title) b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

// ─── Time series ─────────────────────────────────────────────────────────────

function plotSize(box: HTMLElement): { width: number; height: number } {
  const width = Math.max(200, Math.floor(box.clientWidth || 600));
  const height = box.classList.contains('fill')
    ? Math.max(120, Math.floor(box.clientHeight || 160))
    : Math.max(220, Math.min(420, Math.round(width * 0.45)));
  return { width, height };
}

function drawTimeseries(d: TimeseriesData, host: HTMLElement, compact: boolean, mode: PanelMode): void {
  const t = theme();
  const stacked = d.display === 'stacked_bar';
  const n = d.times.length;
  const xs = new Float64Array(n);
  for (let i = 0; i < n; i++) xs[i] = (d.times[i] as number) / 1000;
  let ys: (number | null)[][] = d.series.map((s) => s.values);
  if (stacked) {
    const sums = new Float64Array(n);
    ys = d.series.map((s) => {
      const out = new Array<number | null>(n);
      for (let i = 0; i < n; i++) {
        const v = s.values[i];
        if (typeof v === 'number') sums[i] = (sums[i] as number) + v;
        out[i] = sums[i] as number;
      }
      return out;
    });
  }
  // More points than pixels: each pixel column keeps its first point's time with the minimum, and a later time with
  // the maximum, of every series (the drawn line is the same; the data table keeps every point).
  let xData: ArrayLike<number> = xs;
  const columns = Math.max(100, Math.floor((host.clientWidth || 800) * (devicePixelRatio || 1)));
  if (!stacked && n > columns * 4) [xData, ys] = envelope(xs, ys, columns);
  let min = Infinity;
  let max = -Infinity;
  for (const col of ys) {
    for (let i = 0; i < col.length; i++) {
      const v = col[i];
      if (typeof v === 'number') {
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
  }
  const colors = colorsOf(d.series.map((s) => s.name));
  const threshold = d.threshold;
  const fired = d.firedWindows ?? [];
  const transitions = d.transitions ?? [];

  if (mode === 'backtest') {
    const last = fired.at(-1);
    host.appendChild(
      el(
        'p',
        'verdict',
        fired.length > 0
          ? fill(
              l('firedCount', 'Would have fired {0}× in this range (last at {1}).'),
              fired.length,
              formatTimeZoned(last!.start),
            )
          : l('neverFired', 'Would not have fired in this range.'),
      ),
    );
    if (threshold) host.appendChild(el('p', 'rule', ruleText(threshold, d)));
  }

  const box = el('div', compact ? 'plot fill' : 'plot');
  box.setAttribute('role', 'img');
  const first = d.times[0];
  const lastTime = d.times.at(-1);
  box.setAttribute(
    'aria-label',
    fill(
      l('chartAria', '{0}: {1} series, {2} points from {3} to {4}; values from {5} to {6}.'),
      d.title ?? '',
      d.series.length,
      n,
      first === undefined ? '—' : formatTimeZoned(first),
      lastTime === undefined ? '—' : formatTimeZoned(lastTime),
      formatNumber(Number.isFinite(min) ? min : null, d.numberFormat),
      formatNumber(Number.isFinite(max) ? max : null, d.numberFormat),
    ),
  );
  host.appendChild(box);
  const readout = el('div', 'readout');
  readout.setAttribute('aria-live', 'polite');
  // A tile of a dashboard keeps its room for the plot: the hint is the chart's tooltip there.
  const hint = l('readoutHint', 'Hover the chart, or focus it and press ← →, to read the values.');
  if (compact) box.title = hint;
  else readout.textContent = hint;
  host.appendChild(readout);

  // Stacked bars: the tallest (cumulative) series is drawn first so each lower one covers its own part.
  const order = stacked ? d.series.map((_, i) => d.series.length - 1 - i) : d.series.map((_, i) => i);
  const bars = stacked ? uPlot.paths.bars!({ size: [0.9, 64], align: 0 }) : undefined;
  const axisFont = `11px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  const opts: uPlot.Options = {
    ...plotSize(box),
    pxAlign: 0,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { show: !stacked } },
    scales: { x: { time: true }, y: { range: (_u, lo, hi) => yRange(lo, hi, threshold) } },
    axes: [
      {
        stroke: t.muted,
        font: axisFont,
        grid: { stroke: withAlpha(t.grid, 0.35), width: 1 },
        ticks: { stroke: withAlpha(t.grid, 0.5), width: 1 },
        // The charts' one time format (24-hour, the date where the day changes); the zone is in the legend.
        values: (_u, splits, _axis, _space, incr) =>
          axisTimeLabels(
            splits.map((v) => v * 1000),
            incr * 1000,
          ),
      },
      {
        stroke: t.muted,
        font: axisFont,
        size: 56,
        grid: { stroke: withAlpha(t.grid, 0.35), width: 1 },
        ticks: { show: false },
        values: (_u, splits) =>
          splits.map((v) => formatNumber(v, { ...d.numberFormat, average: true, mantissa: undefined })),
      },
    ],
    series: [
      {},
      ...order.map((i) => ({
        label: d.series[i]?.name ?? '',
        stroke: colors[i],
        width: stacked ? 0 : 1.5,
        ...(stacked ? { fill: withAlpha(colors[i] as string, 0.85), paths: bars } : {}),
        points: { show: false },
        spanGaps: false,
      })),
    ],
    hooks: {
      setCursor: [(u: uPlot) => showReadout(u, d, colors, readout)],
      drawAxes: [(u: uPlot) => drawUnder(u, t, fired, threshold)],
      draw: [
        (u: uPlot) => {
          drawOver(u, t, threshold, transitions);
          lastCanvasDraw = performance.now();
        },
      ],
    },
  };
  const data = [xData, ...order.map((i) => ys[i] as (number | null)[])] as unknown as uPlot.AlignedData;
  const plot = new uPlot(opts, data, box);
  (box as HTMLElement & { plot?: uPlot }).plot = plot;
  resizeObserver.observe(box);
  plots.push(plot);
  keyboardCursor(box, plot, d);

  const legend = el('div', 'legend');
  legend.setAttribute('aria-hidden', 'true');
  d.series.forEach((s, i) => {
    const item = el('span', undefined, s.name);
    item.style.setProperty('--swatch', colors[i] as string);
    legend.appendChild(item);
  });
  if (threshold) legend.appendChild(el('span', 'threshold', thresholdText(threshold, d)));
  const zone = el('span', 'zone', zoneOfRange(d.times[0] as number, d.times.at(-1) as number));
  zone.title = l('zoneTitle', 'Times are in this time zone');
  legend.appendChild(zone);
  host.appendChild(legend);
  host.appendChild(dataTable(d));
  if (mode === 'backtest') host.appendChild(transitionsTable(d));

  acc.charts++;
  acc.series += d.series.length;
  acc.points += n * d.series.length;
  acc.dataTables++;
  acc.firedWindows += fired.length;
  acc.transitions += transitions.length;
  if (threshold) acc.threshold = threshold.type === 'between' || threshold.type === 'not_between' ? 'band' : 'line';
  if (!acc.firstSeriesColor && colors[0]) acc.firstSeriesColor = colors[0];
}

/** Min/max envelope per bucket of x: two points per bucket (its first time and its middle time) for every series. */
function envelope(xs: Float64Array, ys: (number | null)[][], buckets: number): [Float64Array, (number | null)[][]] {
  const n = xs.length;
  const size = Math.ceil(n / buckets);
  const count = Math.ceil(n / size);
  const outX = new Float64Array(count * 2);
  for (let b = 0; b < count; b++) {
    const from = b * size;
    const to = Math.min(n, from + size);
    outX[2 * b] = xs[from] as number;
    outX[2 * b + 1] = xs[Math.min(to - 1, from + (size >> 1))] as number;
  }
  const outY = ys.map((col) => {
    const out = new Array<number | null>(count * 2);
    for (let b = 0; b < count; b++) {
      const from = b * size;
      const to = Math.min(n, from + size);
      let lo: number | null = null;
      let hi: number | null = null;
      let loAt = 0;
      let hiAt = 0;
      for (let i = from; i < to; i++) {
        const v = col[i];
        if (typeof v !== 'number') continue;
        if (lo === null || v < lo) {
          lo = v;
          loAt = i;
        }
        if (hi === null || v > hi) {
          hi = v;
          hiAt = i;
        }
      }
      // Keep the order in which the extremes occur, so the line goes the way the data went.
      const [first, second] = loAt <= hiAt ? [lo, hi] : [hi, lo];
      out[2 * b] = first;
      out[2 * b + 1] = second;
    }
    return out;
  });
  return [outX, outY];
}

function thresholdText(th: NonNullable<TimeseriesData['threshold']>, d: TimeseriesData): string {
  const v = formatNumber(th.value, d.numberFormat);
  const max = formatNumber(th.max ?? null, d.numberFormat);
  // A backtest knows the alert's own threshold type (at least, above, …); the drawing only its side.
  return fill(l('thresholdFires', 'fires when {0}'), conditionWords(d.rule?.thresholdType ?? th.type, v, max));
}

/** The rule a backtest replays, beside its fired count: threshold, window and consecutive windows. */
function ruleText(th: NonNullable<TimeseriesData['threshold']>, d: TimeseriesData): string {
  const parts = [thresholdText(th, d)];
  if (d.rule?.interval) parts.push(fill(l('ruleWindow', 'windows of {0}'), d.rule.interval));
  const n = d.rule?.numConsecutiveWindows ?? 1;
  parts.push(
    n > 1
      ? fill(l('ruleConsecutive', 'after {0} consecutive windows over the threshold'), n)
      : l('ruleOneWindow', 'on the first window over the threshold'),
  );
  return `${l('rule', 'Rule')}: ${parts.join(' · ')}`;
}

/** The index of the time in `times` (sorted) nearest to `t`. */
function nearestIndex(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  const before = times[lo - 1];
  return lo > 0 && before !== undefined && t - before < (times[lo] as number) - t ? lo - 1 : lo;
}

/** The values at the cursor: its time (with the zone) and each series' value, named, in the series' colour. */
function showReadout(u: uPlot, d: TimeseriesData, colors: readonly string[], readout: HTMLElement): void {
  const left = u.cursor.left;
  if (left === undefined || left < 0 || d.times.length === 0) return;
  const i = nearestIndex(d.times, u.posToVal(left, 'x') * 1000);
  readout.textContent = '';
  readout.appendChild(el('strong', 'when', formatTimeZoned(d.times[i] as number)));
  d.series.forEach((s, k) => {
    const item = readout.appendChild(el('span', 'item'));
    item.style.setProperty('--swatch', colors[k] as string);
    item.append(el('span', 'name', s.name), el('span', 'value', formatNumber(s.values[i], d.numberFormat)));
  });
  (readout as HTMLElement & { index?: number }).index = i;
}

/** ← → Home End on the focused chart move the cursor from point to point (the readout says the values). */
function keyboardCursor(box: HTMLElement, plot: uPlot, d: TimeseriesData): void {
  box.tabIndex = 0;
  let index = -1;
  box.addEventListener('keydown', (e) => {
    const n = d.times.length;
    const moves: Record<string, number> = {
      ArrowLeft: Math.max(0, (index < 0 ? n : index) - 1),
      ArrowRight: Math.min(n - 1, index + 1),
      Home: 0,
      End: n - 1,
    };
    const next = moves[e.key];
    if (next === undefined || n === 0) return;
    e.preventDefault();
    index = next;
    const left = plot.valToPos((d.times[index] as number) / 1000, 'x');
    plot.setCursor({ left, top: plot.bbox.height / (devicePixelRatio || 1) / 2 });
  });
  box.addEventListener('blur', () => (index = -1));
}

/** Under the series: the windows that would have fired, and the threshold band. */
function drawUnder(
  u: uPlot,
  t: ReturnType<typeof theme>,
  fired: readonly { start: number; end: number }[],
  th: TimeseriesData['threshold'],
): void {
  const { ctx, bbox } = u;
  ctx.save();
  ctx.beginPath();
  ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
  ctx.clip();
  ctx.fillStyle = withAlpha(t.alert, 0.2);
  for (const w of fired) {
    const x0 = u.valToPos(w.start / 1000, 'x', true);
    const x1 = u.valToPos(w.end / 1000, 'x', true);
    ctx.fillRect(x0, bbox.top, Math.max(1, x1 - x0), bbox.height);
  }
  if (th && (th.type === 'between' || th.type === 'not_between') && typeof th.max === 'number') {
    const y0 = u.valToPos(th.value, 'y', true);
    const y1 = u.valToPos(th.max, 'y', true);
    ctx.fillStyle = withAlpha(t.threshold, 0.14);
    if (th.type === 'between') ctx.fillRect(bbox.left, Math.min(y0, y1), bbox.width, Math.abs(y1 - y0));
    else {
      ctx.fillRect(bbox.left, bbox.top, bbox.width, Math.min(y0, y1) - bbox.top);
      ctx.fillRect(bbox.left, Math.max(y0, y1), bbox.width, bbox.top + bbox.height - Math.max(y0, y1));
    }
  }
  ctx.restore();
}

/** Over the series: the threshold line(s) and the transitions (to ALERT in the alert colour, to OK in green). */
function drawOver(
  u: uPlot,
  t: ReturnType<typeof theme>,
  th: TimeseriesData['threshold'],
  transitions: TimeseriesData['transitions'] & object,
): void {
  const { ctx, bbox } = u;
  const dpr = devicePixelRatio || 1;
  ctx.save();
  ctx.beginPath();
  ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
  ctx.clip();
  ctx.lineWidth = 1.5 * dpr;
  if (th) {
    ctx.strokeStyle = t.threshold;
    ctx.setLineDash([6 * dpr, 4 * dpr]);
    for (const v of th.type === 'above' || th.type === 'below' ? [th.value] : [th.value, th.max]) {
      if (typeof v !== 'number') continue;
      const y = Math.round(u.valToPos(v, 'y', true)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(bbox.left, y);
      ctx.lineTo(bbox.left + bbox.width, y);
      ctx.stroke();
    }
  }
  ctx.setLineDash([2 * dpr, 3 * dpr]);
  for (const tr of transitions) {
    const x = Math.round(u.valToPos(tr.time / 1000, 'x', true)) + 0.5;
    ctx.strokeStyle = tr.to === 'ALERT' ? t.alert : t.ok;
    ctx.fillStyle = ctx.strokeStyle;
    ctx.beginPath();
    ctx.moveTo(x, bbox.top);
    ctx.lineTo(x, bbox.top + bbox.height);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(x - 5 * dpr, bbox.top);
    ctx.lineTo(x + 5 * dpr, bbox.top);
    ctx.lineTo(x, bbox.top + 7 * dpr);
    ctx.fill();
  }
  ctx.restore();
}

/** The chart's data as a table inside a closed <details>; the rows are built when it is first opened. */
function dataTable(d: TimeseriesData): HTMLElement {
  const details = el('details', 'data');
  details.appendChild(
    el(
      'summary',
      undefined,
      fill(l('chartTable', 'Chart data as a table ({0} rows)'), d.times.length.toLocaleString('en-US')),
    ),
  );
  details.addEventListener('toggle', () => {
    if (!details.open || details.querySelector('table')) return;
    const table = el('table');
    const head = table.createTHead().insertRow();
    const zone = zoneOfRange(d.times[0] as number, d.times.at(-1) as number);
    for (const h of [`${l('time', 'Time')} (${zone})`, ...d.series.map((s) => s.name)]) {
      head.appendChild(el('th', undefined, h)).setAttribute('scope', 'col');
    }
    const body = table.createTBody();
    details.appendChild(table);
    // A week of minutes is 10,080 rows × (1 + series) cells: the first rows at once, the rest a chunk per task, so
    // opening the table never freezes the panel (and a table closed meanwhile stops growing once complete).
    const build = (from: number): void => {
      const frag = document.createDocumentFragment();
      const to = Math.min(d.times.length, from + TABLE_CHUNK);
      for (let i = from; i < to; i++) {
        const tr = document.createElement('tr');
        tr.appendChild(el('th', undefined, formatTime(d.times[i] as number))).setAttribute('scope', 'row');
        for (const s of d.series) tr.appendChild(el('td', 'num', formatNumber(s.values[i], d.numberFormat)));
        frag.appendChild(tr);
      }
      body.appendChild(frag);
      if (to < d.times.length && table.isConnected) setTimeout(() => build(to), 0);
    };
    build(0);
  });
  return details;
}

function transitionsTable(d: TimeseriesData): HTMLElement {
  const section = el('section', 'transitions');
  section.setAttribute('aria-label', l('transitions', 'Transitions'));
  section.appendChild(el('h3', undefined, l('transitions', 'Transitions')));
  const list = d.transitions ?? [];
  if (list.length === 0) {
    section.appendChild(
      el('p', 'muted', l('noTransitions', 'No transitions: the state stayed the same over the whole range.')),
    );
    return section;
  }
  const table = el('table');
  const head = table.createTHead().insertRow();
  const zone = zoneOfRange((list[0] as { time: number }).time, (list.at(-1) as { time: number }).time);
  for (const h of [
    `${l('time', 'Time')} (${zone})`,
    l('series', 'Series'),
    l('transitionFrom', 'From'),
    l('transitionTo', 'To'),
    l('value', 'Value'),
    l('decidedBy', 'Decided by'),
  ]) {
    head.appendChild(el('th', undefined, h)).setAttribute('scope', 'col');
  }
  const body = table.createTBody();
  for (const tr of list) {
    const row = body.insertRow();
    row.appendChild(el('th', undefined, formatTime(tr.time))).setAttribute('scope', 'row');
    row.appendChild(el('td', 'series', tr.series ?? d.series[0]?.name ?? ''));
    row.appendChild(el('td', `state ${tr.from.toLowerCase()}`, tr.from));
    row.appendChild(el('td', `state ${tr.to.toLowerCase()}`, tr.to));
    row.appendChild(el('td', 'num', formatNumber(tr.value ?? null, d.numberFormat)));
    row.appendChild(el('td', 'decided', tr.rule ?? ''));
  }
  section.appendChild(table);
  return section;
}

// ─── Other tiles ─────────────────────────────────────────────────────────────

function renderInline(parent: HTMLElement, parts: Inline[]): void {
  for (const p of parts) {
    if (p.t === 'text') parent.appendChild(document.createTextNode(p.text));
    else if (p.t === 'code') parent.appendChild(el('code', undefined, p.text));
    else if (p.t === 'link') {
      // Shown, never followed: the text, and the target beside it.
      const link = el('span', 'link', p.text || p.href);
      link.title = p.href;
      parent.appendChild(link);
      if (p.text && p.href) parent.appendChild(el('span', 'muted', ` (${p.href})`));
    } else renderInline(parent.appendChild(el(p.t === 'strong' ? 'strong' : 'em')), p.children);
  }
}

function renderMarkdown(text: string, host: HTMLElement): void {
  const box = el('div', 'markdown');
  for (const b of parseMarkdown(text)) {
    switch (b.t) {
      case 'heading':
        renderInline(box.appendChild(el(`h${Math.min(6, b.level + 1)}` as 'h2')), b.children);
        break;
      case 'paragraph':
        renderInline(box.appendChild(el('p')), b.children);
        break;
      case 'quote':
        renderInline(box.appendChild(el('blockquote')), b.children);
        break;
      case 'code':
        box.appendChild(el('pre')).appendChild(el('code', undefined, b.text));
        break;
      case 'rule':
        box.appendChild(el('hr'));
        break;
      case 'list': {
        const list = box.appendChild(el(b.ordered ? 'ol' : 'ul'));
        for (const item of b.items) renderInline(list.appendChild(el('li')), item);
        break;
      }
    }
  }
  host.appendChild(box);
}

function cellText(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function renderTable(d: Extract<TileData, { kind: 'table' }>, host: HTMLElement): void {
  const wrap = el('div', 'table-wrap');
  wrap.tabIndex = 0;
  const table = wrap.appendChild(el('table'));
  if (d.title) table.setAttribute('aria-label', d.title);
  const head = table.createTHead().insertRow();
  for (const c of d.columns) head.appendChild(el('th', undefined, c.name)).setAttribute('scope', 'col');
  const body = table.createTBody();
  for (const row of d.rows.slice(0, MAX_ROWS)) {
    const tr = body.insertRow();
    // Fractions are shown to two decimals (Copy and Open as Table keep the exact values).
    row.forEach((v) =>
      tr.appendChild(
        el(
          'td',
          typeof v === 'number' ? 'num' : v === null ? 'null' : undefined,
          typeof v === 'number' && !Number.isInteger(v) ? String(Math.round(v * 100) / 100) : cellText(v),
        ),
      ),
    );
  }
  host.appendChild(wrap);
  if (d.rows.length === 0) host.appendChild(el('p', 'muted', l('noRows', 'No rows in this range.')));
  else if (d.rows.length > MAX_ROWS) {
    host.appendChild(
      el(
        'p',
        'muted',
        fill(l('moreRows', 'Showing the first {0} of {1} rows; Open as table shows all.'), MAX_ROWS, d.rows.length),
      ),
    );
  }
}

function renderSearch(d: Extract<TileData, { kind: 'search' }>, host: HTMLElement): void {
  const times = d.lines.map((line) => line.time).filter((t): t is number => typeof t === 'number');
  if (times.length > 0) {
    host.appendChild(
      el(
        'p',
        'muted zone-note',
        fill(l('timesIn', 'Times in {0}'), zoneOfRange(Math.min(...times), Math.max(...times))),
      ),
    );
  }
  const list = el('div', 'logs');
  list.setAttribute('role', 'list');
  list.tabIndex = 0;
  for (const line of d.lines.slice(0, MAX_ROWS)) {
    const row = list.appendChild(el('div', 'log'));
    row.setAttribute('role', 'listitem');
    row.appendChild(el('span', 'when', typeof line.time === 'number' ? formatTime(line.time, true) : line.time));
    const sev = (line.severity ?? '').toLowerCase();
    if (line.severity) {
      row.appendChild(
        el(
          'span',
          `sev sev-${/^(fatal|crit|error|err)/.test(sev) ? 'error' : /^warn/.test(sev) ? 'warn' : /^debug|^trace/.test(sev) ? 'debug' : 'info'}`,
          line.severity,
        ),
      );
    }
    if (line.service) row.appendChild(el('span', 'svc', line.service));
    row.appendChild(el('span', 'body', line.body));
  }
  host.appendChild(list);
  if (d.lines.length === 0) host.appendChild(el('p', 'muted', l('noLines', 'No log lines in this range.')));
  else if (d.lines.length > MAX_ROWS) {
    host.appendChild(
      el('p', 'muted', fill(l('moreLines', 'Showing the first {0} of {1} lines.'), MAX_ROWS, d.lines.length)),
    );
  }
}

function renderTile(d: TileData, host: HTMLElement, compact: boolean, mode: PanelMode): void {
  switch (d.kind) {
    case 'timeseries':
      if (d.times.length === 0 || d.series.length === 0) {
        host.appendChild(el('p', 'muted', l('noData', 'No data in this range.')));
      } else drawTimeseries(d, host, compact, mode);
      break;
    case 'number': {
      const big = host.appendChild(el('div', 'big-number', formatNumber(d.value, d.numberFormat)));
      big.setAttribute('role', 'status');
      if (d.title) big.setAttribute('aria-label', `${d.title}: ${big.textContent}`);
      break;
    }
    case 'heatmap':
      if (d.cells.length === 0) host.appendChild(el('p', 'muted', l('noData', 'No data in this range.')));
      else {
        const t = theme();
        const cell = getComputedStyle(document.body).getPropertyValue('--vscode-charts-blue').trim() || '#3794ff';
        const colors = { ...t, cell };
        drawHeatmap(d, host, compact, {
          el,
          l,
          fill,
          colors,
          withAlpha,
          drawn: () => (lastCanvasDraw = performance.now()),
        });
        acc.charts++;
        acc.series++;
        acc.points += d.cells.length;
        acc.dataTables++;
      }
      break;
    case 'table':
      renderTable(d, host);
      break;
    case 'search':
      renderSearch(d, host);
      break;
    case 'patterns':
      drawPatterns(d, host, { el, l, fill });
      if (d.patterns.length > 0) acc.dataTables++;
      break;
    case 'markdown':
      renderMarkdown(d.text, host);
      break;
    case 'unsupported': {
      const box = host.appendChild(el('div', 'notice'));
      box.appendChild(el('strong', undefined, `${l('cannotPreview', 'Cannot preview')}: `));
      box.appendChild(document.createTextNode(d.reason));
      break;
    }
    case 'error': {
      const box = host.appendChild(el('div', 'notice error'));
      box.setAttribute('role', 'alert');
      box.appendChild(el('strong', undefined, `${l('failed', 'Could not load the data')}: `));
      box.appendChild(document.createTextNode(d.message));
      break;
    }
    case 'loading':
      host.appendChild(el('p', 'muted', l('loading', 'Loading…')));
      break;
  }
}

function renderDashboard(d: DashboardData, host: HTMLElement, mode: PanelMode): void {
  // The dashboard's own grid when the panel is wide; in a narrow column (preview.css) tiles flow two to a row, then
  // one, in reading order, each keeping its height.
  const grid = host.appendChild(el('div', 'grid'));
  const columns = Math.max(GRID_COLUMNS, ...d.tiles.map((t) => t.x + t.w));
  grid.style.setProperty('--columns', String(columns));
  grid.style.setProperty('--row', `${GRID_ROW}px`);
  const tiles = [...d.tiles].sort((a, b) => a.y - b.y || a.x - b.x);
  for (const tile of tiles) {
    const section = grid.appendChild(el('section', `tile tile-${tile.data.kind}`));
    const area = `${tile.y + 1} / ${tile.x + 1} / span ${Math.max(1, tile.h)} / span ${Math.max(1, tile.w)}`;
    section.style.setProperty('--area', area);
    section.style.setProperty('--rows', String(Math.max(1, tile.h)));
    // Two to a row when narrow: a tile of at most half the dashboard's width takes one of two columns.
    section.style.setProperty('--half-span', tile.w * 2 <= columns ? '1' : '2');
    section.dataset.tileId = tile.id;
    const header = section.appendChild(el('header'));
    const name = header.appendChild(el('h2', undefined, tile.name ?? tile.data.title ?? ''));
    name.id = `tile-${tiles.indexOf(tile)}`;
    section.setAttribute('aria-labelledby', name.id);
    if (['timeseries', 'table', 'search', 'number', 'heatmap'].includes(tile.data.kind)) {
      header.appendChild(
        button(
          l('openTable', 'Open as Table'),
          () => post({ type: 'openTable', tileId: tile.id }),
          `${l('openTable', 'Open as Table')}: ${name.textContent}`,
        ),
      );
      header.appendChild(
        button(
          l('copy', 'Copy'),
          () => post({ type: 'copy', tileId: tile.id }),
          `${l('copy', 'Copy')}: ${name.textContent}`,
        ),
      );
    }
    if (current?.msg.searchable?.includes(tile.id)) {
      header.appendChild(
        button(
          l('search', 'Search Events'),
          () => post({ type: 'search', tileId: tile.id }),
          `${l('search', 'Search Events')}: ${name.textContent}`,
        ),
      );
      acc.searches = (acc.searches ?? 0) + 1;
    }
    const body = section.appendChild(el('div', 'tile-body'));
    renderTile(
      tile.data.kind === 'timeseries' ? { ...tile.data, title: tile.data.title ?? tile.name } : tile.data,
      body,
      true,
      mode,
    );
    acc.tiles.push({ id: tile.id, kind: tile.data.kind, area });
  }
}

// ─── Frame: title, range picker, actions ─────────────────────────────────────

function renderRanges(msg: ShowMessage): void {
  const group = $('ranges');
  group.textContent = '';
  const choose = (range: TimeRange): void => {
    saveState({ range });
    markRange(range);
    post({ type: 'range', range });
  };
  const names: Record<RangePreset | 'custom', string> = {
    '15m': l('range15m', '15 m'),
    '1h': l('range1h', '1 h'),
    '6h': l('range6h', '6 h'),
    '24h': l('range24h', '24 h'),
    '7d': l('range7d', '7 d'),
    custom: l('rangeCustom', 'Custom…'),
  };
  for (const p of msg.presets) {
    const b = group.appendChild(button(names[p], () => choose({ preset: p })));
    b.dataset.preset = p;
  }
  const custom = group.appendChild(
    button(names.custom, () => {
      const box = $('custom');
      box.hidden = !box.hidden;
      markRange(box.hidden ? (current?.msg.range ?? msg.range) : { preset: 'custom', from: 0, to: 1 });
      if (!box.hidden) ($('from') as HTMLInputElement).focus();
    }),
  );
  custom.dataset.preset = 'custom';
  $('apply').onclick = () => {
    const from = Date.parse(($('from') as HTMLInputElement).value);
    const to = Date.parse(($('to') as HTMLInputElement).value);
    const error = $('range-error');
    if (!Number.isFinite(from) || !Number.isFinite(to) || from >= to) {
      error.textContent = l('badRange', 'Choose a start before the end.');
      return;
    }
    error.textContent = '';
    choose({ preset: 'custom', from, to });
  };
  markRange(msg.range);
}

function markRange(range: TimeRange): void {
  for (const b of $('ranges').querySelectorAll('button')) {
    b.setAttribute('aria-pressed', String(b.dataset.preset === range.preset));
  }
  const box = $('custom');
  if (range.preset === 'custom' && range.to > range.from) {
    box.hidden = false;
    ($('from') as HTMLInputElement).value = toLocalInput(range.from);
    ($('to') as HTMLInputElement).value = toLocalInput(range.to);
  } else if (range.preset !== 'custom') box.hidden = true;
}

function saveState(patch: ViewState): void {
  vscode.setState({ ...((vscode.getState() as ViewState | undefined) ?? {}), ...patch });
}

function render(msg: ShowMessage, data: PreviewData): void {
  for (const p of plots) p.destroy();
  plots = [];
  resizeObserver.disconnect();
  acc = emptySummary();
  acc.kind = data.kind;
  const content = $('content');
  content.textContent = '';
  $('title').textContent = data.title ?? '';
  $('subtitle').textContent = data.subtitle ?? '';
  const single = data.kind !== 'dashboard';
  const hasTable = single && ['timeseries', 'table', 'search', 'number', 'heatmap', 'patterns'].includes(data.kind);
  $('open-table').hidden = !hasTable;
  $('copy').hidden = !hasTable;
  $('search').hidden = !(single && msg.searchable?.includes(''));
  if (!$('search').hidden) acc.searches = 1;
  document.body.dataset.mode = msg.mode;
  if (data.kind === 'dashboard') renderDashboard(data, content, msg.mode);
  else renderTile(data, content, false, msg.mode);
  const state = vscode.getState() as ViewState | undefined;
  if (state?.scrollTop) content.scrollTop = state.scrollTop;
}

/** What a reader sees: the rendered text of the title and the content (closed <details> contribute their summary). */
function summaryText(): string {
  return `${$('title').innerText} ${$('content').innerText}`.replace(/\s+/g, ' ').trim().slice(0, 4000);
}

function onShow(msg: ShowMessage, arrived: number): void {
  labels = msg.labels;
  applyLabels();
  const t0 = performance.now();
  const data = JSON.parse(msg.dataJson) as PreviewData;
  const parseMs = performance.now() - t0;
  current = { msg, data };
  renderRanges(msg);
  // What the panel shows, by reference, and its range: a window reload brings the panel back from this state.
  saveState({ range: msg.range, restore: msg.restore });
  const d0 = performance.now();
  render(msg, data);
  const drawMs = performance.now() - d0;
  report(msg.seq, arrived, parseMs, drawMs);
}

/** Runs `fn` once the next frame has been painted (a task queued from the frame's animation callback runs after it). */
function afterPaint(fn: () => void): void {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

function report(seq: number, arrived: number, parseMs: number, drawMs: number): void {
  afterPaint(() => {
    const ms = performance.now() - arrived;
    const canvasMs = acc.charts > 0 && lastCanvasDraw >= arrived ? lastCanvasDraw - arrived : drawMs + parseMs;
    acc.text = summaryText();
    acc.theme = themeKind();
    post({ type: 'rendered', seq, ms, parseMs, drawMs, canvasMs, summary: acc });
  });
}

function applyLabels(): void {
  $('refresh').textContent = l('refresh', 'Refresh');
  $('open-table').textContent = l('openTable', 'Open as Table');
  $('copy').textContent = l('copy', 'Copy');
  $('search').textContent = l('search', 'Search Events');
  $('apply').textContent = l('apply', 'Apply');
  $('ranges').setAttribute('aria-label', l('timeRange', 'Time range'));
  $('from').setAttribute('aria-label', l('from', 'From'));
  $('to').setAttribute('aria-label', l('to', 'To'));
}

// ─── Wiring ──────────────────────────────────────────────────────────────────

$('refresh').addEventListener('click', () => post({ type: 'refresh' }));
$('open-table').addEventListener('click', () => post({ type: 'openTable' }));
$('copy').addEventListener('click', () => post({ type: 'copy' }));
$('search').addEventListener('click', () => post({ type: 'search' }));
$('content').addEventListener('scroll', () => saveState({ scrollTop: $('content').scrollTop }), { passive: true });

// A theme change swaps the body's classes: draw again in the new colours.
new MutationObserver(() => {
  if (current && acc.theme !== themeKind()) {
    const arrived = performance.now();
    const d0 = performance.now();
    render(current.msg, current.data);
    report(current.msg.seq, arrived, 0, performance.now() - d0);
  }
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

window.addEventListener('message', (e: MessageEvent) => {
  const arrived = performance.now();
  const m = e.data as { type?: string };
  if (m?.type === 'show') onShow(m as ShowMessage, arrived);
});

post({ type: 'ready' });

/**
 * The heatmap chart of the preview webview: counts per time bucket × value bucket on a canvas, one row per value
 * bucket (evenly spaced, so a log scale reads as HyperDX draws it), the colour of a cell growing with the square root
 * of its count up to the 95th percentile of the counts (as HyperDX, in 7 steps of a theme colour). Hover a cell, or
 * focus the chart and press the arrow keys (Home, End), and the line under it reads the cell's time, value range and
 * count. The cells are also a table (*Chart data as a table*).
 */
import type { HeatmapCell, HeatmapData } from '../protocol';
import { axisTimeLabels, formatTime, formatTimeZoned, zoneOfRange } from '../../panels/chartTime';
import { formatNumber } from './format';

/** What the heatmap borrows from the page's script: element helpers, labels and theme colours. */
export interface HeatmapHost {
  el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K];
  l(key: string, fallback: string): string;
  fill(template: string, ...args: (string | number)[]): string;
  colors: { fg: string; muted: string; grid: string; bg: string; cell: string };
  withAlpha(color: string, alpha: number): string;
  /** Called after each draw of the canvas. */
  drawn(): void;
}

const STEPS = 7;
const LEFT = 60;
const BOTTOM = 22;
const TOP = 6;
const RIGHT = 8;

/** The colour step (0…6) of each count, as HyperDX: √count / √(95th percentile of the counts), clamped. */
export function colorSteps(counts: readonly number[]): number[] {
  const sorted = counts.filter((c) => c > 0).sort((a, b) => a - b);
  if (sorted.length === 0) return counts.map(() => -1);
  const p95 = sorted[Math.floor((sorted.length - 1) * 0.95)] ?? (sorted.at(-1) as number);
  const ceiling = Math.sqrt(p95) || 1;
  return counts.map((c) =>
    c > 0 ? Math.max(0, Math.min(STEPS - 1, Math.floor((Math.sqrt(c) / ceiling) * (STEPS - 1)))) : -1,
  );
}

/** The value range of a cell in words, e.g. "12.5 – 14.1", "below 3.2", "20,373 and above". */
function rangeText(c: Pick<HeatmapCell, 'from' | 'to'>, d: HeatmapData, h: HeatmapHost): string {
  const f = (v: number | null) => formatNumber(v, d.numberFormat);
  if (c.from === null) return h.fill(h.l('heatmapBelow', 'below {0}'), f(c.to));
  if (c.to === null) return h.fill(h.l('heatmapAbove', '{0} and above'), f(c.from));
  return `${f(c.from)} – ${f(c.to)}`;
}

function edge(k: number, d: HeatmapData): number {
  if (d.scale === 'log' && d.lo > 0 && d.hi > d.lo) return d.lo * Math.pow(d.hi / d.lo, k / d.buckets);
  return d.lo + (k * (d.hi - d.lo)) / d.buckets;
}

export function drawHeatmap(d: HeatmapData, host: HTMLElement, compact: boolean, h: HeatmapHost): void {
  const { el } = h;
  const rows = d.buckets + 2;
  const steps = colorSteps(d.cells.map((c) => c.count));
  const byKey = new Map(d.cells.map((c, i) => [`${c.time}|${c.bucket}`, i]));
  const timeIndex = new Map(d.times.map((t, i) => [t, i]));
  const box = el('div', compact ? 'plot fill heatmap' : 'plot heatmap');
  box.setAttribute('role', 'img');
  const total = d.cells.reduce((a, c) => a + c.count, 0);
  box.setAttribute(
    'aria-label',
    h.fill(
      h.l('heatmapAria', '{0}: heatmap of {1} rows in {2} cells, values from {3} to {4} ({5} scale).'),
      d.title ?? '',
      total.toLocaleString('en-US'),
      d.cells.length.toLocaleString('en-US'),
      formatNumber(d.lo, d.numberFormat),
      formatNumber(d.hi, d.numberFormat),
      d.scale,
    ),
  );
  const canvas = box.appendChild(el('canvas'));
  host.appendChild(box);
  const readout = host.appendChild(el('div', 'readout'));
  readout.setAttribute('aria-live', 'polite');
  const hint = h.l('heatmapHint', 'Hover a cell, or focus the chart and press the arrow keys, to read its count.');
  if (compact) box.title = hint;
  else readout.textContent = hint;

  let cursor: { col: number; row: number } | undefined;
  const layout = () => {
    const width = Math.max(200, Math.floor(box.clientWidth || 600));
    const height = compact
      ? Math.max(120, Math.floor(box.clientHeight || 160))
      : Math.max(220, Math.min(420, Math.round(width * 0.45)));
    const plotW = Math.max(1, width - LEFT - RIGHT);
    const plotH = Math.max(1, height - TOP - BOTTOM);
    return { width, height, plotW, plotH, cellW: plotW / Math.max(1, d.times.length), cellH: plotH / rows };
  };

  const draw = () => {
    const g = layout();
    const dpr = devicePixelRatio || 1;
    canvas.width = Math.round(g.width * dpr);
    canvas.height = Math.round(g.height * dpr);
    canvas.style.width = `${g.width}px`;
    canvas.style.height = `${g.height}px`;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, g.width, g.height);
    const font = `11px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
    ctx.font = font;
    // Cells, one path per colour step.
    const paths = Array.from({ length: STEPS }, () => new Path2D());
    d.cells.forEach((c, i) => {
      const col = timeIndex.get(c.time);
      const step = steps[i] as number;
      if (col === undefined || step < 0) return;
      const x = LEFT + col * g.cellW;
      const y = TOP + (rows - 1 - c.bucket) * g.cellH;
      paths[step]?.rect(x, y, Math.max(1, g.cellW), Math.max(1, g.cellH));
    });
    paths.forEach((p, i) => {
      ctx.fillStyle = h.withAlpha(h.colors.cell, 0.25 + (0.75 * i) / (STEPS - 1));
      ctx.fill(p);
    });
    // Axes: value edges on the left (bottom, middle and top of the bounds), times below.
    ctx.strokeStyle = h.withAlpha(h.colors.grid, 0.5);
    ctx.strokeRect(LEFT + 0.5, TOP + 0.5, g.plotW - 1, g.plotH - 1);
    ctx.fillStyle = h.colors.muted;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const k of [0, d.buckets / 2, d.buckets]) {
      const y = TOP + (rows - 1 - k) * g.cellH;
      ctx.fillText(formatNumber(edge(k, d), { ...d.numberFormat, average: true, mantissa: undefined }), LEFT - 4, y);
    }
    const first = d.times[0];
    const step = d.stepMs;
    if (first !== undefined && step > 0) {
      const every = Math.max(1, Math.ceil(d.times.length / Math.max(1, Math.floor(g.plotW / 90))));
      const ticks = d.times.filter((_, i) => i % every === 0);
      const labels = axisTimeLabels(ticks, every * step);
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      ticks.forEach((t, i) => {
        const x = LEFT + (timeIndex.get(t) as number) * g.cellW;
        if (x < LEFT + g.plotW - 40) ctx.fillText(labels[i] ?? '', x, TOP + g.plotH + 4);
      });
    }
    if (cursor) {
      ctx.strokeStyle = h.colors.fg;
      ctx.lineWidth = 1;
      const x = LEFT + cursor.col * g.cellW;
      const y = TOP + (rows - 1 - cursor.row) * g.cellH;
      ctx.strokeRect(x - 1, y - 1, Math.max(1, g.cellW) + 2, Math.max(1, g.cellH) + 2);
    }
    h.drawn();
  };

  const show = (col: number, row: number) => {
    cursor = { col, row };
    const time = d.times[col] as number;
    const i = byKey.get(`${time}|${row}`);
    const cell = i === undefined ? undefined : d.cells[i];
    const from = row >= 1 ? edge(Math.min(row, d.buckets + 1) - 1, d) : null;
    const to = row <= d.buckets ? edge(Math.max(row, 0), d) : null;
    readout.textContent = '';
    readout.appendChild(el('strong', 'when', formatTimeZoned(time, d.stepMs < 60_000)));
    const item = readout.appendChild(el('span', 'item'));
    item.style.setProperty('--swatch', h.colors.cell);
    item.append(
      el('span', 'name', rangeText({ from, to }, d, h)),
      el('span', 'value', `${h.l('heatmapCount', 'Rows')}: ${(cell?.count ?? 0).toLocaleString('en-US')}`),
    );
    draw();
  };

  canvas.addEventListener('mousemove', (e) => {
    const g = layout();
    const rect = canvas.getBoundingClientRect();
    const col = Math.floor((e.clientX - rect.left - LEFT) / g.cellW);
    const row = rows - 1 - Math.floor((e.clientY - rect.top - TOP) / g.cellH);
    if (col < 0 || col >= d.times.length || row < 0 || row >= rows) return;
    show(col, row);
  });
  box.tabIndex = 0;
  box.addEventListener('keydown', (e) => {
    if (d.times.length === 0) return;
    // Without a cursor the keys start at the first cell with a count.
    const start = d.cells[0];
    const at = cursor ?? {
      col: start ? (timeIndex.get(start.time) ?? 0) : 0,
      row: start ? start.bucket : 1,
    };
    const moves: Record<string, { col: number; row: number }> = {
      ArrowLeft: { col: Math.max(0, at.col - 1), row: at.row },
      ArrowRight: { col: Math.min(d.times.length - 1, at.col + 1), row: at.row },
      ArrowUp: { col: at.col, row: Math.min(rows - 1, at.row + 1) },
      ArrowDown: { col: at.col, row: Math.max(0, at.row - 1) },
      Home: { col: 0, row: at.row },
      End: { col: d.times.length - 1, row: at.row },
    };
    const next = cursor ? moves[e.key] : moves[e.key] && at;
    if (!next) return;
    e.preventDefault();
    show(next.col, next.row);
  });
  new ResizeObserver(() => draw()).observe(box);
  draw();

  const legend = host.appendChild(el('div', 'legend'));
  legend.setAttribute('aria-hidden', 'true');
  const scale = legend.appendChild(
    el('span', undefined, h.fill(h.l('heatmapLegend', 'Rows per cell ({0} scale)'), d.scale)),
  );
  scale.style.setProperty('--swatch', h.colors.cell);
  if (d.times.length > 0) {
    legend.appendChild(el('span', 'zone', zoneOfRange(d.times[0] as number, d.times.at(-1) as number)));
  }
  host.appendChild(heatmapTable(d, h));
}

/** The cells as a table inside a closed <details>: time, value range, rows. */
function heatmapTable(d: HeatmapData, h: HeatmapHost): HTMLElement {
  const { el } = h;
  const details = el('details', 'data');
  details.appendChild(
    el(
      'summary',
      undefined,
      h.fill(h.l('chartTable', 'Chart data as a table ({0} rows)'), d.cells.length.toLocaleString('en-US')),
    ),
  );
  details.addEventListener('toggle', () => {
    if (!details.open || details.querySelector('table')) return;
    const table = el('table');
    const head = table.createTHead().insertRow();
    const zone = d.times.length > 0 ? zoneOfRange(d.times[0] as number, d.times.at(-1) as number) : '';
    for (const name of [
      `${h.l('time', 'Time')}${zone ? ` (${zone})` : ''}`,
      h.l('heatmapValue', 'Value'),
      h.l('heatmapCount', 'Rows'),
    ]) {
      head.appendChild(el('th', undefined, name)).setAttribute('scope', 'col');
    }
    const body = table.createTBody();
    for (const c of d.cells) {
      const tr = body.insertRow();
      tr.appendChild(el('th', undefined, formatTime(c.time, d.stepMs < 60_000))).setAttribute('scope', 'row');
      tr.appendChild(el('td', undefined, rangeText(c, d, h)));
      tr.appendChild(el('td', 'num', c.count.toLocaleString('en-US')));
    }
    details.appendChild(table);
  });
  return details;
}

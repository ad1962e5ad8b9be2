/**
 * The search's histogram: stacked bars of event counts per time bucket as SVG (every element made with the DOM and
 * its text set as text), a legend, dragging across it to narrow the range (brushing), and the same counts as a table.
 */
import { seriesColors } from '../../panels/chartColors';
import { formatTime, formatTimeZoned, zoneOfRange } from '../../panels/chartTime';
import type { SearchView } from '../protocol';

const SVG = 'http://www.w3.org/2000/svg';
const W = 1000;
const H = 90;
const AXIS = 14;

function svgEl<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function themeKind(): string {
  const c = document.body.classList;
  for (const k of ['vscode-high-contrast-light', 'vscode-high-contrast', 'vscode-light', 'vscode-dark']) {
    if (c.contains(k)) return k;
  }
  return 'vscode-dark';
}

/** Draws the histogram into `host`; returns the bars drawn. `onBrush` gets the range dragged across. */
export function drawHistogram(
  host: HTMLElement,
  h: SearchView['histogram'],
  range: { from: number; to: number },
  asTable: boolean,
  onBrush: (from: number, to: number) => void,
): number {
  host.replaceChildren();
  const names = h.groups.map((g) => (g === '' ? 'events' : g));
  const css = getComputedStyle(document.body);
  const colors = seriesColors(names, themeKind(), (n) => css.getPropertyValue(n));
  const legend = document.createElement('div');
  legend.className = 'legend';
  names.forEach((n, i) => {
    const s = document.createElement('span');
    s.style.setProperty('--swatch', colors[i] ?? 'currentColor');
    s.textContent = `${n} (${h.counts[i]!.reduce((a, b) => a + b, 0).toLocaleString()})`;
    legend.append(s);
  });
  if (asTable) {
    host.append(legend, table(h, names));
    return 0;
  }
  const n = h.buckets.length;
  const totals = h.buckets.map((_, b) => h.counts.reduce((a, c) => a + (c[b] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', tabindex: 0 });
  svg.setAttribute('aria-label', `Event counts over time, ${h.total} events; drag to narrow the range`);
  const barW = n > 0 ? W / n : W;
  let bars = 0;
  h.buckets.forEach((at, b) => {
    let y = H - AXIS;
    h.counts.forEach((c, g) => {
      const v = c[b] ?? 0;
      if (v <= 0) return;
      const hgt = (v / max) * (H - AXIS - 4);
      y -= hgt;
      const r = svgEl('rect', {
        x: b * barW + 0.5,
        y,
        width: Math.max(0.5, barW - 1),
        height: hgt,
        fill: colors[g] ?? 'currentColor',
      });
      const title = svgEl('title', {});
      title.textContent = `${formatTime(at, true)} · ${names[g]}: ${v}`;
      r.append(title);
      svg.append(r);
      bars++;
    });
  });
  for (const at of [range.from, (range.from + range.to) / 2, range.to]) {
    const x = ((at - range.from) / Math.max(1, range.to - range.from)) * W;
    const t = svgEl('text', { x: Math.min(W - 110, Math.max(0, x - 50)), y: H - 2 });
    t.textContent = formatTime(at, true);
    svg.append(t);
  }
  brushing(svg, h, range, onBrush);
  host.append(svg, legend);
  return bars;
}

/** Dragging across the bars selects whole buckets; the range becomes their span. */
function brushing(
  svg: SVGSVGElement,
  h: SearchView['histogram'],
  range: { from: number; to: number },
  onBrush: (from: number, to: number) => void,
): void {
  const n = Math.max(1, h.buckets.length);
  const brush = svgEl('rect', { class: 'brush', x: 0, y: 0, width: 0, height: H - AXIS });
  svg.append(brush);
  let start: number | undefined;
  const pos = (e: PointerEvent): number => {
    const r = svg.getBoundingClientRect();
    return Math.min(W, Math.max(0, ((e.clientX - r.left) / Math.max(1, r.width)) * W));
  };
  svg.addEventListener('pointerdown', (e) => {
    start = pos(e);
    svg.setPointerCapture(e.pointerId);
  });
  svg.addEventListener('pointermove', (e) => {
    if (start === undefined) return;
    const x = pos(e);
    brush.setAttribute('x', String(Math.min(start, x)));
    brush.setAttribute('width', String(Math.abs(x - start)));
  });
  svg.addEventListener('pointerup', (e) => {
    if (start === undefined) return;
    const x = pos(e);
    const [a, b] = [Math.min(start, x), Math.max(start, x)];
    start = undefined;
    brush.setAttribute('width', '0');
    if (b - a < 3 || h.buckets.length === 0) return;
    const first = Math.floor((a / W) * n);
    const last = Math.min(n - 1, Math.floor((b / W) * n));
    const from = Math.max(range.from, h.buckets[first]!);
    const to = Math.min(range.to, h.buckets[last]! + h.bucketMs - 1);
    if (from < to) onBrush(from, to);
  });
}

function table(h: SearchView['histogram'], names: string[]): HTMLTableElement {
  const t = document.createElement('table');
  t.className = 'data';
  const cap = document.createElement('caption');
  cap.className = 'sr';
  cap.textContent = 'Event counts per time bucket';
  const head = t.createTHead().insertRow();
  for (const label of [`Time (${zoneOfRange(h.buckets[0] ?? 0, h.buckets.at(-1) ?? 0)})`, ...names, 'Total']) {
    const th = document.createElement('th');
    th.textContent = label;
    head.append(th);
  }
  const body = t.createTBody();
  h.buckets.forEach((at, b) => {
    const counts = h.counts.map((c) => c[b] ?? 0);
    const total = counts.reduce((x, y) => x + y, 0);
    if (total === 0) return;
    const tr = body.insertRow();
    for (const v of [formatTime(at, true), ...counts.map(String), String(total)]) tr.insertCell().textContent = v;
  });
  t.prepend(cap);
  t.title = formatTimeZoned(h.buckets[0] ?? 0);
  return t;
}
